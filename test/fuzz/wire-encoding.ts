// The bytes of a request as a wire spec mangles it.
import type { WireSpec } from './wire-spec.ts';
import type { ResolvedCall } from './world.ts';
const CRLF = '\r\n';

function headerName(name: string, style: WireSpec['nameCase']): string {
  if (style === 'upper') return name.toUpperCase();
  if (style === 'title')
    return name.replace(/(^|-)([a-z])/g, (_m, d: string, c: string) => d + c.toUpperCase());
  return name;
}

/** The bytes of a request as the wire spec mangles it, and what node:http will make of its headers. */
export function encodeRequest(
  call: ResolvedCall,
  wire: WireSpec,
  port: number,
): {
  head: Buffer;
  body: Buffer;
  after: 'keep' | 'half-close' | 'destroy';
  sentHeaders: [string, string][];
} {
  const target = `${call.path}${call.query === '' ? '' : `?${call.query}`}`;
  const line = {
    normal: `${call.method} ${target} HTTP/1.1`,
    'extra-space': `${call.method}  ${target}  HTTP/1.1`,
    tab: `${call.method}\t${target}\tHTTP/1.1`,
    'lowercase-version': `${call.method} ${target} http/1.1`,
    'no-version': `${call.method} ${target}`,
    http10: `${call.method} ${target} HTTP/1.0`,
    http2: `${call.method} ${target} HTTP/2.0`,
    http12: `${call.method} ${target} HTTP/1.2`,
    garbage: `\u0001${call.method}\u0000 ${target} HTTP/1.1`,
    'bare-lf': `${call.method} ${target} HTTP/1.1`,
  }[wire.requestLine];
  const eol = wire.requestLine === 'bare-lf' ? '\n' : CRLF;
  const body = Buffer.from(call.body ?? new Uint8Array());
  const headers: [string, string][] = [];
  if (wire.host === 'ok') headers.push(['host', `127.0.0.1:${port}`]);
  else if (wire.host === 'odd') headers.push(['host', 'évil host/../x']);
  else if (wire.host === 'twice')
    headers.push(['host', `127.0.0.1:${port}`], ['host', 'other.test']);
  else if (wire.host === 'empty') headers.push(['host', '']);
  headers.push(...call.headers.map(([n, v]): [string, string] => [n, v]));
  if (wire.close) headers.push(['connection', 'close']);
  if (wire.expect !== null) headers.push(['expect', wire.expect]);
  let payload = body;
  const hasBody = body.byteLength > 0 || ['POST', 'PUT', 'PATCH'].includes(call.method);
  switch (wire.framing) {
    case 'auto':
      if (hasBody) headers.push(['content-length', String(body.byteLength)]);
      break;
    case 'chunked': {
      headers.push(['transfer-encoding', 'chunked']);
      const third = Math.ceil(body.byteLength / 3) || 1;
      const parts: Buffer[] = [];
      for (let i = 0; i < body.byteLength; i += third) {
        const chunk = body.subarray(i, i + third);
        parts.push(
          Buffer.from(`${chunk.byteLength.toString(16)}${CRLF}`),
          chunk,
          Buffer.from(CRLF),
        );
      }
      parts.push(Buffer.from(`0${CRLF}${CRLF}`));
      payload = Buffer.concat(parts);
      break;
    }
    case 'none':
      break;
    case 'length-dup':
      headers.push(
        ['content-length', String(body.byteLength)],
        ['content-length', String(body.byteLength)],
      );
      break;
    case 'length-conflict':
      headers.push(
        ['content-length', String(body.byteLength)],
        ['content-length', String(body.byteLength + 1)],
      );
      break;
    case 'length-and-chunked':
      headers.push(['content-length', String(body.byteLength)], ['transfer-encoding', 'chunked']);
      break;
    case 'bad-chunk':
      headers.push(['transfer-encoding', 'chunked']);
      payload = Buffer.concat([
        Buffer.from(`zz${CRLF}`),
        body,
        Buffer.from(`${CRLF}0${CRLF}${CRLF}`),
      ]);
      break;
    case 'length-lies-long':
      headers.push(['content-length', String(body.byteLength + 10)]);
      break;
    case 'length-lies-short':
      headers.push(['content-length', String(Math.max(0, body.byteLength - 3))]);
      break;
    case 'length-garbage':
      headers.push(['content-length', `${body.byteLength}abc`]);
      break;
  }
  const lines = [line, ...headers.map(([n, v]) => `${headerName(n, wire.nameCase)}: ${v}`)];
  const head = Buffer.concat([
    Buffer.from(lines.join(eol) + eol, 'latin1'),
    ...wire.injected.flatMap((l) => [l, Buffer.from(eol)]),
    Buffer.from(eol),
  ]);
  let after: 'keep' | 'half-close' | 'destroy' =
    wire.framing === 'length-lies-long' ? 'half-close' : 'keep';
  if (wire.early === 'destroy-after-headers')
    return { head, body: Buffer.alloc(0), after: 'destroy', sentHeaders: headers };
  if (wire.early !== 'none') {
    payload = payload.subarray(0, Math.floor(payload.byteLength / 2));
    after = wire.early === 'destroy-mid-body' ? 'destroy' : 'half-close';
  }
  return { head, body: payload, after, sentHeaders: headers };
}

export function split(bytes: Buffer, pieces: number): Buffer[] {
  if (pieces <= 1 || bytes.byteLength < pieces) return [bytes];
  const size = Math.ceil(bytes.byteLength / pieces);
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.byteLength; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}
