/**
 * The client's requests, typed by the paths generated from the spec (`src/generated/openapi.ts`), in
 * the way of openapi-fetch (`api.GET(path, { params: { path }, … })`) but only what the client uses:
 * path parameters, a JSON body, a JSON or streamed answer. A path the spec does not declare for the
 * method, a missing path parameter or a body of the wrong shape fails to compile
 * (decisions/026-lean-client.md: openapi-fetch was 6.6 KB of the 42 KB browser bundle).
 */
import type { paths } from '../generated/openapi.ts';
import { serviceUrl } from './client-support.ts';

type Method = 'get' | 'post';

/** The paths that declare `method`. */
type PathOf<M extends Method> = {
  [P in keyof paths]: paths[P] extends Record<M, object> ? P : never;
}[keyof paths];

type PathParams<O> = O extends { parameters: { path: infer X } }
  ? { readonly params: { readonly path: X } }
  : { readonly params?: undefined };

type JsonBody<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? { readonly body: B }
  : { readonly body?: undefined };

/** The answer of one request: `data` for a 2xx, `error` (parsed JSON, else text) otherwise. */
export interface ApiResult {
  readonly data?: unknown;
  readonly error?: unknown;
  readonly response: Response;
}

/** What every request carries besides its path parameters and body. */
export interface ApiInit {
  readonly headers: Headers;
  readonly signal: AbortSignal;
  readonly fetch: (request: Request) => Promise<Response>;
  /** `json` (default): the 2xx body parsed; `stream`: the 2xx body as it is. */
  readonly parseAs?: 'json' | 'stream';
}

type Init<M extends Method, P extends PathOf<M>> = ApiInit &
  PathParams<paths[P][M]> &
  JsonBody<paths[P][M]>;

export interface Api {
  GET<P extends PathOf<'get'>>(path: P, init: Init<'get', P>): Promise<ApiResult>;
  POST<P extends PathOf<'post'>>(path: P, init: Init<'post', P>): Promise<ApiResult>;
}

/**
 * The requests of one base address.
 *
 * @example
 * const { data } = await createApi('https://video.example.com').GET('/v1/videos/{task_id}', {
 *   params: { path: { task_id } }, headers, signal, fetch });
 */
export function createApi(baseUrl: string): Api {
  const send = async (method: string, path: string, init: UntypedInit) => {
    const values = init.params?.path ?? {};
    const url = serviceUrl(
      baseUrl,
      path.replace(/\{([^{}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? '')),
    );
    const body = init.body === undefined ? null : JSON.stringify(init.body);
    const request = new Request(url, { method, headers: init.headers, body, signal: init.signal });
    return read(await init.fetch(request), init.parseAs ?? 'json');
  };
  return {
    GET: (path, init) => send('GET', path, init),
    POST: (path, init) => send('POST', path, init),
  };
}

/** An `Init` once its types have been checked at the call. */
interface UntypedInit extends ApiInit {
  readonly params?: { readonly path?: Readonly<Record<string, string>> } | undefined;
  readonly body?: unknown;
}

/** The body as openapi-fetch reads it: none when empty, JSON (or a stream) for a 2xx, else JSON or text. */
async function read(response: Response, parseAs: 'json' | 'stream'): Promise<ApiResult> {
  const length = response.headers.get('content-length');
  const chunked = response.headers.get('transfer-encoding')?.includes('chunked') === true;
  if (response.status === 204 || (length === '0' && !chunked))
    return response.ok ? { data: undefined, response } : { error: undefined, response };
  if (!response.ok) {
    const text = await response.text();
    try {
      return { error: JSON.parse(text) as unknown, response };
    } catch {
      return { error: text, response };
    }
  }
  if (parseAs === 'stream') return { data: response.body, response };
  const text = await response.text();
  return { data: text === '' ? undefined : (JSON.parse(text) as unknown), response };
}
