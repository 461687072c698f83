import type { ErrorCode } from '../generated/client-contract.ts';
import {
  ApiError,
  ConnectionError,
  RateLimitError,
  RequestTimeoutError,
  ServerError,
  UnexpectedResponseError,
} from './errors.ts';

/**
 * What a failed submission means (§7), decided from the client's typed error alone:
 * - `rate-limited`: a 429; nothing was created; retry with exponential backoff.
 * - `refused`: any other 4xx, or a 5xx whose code is a known routing refusal (`REFUSED_5XX_CODES`);
 *   nothing was created; fix the request, do not retry.
 * - `not-sent`: the connection was never made (refused, DNS); nothing was created; the caller decides.
 * - `unknown`: the request may have reached the service (a timeout, a connection dropped after
 *   connecting, a 5xx, or a 2xx whose body is not a task: not JSON, too large, no ID); the task may
 *   exist. Never resubmit blindly: check the client's own
 *   idempotency records (§7 "Submission connection times out").
 * - `other`: not a client error (a bug, an abort reason); rethrown unchanged.
 */
export type SubmissionOutcome = 'rate-limited' | 'refused' | 'not-sent' | 'unknown' | 'other';

/**
 * 5xx error codes that are routing refusals made before any task exists. The deployed gateway answers
 * an unknown model, or one without a channel in the caller's group, with 503 `model_not_found`
 * (reference-gateway-facts.md; an assumption, the document shows no error codes, §7).
 */
export const REFUSED_5XX_CODES: ReadonlySet<string> = new Set<ErrorCode>(['model_not_found']);

/** Socket error codes that mean no byte of the request left this machine. */
export const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * Classifies an error thrown by a submission attempt.
 *
 * @example
 * submissionOutcome(new ConnectionError('reset', Object.assign(new Error('x'), { code: 'ECONNRESET' }))); // 'unknown'
 * submissionOutcome(new ConnectionError('refused', Object.assign(new Error('x'), { code:
 * 'ECONNREFUSED' }))); // 'not-sent'
 */
export function submissionOutcome(error: unknown): SubmissionOutcome {
  if (error instanceof RateLimitError) return 'rate-limited';
  if (error instanceof ServerError)
    return error.code !== undefined && REFUSED_5XX_CODES.has(error.code) ? 'refused' : 'unknown';
  if (error instanceof ApiError) return 'refused';
  if (error instanceof RequestTimeoutError) return 'unknown';
  // Thrown only for an answer that arrived (a 2xx the client could not read as a task): it was accepted.
  if (error instanceof UnexpectedResponseError) return 'unknown';
  if (error instanceof ConnectionError) return wasNeverSent(error.cause) ? 'not-sent' : 'unknown';
  return 'other';
}

/**
 * True when the cause chain names a "nothing was sent" code (`ECONNREFUSED`, `ENOTFOUND`,
 * `EAI_AGAIN`). Looks through `cause` links (fetch wraps the socket error in a `TypeError`) and
 * through an `AggregateError` (one refusal per address tried), which counts only if every
 * address was refused. An unknown cause is read as "may have been sent": the safe side.
 */
function wasNeverSent(cause: unknown, depth = 0): boolean {
  if (depth > 8 || cause === null || typeof cause !== 'object') return false;
  const node = cause as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof node.code === 'string') return NOT_SENT_CODES.has(node.code);
  if (Array.isArray(node.errors) && node.errors.length > 0)
    return node.errors.every((e) => wasNeverSent(e, depth + 1));
  return wasNeverSent(node.cause, depth + 1);
}
