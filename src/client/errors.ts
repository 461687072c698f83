import { errorHint, type Operation } from './error-hints.ts';
import { serviceRequestIdOf, type ResponseMeta } from './response-meta.ts';
import { retryAfterMs } from './retry-after.ts';

export type { Operation } from './error-hints.ts';

/**
 * Typed errors of the client: a base `ApiError` carrying the HTTP status, the parsed body and the
 * service's request ID, one subclass per kind, chosen by `apiErrorFrom`. A failed *task* is not an
 * error: the poller returns it as data. Messages never contain an API key.
 */
export class VideoTaskError extends Error {
  override readonly name: string = 'VideoTaskError';
}

/** What an `ApiError` carries besides its message. */
export interface ApiErrorOptions {
  readonly status: number;
  /** The parsed JSON body, the text of a non-JSON body, or undefined when empty. */
  readonly body?: unknown;
  /** The request ID the service answered with; default: `meta.serviceRequestId`. */
  readonly serviceRequestId?: string | undefined;
  /** An error code from the body (`error.code` or the wrapper's `code`), when present. */
  readonly code?: string | undefined;
  /** Which call was refused, when the client knows it (it chooses the `hint`). */
  readonly operation?: Operation | undefined;
  /** The answer's request ID, rate-limit headers and other headers, when it came over HTTP. */
  readonly meta?: ResponseMeta | undefined;
}

/**
 * A refused request: the service answered with an error status.
 *
 * @example
 * new ApiError('Failed to query task_1: no such task (HTTP 404)', { status: 404, operation: 'query' });
 */
export class ApiError extends VideoTaskError {
  override readonly name: string = 'ApiError';
  readonly status: number;
  /** The parsed JSON body, the text of a non-JSON body, or undefined when empty. */
  readonly body: unknown;
  /**
   * The service's own ID of this answer (`X-Oneapi-Request-Id`, else `X-Request-Id`), to quote to
   * its administrator; not the client's request ID of a submission (`clientRequestId`).
   */
  readonly serviceRequestId: string | undefined;
  /** An error code from the body (`error.code` or the wrapper's `code`), when present. */
  readonly code: string | undefined;
  /** Which call was refused, when the client knows it. */
  readonly operation: Operation | undefined;
  /** The answer's request ID, rate-limit headers and other headers, when it came over HTTP. */
  readonly meta: ResponseMeta | undefined;

  constructor(message: string, options: ApiErrorOptions) {
    super(message);
    this.status = options.status;
    this.body = options.body;
    this.serviceRequestId = options.serviceRequestId ?? options.meta?.serviceRequestId;
    this.code = options.code;
    this.operation = options.operation;
    this.meta = options.meta;
  }

  /** What a person does next, chosen from the operation, the status and the code (`error-hints.ts`). */
  get hint(): string {
    return errorHint(this.operation, this.status, this.code);
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
  /** `Retry-After` in milliseconds, when the service sent one. */
  readonly retryAfterMs: number | undefined;
  constructor(
    message: string,
    options: ApiErrorOptions & { readonly retryAfterMs?: number | undefined },
  ) {
    super(message, options);
    this.retryAfterMs = options.retryAfterMs;
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
    /** The client's own request ID the submission was sent with: look the task up by it (§7). */
    readonly clientRequestId: string,
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

/** Where an answer came from: which call was refused, and the answer's metadata. */
export interface ApiErrorContext {
  readonly operation?: Operation | undefined;
  readonly meta?: ResponseMeta | undefined;
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
  const { code, message } = describeBody(body);
  const reason = message ?? `HTTP ${status}`;
  const suffix = message === undefined ? '' : ` (HTTP ${status}${code ? `, ${code}` : ''})`;
  const text = `Failed to ${action}: ${reason}${suffix}`;
  const options = { ...context, status, body, code, serviceRequestId: serviceRequestIdOf(headers) };
  if (status === 401) return new AuthenticationError(text, options);
  if (status === 403) return new PermissionDeniedError(text, options);
  if (status === 404) return new NotFoundError(text, options);
  if (status === 413 || status === 415) return new UnsupportedRequestError(text, options);
  if (status === 429)
    return new RateLimitError(text, {
      ...options,
      retryAfterMs: retryAfterMs(headers.get('retry-after')),
    });
  if (status >= 500) return new ServerError(text, options);
  return new BadRequestError(text, options);
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
