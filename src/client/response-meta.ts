import { retryAfterMs } from './retry-after.ts';

/**
 * What a caller may want from an answer besides its body: the service's request ID to quote to its
 * administrator, the rate-limit headers, and every header as sent (`X-New-Api-Other-Ratios`, …).
 * Reached through `client.withResponse()` and, for a refused request, `ApiError.meta`.
 */
export interface ResponseMeta {
  readonly status: number;
  /** The address that answered, after redirects. */
  readonly url: string;
  /**
   * The service's own ID of this answer: `X-Oneapi-Request-Id` (the deployed gateway's) or else
   * `X-Request-Id`, when it sent one. Quote it to the service's administrator. Not the client's own
   * request ID of a submission (`clientRequestId`, sent as `X-Request-Id`).
   */
  readonly serviceRequestId: string | undefined;
  /** `Retry-After` in milliseconds (seconds or an HTTP date), when present. */
  readonly retryAfterMs: number | undefined;
  /** Every `X-RateLimit-*` header by the rest of its lower-cased name (`limit`, `remaining`, `reset`, …), raw. */
  readonly rateLimit: Readonly<Record<string, string>>;
  /**
   * Every response header by its lower-cased name; a value holding the API key is masked (a server
   * may echo it, §5). A plain object, so the whole `meta` can be logged as JSON.
   */
  readonly headers: Readonly<Record<string, string>>;
}

/** A result together with the answer's metadata. */
export interface WithMeta<T> {
  readonly data: T;
  readonly meta: ResponseMeta;
}

const RATE_LIMIT_PREFIX = 'x-ratelimit-';

/**
 * The metadata of `response`, header values passed through `redact`.
 *
 * @example
 * responseMeta(new Response(null, { headers: { 'x-ratelimit-remaining': '0' } }), (t) =>
 * t).rateLimit; // { remaining: '0' }
 */
export function responseMeta(response: Response, redact: (text: string) => string): ResponseMeta {
  const headers: Record<string, string> = {};
  const rateLimit: Record<string, string> = {};
  // Headers iterates lower-cased names, each once (repeated values joined).
  for (const [name, raw] of response.headers) {
    const value = redact(raw);
    headers[name] = value;
    if (name.startsWith(RATE_LIMIT_PREFIX) && name.length > RATE_LIMIT_PREFIX.length)
      rateLimit[name.slice(RATE_LIMIT_PREFIX.length)] = value;
  }
  return {
    status: response.status,
    url: response.url,
    serviceRequestId: headers['x-oneapi-request-id'] ?? headers['x-request-id'],
    retryAfterMs: retryAfterMs(headers['retry-after'] ?? null),
    rateLimit,
    headers,
  };
}

/** The service's request ID in `Headers`: the gateway's `X-Oneapi-Request-Id`, else `X-Request-Id`. */
export function serviceRequestIdOf(headers: Headers): string | undefined {
  return headers.get('x-oneapi-request-id') ?? headers.get('x-request-id') ?? undefined;
}
