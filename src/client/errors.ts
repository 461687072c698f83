import { errorHint, type Operation } from './error-hints.ts';
import { requestIdOf, type ResponseMeta } from './response-meta.ts';
import { retryAfterMs } from './retry-after.ts';

export { retryAfterMs } from './retry-after.ts';
export type { Operation } from './error-hints.ts';

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
  /** Which call was refused, when the client knows it. */
  readonly operation: Operation | undefined;
  /** The answer's request ID, rate-limit headers and other headers, when it came over HTTP. */
  readonly meta: ResponseMeta | undefined;

  constructor(
    message: string,
    readonly status: number,
    /** The parsed JSON body, the text of a non-JSON body, or undefined when empty. */
    readonly body: unknown,
    /** The server's request id (`X-Oneapi-Request-Id` or `X-Request-Id`), when it sent one. */
    readonly requestId: string | undefined,
    /** An error code from the body (`error.code` or the wrapper's `code`), when present. */
    readonly code: string | undefined,
    context: ApiErrorContext = {},
  ) {
    super(message);
    this.operation = context.operation;
    this.meta = context.meta;
  }

  /** What a person does next, chosen from the operation, the status and the code (`error-hints.ts`). */
  get hint(): string {
    return errorHint(this.operation, this.status, this.code);
  }
}

/** Where an `ApiError` came from: which call was refused, and the answer's metadata. */
export interface ApiErrorContext {
  readonly operation?: Operation | undefined;
  readonly meta?: ResponseMeta | undefined;
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
    context: ApiErrorContext = {},
  ) {
    super(message, status, body, requestId, code, context);
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

/**
 * A response that contradicts the contract (e.g. JSON where a video was due, or a 200 whose body is
 * not JSON). For a submission the task may exist (§7): `submitWithRetry` reports it as unconfirmed.
 */
export class UnexpectedResponseError extends VideoTaskError {
  override readonly name: string = 'UnexpectedResponseError';
  /** The answer's request ID and headers, when it came over HTTP. */
  readonly meta: ResponseMeta | undefined;
  constructor(message: string, options: { cause?: unknown; meta?: ResponseMeta | undefined } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.meta = options.meta;
  }
}

/**
 * An answer larger than the client reads: a JSON body over `maxResponseBytes` (default 4 MiB), or a
 * video over `maxBytes` (default 2 GiB). Reading stopped at the limit; nothing partial was kept.
 */
export class ResponseTooLargeError extends UnexpectedResponseError {
  override readonly name = 'ResponseTooLargeError';
  constructor(
    message: string,
    /** The limit in bytes that was passed. */
    readonly limit: number,
    readonly operation: Operation,
    meta?: ResponseMeta,
  ) {
    super(message, { meta });
  }
}

/** A task journal that cannot be used as it is (damaged, or not a file): nothing in it was changed. */
export class JournalError extends VideoTaskError {
  override readonly name = 'JournalError';
  constructor(
    message: string,
    readonly path: string,
    /** The 1-based line that is damaged, when one is. */
    readonly line?: number,
  ) {
    super(message);
  }
}

/**
 * Picks the error class for a status and builds its message: "Failed to <action>: <reason> (HTTP n)".
 * `context` names the operation (which chooses the `hint`) and carries the answer's metadata.
 */
export function apiErrorFrom(
  action: string,
  status: number,
  body: unknown,
  headers: Headers,
  context: ApiErrorContext = {},
): ApiError {
  const requestId = requestIdOf(headers);
  const { code, message } = describeBody(body);
  const reason = message ?? `HTTP ${status}`;
  const suffix = message === undefined ? '' : ` (HTTP ${status}${code ? `, ${code}` : ''})`;
  const text = `Failed to ${action}: ${reason}${suffix}`;
  const args = [text, status, body, requestId, code] as const;
  if (status === 401) return new AuthenticationError(...args, context);
  if (status === 403) return new PermissionDeniedError(...args, context);
  if (status === 404) return new NotFoundError(...args, context);
  if (status === 413 || status === 415) return new UnsupportedRequestError(...args, context);
  if (status === 429)
    return new RateLimitError(...args, retryAfterMs(headers.get('retry-after')), context);
  if (status >= 500) return new ServerError(...args, context);
  return new BadRequestError(...args, context);
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

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
export const isRateLimitError = (e: unknown): e is RateLimitError => e instanceof RateLimitError;
export const isServerError = (e: unknown): e is ServerError => e instanceof ServerError;
