/**
 * Typed errors of the client: a base `ApiError` carrying the HTTP status, the parsed body and the
 * request id, one subclass per kind, chosen by `apiErrorFrom`. A failed *task* is not an error: the
 * poller returns it as data. Messages never contain an API key.
 */
export class VideoTaskError extends Error {
  override readonly name: string = 'VideoTaskError';
}

export class ApiError extends VideoTaskError {
  override readonly name: string = 'ApiError';

  constructor(
    message: string,
    readonly status: number,
    /** The parsed JSON body, the text of a non-JSON body, or undefined when empty. */
    readonly body: unknown,
    /** The server's request id (`X-Oneapi-Request-Id` or `X-Request-Id`), when it sent one. */
    readonly requestId: string | undefined,
    /** An error code from the body (`error.code` or the wrapper's `code`), when present. */
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/** 400 and other 4xx not below: the request is wrong; fix it, do not retry (§7). */
export class BadRequestError extends ApiError {
  override readonly name = 'BadRequestError';
}
/** 401: missing or invalid key (§5). */
export class AuthenticationError extends ApiError {
  override readonly name = 'AuthenticationError';
}
/** 403: the token or group may not do this (§5), or the quota is exhausted. */
export class PermissionDeniedError extends ApiError {
  override readonly name = 'PermissionDeniedError';
}
/** 404: no such task for this key (missing and foreign look the same, §5). */
export class NotFoundError extends ApiError {
  override readonly name = 'NotFoundError';
}
/** 413 / 415: the body is too large or not JSON. */
export class UnsupportedRequestError extends ApiError {
  override readonly name = 'UnsupportedRequestError';
}
/** 429: quota or rate limit (§7, §8); retry with backoff, honouring `retryAfterMs`. */
export class RateLimitError extends ApiError {
  override readonly name = 'RateLimitError';
  constructor(
    message: string,
    status: number,
    body: unknown,
    requestId: string | undefined,
    code: string | undefined,
    readonly retryAfterMs: number | undefined,
  ) {
    super(message, status, body, requestId, code);
  }
}
/** 5xx: the service failed; a query may be retried a limited number of times (§7). */
export class ServerError extends ApiError {
  override readonly name = 'ServerError';
}

/** No HTTP answer at all (refused, reset, DNS). */
export class ConnectionError extends VideoTaskError {
  override readonly name = 'ConnectionError';
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/** The request did not finish within its time limit. For a submission, the task may or may not exist (§7). */
export class RequestTimeoutError extends VideoTaskError {
  override readonly name = 'RequestTimeoutError';
}

/** A submission whose outcome is unknown (timed out or the connection dropped): never blindly resubmitted (§7). */
export class SubmissionUnconfirmedError extends VideoTaskError {
  override readonly name = 'SubmissionUnconfirmedError';
  constructor(
    message: string,
    readonly requestId: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/** The polling loop ran out of attempts or time (§8) before the task reached completed or failed. */
export class PollTimeoutError extends VideoTaskError {
  override readonly name = 'PollTimeoutError';
  constructor(
    message: string,
    readonly taskId: string,
    readonly attempts: number,
    readonly lastStatus: string | undefined,
  ) {
    super(message);
  }
}

/** A response that contradicts the contract (e.g. JSON where a video was due). */
export class UnexpectedResponseError extends VideoTaskError {
  override readonly name = 'UnexpectedResponseError';
}

/** Picks the error class for a status and builds its message: "Failed to <action>: <reason> (HTTP n)". */
export function apiErrorFrom(
  action: string,
  status: number,
  body: unknown,
  headers: Headers,
): ApiError {
  const requestId = headers.get('x-oneapi-request-id') ?? headers.get('x-request-id') ?? undefined;
  const { code, message } = describeBody(body);
  const text = `Failed to ${action}: ${message ?? `HTTP ${status}`}${message === undefined ? '' : ` (HTTP ${status}${code ? `, ${code}` : ''})`}`;
  if (status === 401) return new AuthenticationError(text, status, body, requestId, code);
  if (status === 403) return new PermissionDeniedError(text, status, body, requestId, code);
  if (status === 404) return new NotFoundError(text, status, body, requestId, code);
  if (status === 413 || status === 415)
    return new UnsupportedRequestError(text, status, body, requestId, code);
  if (status === 429)
    return new RateLimitError(
      text,
      status,
      body,
      requestId,
      code,
      retryAfterMs(headers.get('retry-after')),
    );
  if (status >= 500) return new ServerError(text, status, body, requestId, code);
  return new BadRequestError(text, status, body, requestId, code);
}

/** The error code and message of either envelope (OpenAI style or task wrapper style), if any. */
export function describeBody(body: unknown): {
  code: string | undefined;
  message: string | undefined;
} {
  if (body === null || typeof body !== 'object')
    return {
      code: undefined,
      message:
        typeof body === 'string' && body.trim() !== '' ? body.trim().slice(0, 300) : undefined,
    };
  const b = body as {
    error?: { code?: unknown; message?: unknown };
    code?: unknown;
    message?: unknown;
  };
  const error = b.error !== null && typeof b.error === 'object' ? b.error : undefined;
  const code = error?.code ?? b.code;
  const message = error?.message ?? b.message;
  return {
    code: typeof code === 'string' && code !== '' ? code : undefined,
    message: typeof message === 'string' && message !== '' ? message : undefined,
  };
}

/** `Retry-After` as milliseconds: seconds or an HTTP date. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
export const isRateLimitError = (e: unknown): e is RateLimitError => e instanceof RateLimitError;
export const isServerError = (e: unknown): e is ServerError => e instanceof ServerError;
