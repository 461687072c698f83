/**
 * A deliberately dumb HTTP/1.x client on a raw TCP socket: it sends exactly the bytes it is given
 * (malformed request lines, invalid header bytes, lying framing, early close) and parses what comes back.
 */
import { connect } from 'node:net';

export interface RawResponse {
  readonly status: number;
  /** Lower-cased names; repeated headers joined with ", ". */
  readonly headers: Record<string, string>;
  /** `undefined` when the response has no body (HEAD, 1xx, 204, 304, or zero length). */
  readonly body: Uint8Array | undefined;
}

export interface RawResult {
  /** The first final (non-1xx) response, if one arrived complete. */
  readonly response: RawResponse | undefined;
  /** Interim 1xx responses seen before it. */
  readonly interim: number;
  readonly closedByServer: boolean;
  readonly timedOut: boolean;
  /** A socket error (EPIPE, ECONNRESET…) seen on the way. */
  readonly error: string | undefined;
  readonly received: number;
  readonly ms: number;
}

export interface RawSend {
  readonly port: number;
  /** Written in order, one write per piece (a macrotask apart), so the parser sees split packets. */
  readonly pieces: readonly Uint8Array[];
  /** After the last piece: keep the socket open, half-close it (FIN), or destroy it (no answer expected). */
  readonly after: 'keep' | 'half-close' | 'destroy';
  /** The request method (a HEAD answer has no body whatever its Content-Length says). */
  readonly method: string;
  readonly timeoutMs: number;
}

export function sendRaw(send: RawSend): Promise<RawResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let error: string | undefined;
    let settled = false;
    const socket = connect(send.port, '127.0.0.1');
    const finish = (closedByServer: boolean, timedOut: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const parsed = parseResponse(Buffer.concat(chunks), send.method, closedByServer || timedOut);
      resolve({
        response: parsed.response,
        interim: parsed.interim,
        closedByServer,
        timedOut,
        error,
        received,
        ms: performance.now() - started,
      });
    };
    const timer = setTimeout(() => finish(false, true), send.timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.byteLength;
      if (
        send.after !== 'destroy' &&
        parseResponse(Buffer.concat(chunks), send.method, false).response !== undefined
      )
        finish(false, false);
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error ??= e.code ?? e.message;
    });
    socket.on('close', () => finish(true, false));
    const sendPieces = async (): Promise<void> => {
      for (const piece of send.pieces) {
        if (socket.destroyed) return;
        socket.write(piece);
        await new Promise((r) => setImmediate(r));
      }
      if (send.after === 'half-close') socket.end();
      else if (send.after === 'destroy') {
        socket.destroy();
        finish(false, false);
      }
    };
    socket.on('connect', () => void sendPieces());
  });
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** The first final response in `bytes`, when complete (or, once the connection closed, what is there). */
export function parseResponse(
  bytes: Buffer,
  method: string,
  closed: boolean,
): { response: RawResponse | undefined; interim: number } {
  let offset = 0;
  let interim = 0;
  for (;;) {
    const end = bytes.indexOf(HEAD_END, offset);
    if (end < 0) return { response: undefined, interim };
    const lines = bytes.subarray(offset, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/\d\.\d (\d{3})/.exec(lines[0] ?? '')?.[1] ?? NaN);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    const bodyStart = end + 4;
    if (status >= 100 && status < 200) {
      interim++;
      offset = bodyStart;
      continue;
    }
    if (Number.isNaN(status))
      return { response: { status: 0, headers, body: bytes.subarray(offset) }, interim };
    if (method === 'HEAD' || status === 204 || status === 304)
      return { response: { status, headers, body: undefined }, interim };
    const length = headers['content-length'];
    if (length !== undefined) {
      const n = Number(length);
      if (bytes.byteLength - bodyStart < n)
        return {
          response: closed ? { status, headers, body: bytes.subarray(bodyStart) } : undefined,
          interim,
        };
      return {
        response: {
          status,
          headers,
          body: n === 0 ? undefined : bytes.subarray(bodyStart, bodyStart + n),
        },
        interim,
      };
    }
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const body = dechunk(bytes.subarray(bodyStart));
      if (body === undefined)
        return {
          response: closed ? { status, headers, body: bytes.subarray(bodyStart) } : undefined,
          interim,
        };
      return {
        response: { status, headers, body: body.byteLength === 0 ? undefined : body },
        interim,
      };
    }
    // No framing: the body runs to the end of the connection.
    if (!closed) return { response: undefined, interim };
    const rest = bytes.subarray(bodyStart);
    return {
      response: { status, headers, body: rest.byteLength === 0 ? undefined : rest },
      interim,
    };
  }
}

/** A chunked body's bytes, or `undefined` until the last chunk has arrived. */
function dechunk(bytes: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', offset);
    if (lineEnd < 0) return undefined;
    const size = parseInt(bytes.subarray(offset, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) return Buffer.concat(parts);
    if (size === 0) return Buffer.concat(parts);
    if (bytes.byteLength < lineEnd + 2 + size + 2) return undefined;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
}
