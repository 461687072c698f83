import { retryAfterMs } from '../../src/client/retry-after.ts';
import { backoffDelay } from '../../src/client/retry.ts';
import type { Exchange, SendInit } from '../http-recorder.ts';
import type { RunContext } from '../run-context.ts';
import { judgeRateLimit } from './answered.ts';

/**
 * A 429 waited out as the document asks of every client (§7: "retry with exponential backoff"; §8: a
 * 429 exists for quota or rate limiting), with the typed client's formula (src/client `backoffDelay`,
 * one formula for both): 2 s, 4 s, 8 s, … up to a minute, never sooner than the 429's `Retry-After`,
 * and only while the run's deadline allows it. The suite does what it demands of clients: a 429 is never
 * the end of a task it follows, nor a verdict on anything else; each one is judged by
 * `rate-limit.retry-after` where it is seen.
 *
 * Where the suite differs from the client is its budget, not its formula: a `Retry-After` longer than
 * `LONGEST_WAIT_MS` is not waited (a deployment's answer must not hold a run for ten minutes), and it
 * is not cut short either (asking again sooner than the service said would be retrying without the
 * backoff §7 asks for): the run gives up on that request with the 429 it has, as when its deadline is
 * too near for the wait.
 */

/** The longest wait the run takes for one 429; a `Retry-After` asking more is not waited out. */
export const LONGEST_WAIT_MS = 60_000;

/** The suite's numbers for the client's `backoffDelay`: no jitter, so a run's waits are repeatable. */
const SUITE_BACKOFF = {
  baseDelayMs: 2_000,
  maxDelayMs: LONGEST_WAIT_MS,
  jitter: 0,
  random: () => 0.5,
} as const;

type Ctx = Pick<
  RunContext,
  'clock' | 'limits' | 'progress' | 'recorder' | 'verdicts' | 'coverage' | 'retries'
>;

/**
 * How long to wait before asking again after the `tries`-th 429 in a row (1-based): the client's
 * `backoffDelay`, so never less than a usable `Retry-After` (and more than `LONGEST_WAIT_MS` only when
 * that asks for more, which the callers do not wait).
 */
export function backoffMs(refused: Exchange, tries: number): number {
  const asked = retryAfterMs(refused.headers['retry-after'] ?? null, refused.startedAt);
  return backoffDelay(tries, SUITE_BACKOFF, asked);
}

/**
 * Waits out the `tries`-th 429 in a row, saying so on the progress line when `what` names what waits;
 * false when the run has not the time for the wait, the wait is past the run's budget for one 429
 * (`LONGEST_WAIT_MS`), or the run stopped during it, so the caller gives up with the 429 it has.
 */
export async function waitOut(
  ctx: Ctx,
  refused: Exchange,
  tries: number,
  what?: string,
): Promise<boolean> {
  const waitMs = backoffMs(refused, tries);
  if (waitMs > LONGEST_WAIT_MS && what !== undefined)
    ctx.progress(
      `${what}: rate limited (429) for ${Math.ceil(waitMs / 1000)} s, longer than the ` +
        `${LONGEST_WAIT_MS / 1000} s the run waits for one: not asked again`,
    );
  if (waitMs > LONGEST_WAIT_MS || waitMs >= ctx.limits.remainingMs()) return false;
  if (what !== undefined)
    ctx.progress(`${what}: rate limited (429), asking again in ${Math.ceil(waitMs / 1000)} s`);
  await ctx.clock.sleep(waitMs, ctx.limits.signal).catch(() => undefined);
  return ctx.limits.stopped === undefined;
}

/** How many times in a row a GET is sent while it is answered 429 (the waits grow to a minute each). */
const PATIENT_TRIES = 12;

/**
 * A GET (free: it creates nothing) sent until it is answered with something other than a 429, waiting
 * out each 429 (judged where it is seen; its request, asked again, is judged in its cell) as long as the
 * run has the time. Returns the last answer: a 429 only when the run ran out of time or tries for it.
 */
export async function sendPatiently(
  ctx: Ctx,
  request: { readonly label: string; readonly path: string; readonly init?: SendInit },
  what?: string,
): Promise<Exchange> {
  for (let tries = 1; ; tries++) {
    const exchange = await ctx.recorder.send(request.label, 'GET', request.path, request.init);
    if (exchange.status !== 429) return exchange;
    if (tries === PATIENT_TRIES || !(await waitOut(ctx, exchange, tries, what))) return exchange;
    ctx.retries.queries++;
    judgeRateLimit(ctx, exchange);
  }
}
