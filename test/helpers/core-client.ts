import type { CoreRequest } from '../../mocks/core/http/http-types.ts';
import { createMockService, type MockOptions, type MockService } from '../../mocks/index.ts';
import { seen, type SeenResponse } from './conformance.ts';

export const ORIGIN = 'http://mock.test';
const encoder = new TextEncoder();

export interface CoreCall {
  /**
   * The key sent as `Authorization: Bearer KEY` (over any `authorization` in `headers`): sk-mock-alice
   * unless given; null sends none.
   */
  readonly key?: string | null;
  /** A JSON body, sent with `Content-Type: application/json` (unless `headers` names another). */
  readonly body?: unknown;
  /** Raw body bytes or text, sent as is. */
  readonly raw?: string | Uint8Array;
  readonly headers?: Record<string, string>;
  /** The query string without `?` ('' unless given). */
  readonly query?: string;
  /** `http://host:port` as the client addressed the service: ORIGIN unless given. */
  readonly origin?: string;
  readonly remoteAddress?: string;
}

/**
 * The one way a test builds a request for the service core (`service.handle`), as a host would hand
 * it over: the key as a bearer token, a JSON or raw body encoded.
 */
export function coreRequest(method: string, path: string, c: CoreCall = {}): CoreRequest {
  const headers: Record<string, string> = { ...c.headers };
  const key = c.key === undefined ? 'sk-mock-alice' : c.key;
  if (key !== null) headers['authorization'] = `Bearer ${key}`;
  let body: Uint8Array | undefined;
  if (c.raw !== undefined) body = typeof c.raw === 'string' ? encoder.encode(c.raw) : c.raw;
  else if (c.body !== undefined) {
    body = encoder.encode(JSON.stringify(c.body));
    headers['content-type'] ??= 'application/json';
  }
  return {
    method,
    path,
    query: c.query ?? '',
    headers,
    body,
    origin: c.origin ?? ORIGIN,
    ...(c.remoteAddress === undefined ? {} : { remoteAddress: c.remoteAddress }),
  };
}

/** Drives the service core in-process, as the hosts do, with a manual clock by default. */
export function coreClient(options: MockOptions = {}): {
  service: MockService;
  call: (method: string, path: string, call?: CoreCall) => SeenResponse;
  submit: (body?: Record<string, unknown>, key?: string) => string;
} {
  const service = createMockService({
    clock: { mode: 'manual', start: Date.UTC(2026, 10, 22) },
    seed: 'test',
    secret: 'core-client-secret',
    ...options,
  });
  const call = (method: string, path: string, c: CoreCall = {}): SeenResponse =>
    seen(service.handle(coreRequest(method, path, c)));
  const submit = (
    body: Record<string, unknown> = { model: 'video-pro-v1', prompt: 'a red kite' },
    key = 'sk-mock-alice',
  ): string => {
    const response = call('POST', '/v1/video/generations', { body, key });
    if (response.status !== 200)
      throw new Error(`submit failed: ${response.status} ${JSON.stringify(response.body)}`);
    return (response.body as { id: string }).id;
  };
  return { service, call, submit };
}
