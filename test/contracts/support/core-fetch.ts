import type { CoreResponse, MockService } from '../../../mocks/index.ts';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const encoder = new TextEncoder();

function headersOf(init: RequestInit | undefined): Record<string, string> {
  const given = init?.headers;
  if (given === undefined || given instanceof Headers || Array.isArray(given)) {
    const headers: Record<string, string> = {};
    new Headers(given).forEach((value, name) => (headers[name] = value));
    return headers;
  }
  // The recorder's plain object of lower-case names: taken as is (a Headers round trip costs more).
  return { ...given };
}

function bodyOf(init: RequestInit | undefined): Uint8Array | undefined {
  const body = init?.body;
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  throw new TypeError('coreFetch sends string or Uint8Array bodies only');
}

/**
 * The part of a `Response` the contract recorder reads, without a web stream: constructing a real
 * `Response` builds a transferable `ReadableStream` (most of an in-process request's cost), and the
 * self-proof sends about 170,000 requests.
 */
function toResponse(answer: CoreResponse, redirected: boolean): Response {
  const bytes =
    answer.body === undefined
      ? new Uint8Array()
      : typeof answer.body === 'string'
        ? encoder.encode(answer.body)
        : answer.body;
  const headers = new Map(Object.entries(answer.headers));
  // As an HTTP/1.1 server frames it: a length for a body, none for a chunked one or an answer to HEAD.
  const framed = headers.has('content-length') || headers.has('transfer-encoding');
  if (!framed && answer.body !== undefined) headers.set('content-length', String(bytes.byteLength));
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const response = {
    status: answer.status,
    ok: answer.status >= 200 && answer.status < 300,
    headers: {
      get: (name: string) => headers.get(name.toLowerCase()) ?? null,
      [Symbol.iterator]: () => headers.entries(),
    },
    redirected,
    body: answer.body === undefined ? null : oneChunk(bytes),
    arrayBuffer: () => Promise.resolve(whole ? bytes.buffer : bytes.slice().buffer),
  };
  return response as unknown as Response;
}

async function* oneChunk(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  await Promise.resolve();
  yield bytes;
}

/**
 * A lost answer (scenario `lost-answer`, §7), as a host delivers it: dropped unanswered (fetch fails as
 * on a closed connection), or held `holdMs` of real time unless the request is aborted first.
 */
function lose(answer: CoreResponse, init: RequestInit | undefined): Promise<Response> {
  const dropped = () =>
    new TypeError('fetch failed', {
      cause: { code: 'UND_ERR_SOCKET', message: 'other side closed' },
    });
  const holdMs = answer.lost?.holdMs;
  if (holdMs === undefined) return Promise.reject(dropped());
  return new Promise((resolve, reject) => {
    const signal = init?.signal ?? undefined;
    const timer = setTimeout(
      () => resolve(toResponse({ ...answer, lost: undefined }, false)),
      holdMs,
    );
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/**
 * A `fetch` that answers from the mock's core in-process (`service.handle`), as the hosts do: no socket,
 * no server, redirects followed like fetch's `redirect: 'follow'` (a HEAD stays a HEAD), lost answers
 * lost. Contract runs against the mock use it to run hundreds of times in a test.
 */
export function coreFetch(service: MockService): typeof fetch {
  return (input, init) => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    let method = init?.method ?? 'GET';
    let body = bodyOf(init);
    const headers = headersOf(init);
    for (let hop = 0; hop <= 5; hop++) {
      const answer = service.handle({
        method,
        path: url.pathname,
        query: url.search.slice(1),
        headers,
        body,
        origin: url.origin,
      });
      if (answer.lost !== undefined) return lose(answer, init);
      const location = answer.headers['location'];
      if (!REDIRECTS.has(answer.status) || location === undefined || init?.redirect === 'manual')
        return Promise.resolve(toResponse(answer, hop > 0));
      url = new URL(location, url);
      method = method === 'HEAD' ? 'HEAD' : 'GET';
      body = undefined;
    }
    return Promise.reject(new TypeError('fetch failed: too many redirects'));
  };
}
