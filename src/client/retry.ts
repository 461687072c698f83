import { checkFraction, checkFunction, checkId, checkNumber } from './check-options.ts';
import { SubmissionUnconfirmedError, type RateLimitError } from './errors.ts';
import { raceAbort, realSleep, type Sleep } from './sleep.ts';
import { submissionOutcome } from './submission-outcome.ts';
import type { VideoTask } from './client-types.ts';
import { toolHeaders } from '../tool-mark.ts';

/**
 * One submission attempt (§4.1), sending `clientRequestId` (the client's own request ID, its
 * idempotency key) as `X-Request-Id`. Throws the client's typed errors.
 */
export type Submit<T = VideoTask> = (
  clientRequestId: string,
  signal?: AbortSignal,
  /** 0 for the first attempt, n for retry n: send `retryHeaders(retry > 0)` with it (decisions/045). */
  retry?: number,
) => Promise<T>;

/**
 * The headers of a request the reference client repeats by itself after a temporary failure (§7): the
 * tool mark `X-Videotask-Tool: client-retry`, so that the mock's client verdicts count it apart from the
 * client's own doings (decisions/045); nothing for a first attempt.
 */
export function retryHeaders(retry: boolean): Readonly<Record<string, string>> | undefined {
  return retry ? RETRY_HEADERS : undefined;
}

const RETRY_HEADERS = toolHeaders('client-retry');

export interface RetryInfo {
  readonly clientRequestId: string;
  /** 1 for the first retry. */
  readonly retry: number;
  readonly delayMs: number;
  readonly error: RateLimitError;
}

export interface SubmitRetryOptions {
  /** The client's own request ID, sent unchanged with every attempt: keep it in your records first (§7). */
  readonly clientRequestId: string;
  /** Retries after 429s (not counting the first attempt). Default 4. */
  readonly maxRetries?: number;
  /** Backoff before the first retry. Default 1000 ms; doubles per retry. */
  readonly baseDelayMs?: number;
  /** Ceiling of the backoff (a `Retry-After` above it is still honoured). Default 30000 ms. */
  readonly maxDelayMs?: number;
  /** Relative spread of the backoff: ±jitter × delay. Default 0.2. */
  readonly jitter?: number;
  /** Uniform in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
  readonly sleep?: Sleep;
  /** Aborting rejects at once with `signal.reason`. An abort during an attempt leaves its outcome unknown. */
  readonly signal?: AbortSignal;
  /** Called before each backoff wait. */
  readonly onRetry?: (info: RetryInfo) => void;
}

/**
 * Submits with the §7 rules:
 * - 429 (`RateLimitError`): retried up to `maxRetries` times, waiting
 *   `max(retryAfterMs, min(baseDelayMs × 2^(n−1) × (1 ± jitter), maxDelayMs))` before retry n;
 *   then the last `RateLimitError` is rethrown.
 * - Other 4xx: rethrown at once (nothing was created; fix the request).
 * - A timeout, a connection dropped after the request may have left, a 5xx, or a 2xx that is not a
 *   readable task (not JSON, over the size bound, no ID): the task may exist,
 *   so this throws `SubmissionUnconfirmedError` carrying `clientRequestId` and never resubmits (§7:
 *   "If task creation cannot be confirmed, check it against the client's own idempotency records").
 * - `ECONNREFUSED` / `ENOTFOUND` / `EAI_AGAIN` (nothing was sent): the `ConnectionError` is rethrown
 *   unchanged, not retried; the user decides.
 * Every attempt carries the same `clientRequestId`.
 *
 * @example
 * const clientRequestId = crypto.randomUUID();
 * const task = await submitWithRetry((id, signal) => client.submit(body, { clientRequestId: id,
 * signal }), { clientRequestId });
 */
export async function submitWithRetry<T = VideoTask>(
  submit: Submit<T>,
  options: SubmitRetryOptions,
): Promise<T> {
  checkFunction('submit', submit);
  const clientRequestId = checkId('clientRequestId', options.clientRequestId);
  const maxRetries = checkNumber('maxRetries', options.maxRetries ?? 4, 0, true);
  const baseDelayMs = checkNumber('baseDelayMs', options.baseDelayMs ?? 1_000, 0);
  const maxDelayMs = checkNumber('maxDelayMs', options.maxDelayMs ?? 30_000, baseDelayMs);
  const jitter = checkFraction('jitter', options.jitter ?? 0.2);
  const random = checkFunction('random', options.random ?? Math.random);
  const sleep = checkFunction('sleep', options.sleep ?? realSleep);
  const { signal, onRetry } = options;
  signal?.throwIfAborted();

  for (let retry = 0; ; retry++) {
    try {
      return await raceAbort(submit(clientRequestId, signal, retry), signal);
    } catch (error) {
      signal?.throwIfAborted();
      const outcome = submissionOutcome(error);
      if (outcome === 'unknown') throw unconfirmed(clientRequestId, error);
      if (outcome !== 'rate-limited' || retry >= maxRetries) throw error;
      const rateLimit = error as RateLimitError;
      const delayMs = backoffDelay(
        retry + 1,
        { baseDelayMs, maxDelayMs, jitter, random },
        rateLimit.retryAfterMs,
      );
      onRetry?.({ clientRequestId, retry: retry + 1, delayMs, error: rateLimit });
      await raceAbort(sleep(delayMs, signal), signal);
    }
  }
}

/**
 * The wait before retry `n` (1-based): exponential, spread by ±`jitter`, capped at `maxDelayMs`,
 * and never shorter than the server's `Retry-After`.
 *
 * @example
 * backoffDelay(3, { baseDelayMs: 1000, maxDelayMs: 30000, jitter: 0, random: Math.random }, undefined); // 4000
 */
export function backoffDelay(
  n: number,
  o: { baseDelayMs: number; maxDelayMs: number; jitter: number; random: () => number },
  retryAfterMs: number | undefined,
): number {
  const exponential = o.baseDelayMs * 2 ** (n - 1);
  const spread = exponential * (1 + o.jitter * (2 * o.random() - 1));
  return Math.max(Math.min(spread, o.maxDelayMs), retryAfterMs ?? 0);
}

function unconfirmed(clientRequestId: string, cause: unknown): SubmissionUnconfirmedError {
  const why = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  return new SubmissionUnconfirmedError(
    `Submission ${clientRequestId} could not be confirmed (${why}); the task may ` +
      `exist. It was not resubmitted: look it up by this client request ID in your ` +
      `own records (the journal) or with the service's administrator before ` +
      `submitting again; the service has no lookup by request ID.`,
    clientRequestId,
    cause,
  );
}
