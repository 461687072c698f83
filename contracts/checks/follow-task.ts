import {
  ApiError,
  PollTimeoutError,
  RateLimitError,
  ServerError,
} from '../../src/client/errors.ts';
import { pollTask } from '../../src/client/poller.ts';
import type { Lifecycle, VideoStatus } from '../../src/spec/index.ts';
import type { LifecycleTask, RunContext } from '../run-context.ts';
import { CHECKS } from './definitions.ts';
import { judgeSequence } from './sequence.ts';
import { submitLifecycleTask } from './submission.ts';
import { LONGEST_WAIT_MS } from './rate-limited.ts';
import { RUN_DEADLINE_MARGIN_MS } from '../run-limits.ts';
import { TaskTracker } from './task-tracker.ts';

const stops = (lifecycle: Lifecycle, status: unknown) =>
  lifecycle.stopPolling.values.includes(status as VideoStatus);

/** How a followed task ended. */
export interface FollowedTask {
  readonly task: LifecycleTask;
  /** `created`, or why there is no task to follow (see `Submitted`). */
  readonly outcome: 'created' | 'budget' | 'refused' | 'rate-limited' | 'unconfirmed' | 'stopped';
  /** The stop state it reached, if it reached one. */
  readonly finalStatus: string | undefined;
  /** Every state the task showed. */
  readonly states: ReadonlySet<string>;
  /**
   * Why a created task could not be followed to its end because of the deployment's answers to its
   * queries: rate limited (429) past every wait the run had time for, a 5xx past the §7 retries, or
   * the owner's own task refused (itself a §1 violation).
   */
  readonly unfollowed?: string | undefined;
}

/** §7: a temporary failure of a query is retried, a 429 waited out (the poller does both). */
const temporary = (error: unknown) =>
  error instanceof ServerError || error instanceof RateLimitError;

/** Why the owner's queries ended the following of a task, in words. */
function whyUnfollowed(error: ApiError): string {
  if (error instanceof RateLimitError)
    return 'its queries were rate limited (429) past every wait the run had time for';
  if (error.status === 429)
    return (
      `its queries were rate limited (429) with a Retry-After longer than the ` +
      `${LONGEST_WAIT_MS / 1000} s the run waits for one`
    );
  if (error instanceof ServerError)
    return `its queries kept failing (HTTP ${error.status}) past the §7 retries`;
  return `its own owner's query was refused (HTTP ${error.status})`;
}

/** What the run keeps after a task's polling for the rest: the look after the end, the probes after. */
const KEPT_AFTER_POLLING_MS = RUN_DEADLINE_MARGIN_MS / 2;
/** The time a look after the end (two queries, the probes of a state seen first) is left to answer. */
const LAST_LOOK_MARGIN_MS = KEPT_AFTER_POLLING_MS / 3;

/**
 * How long a task is polled: `--poll-timeout`, and never into the time the run keeps for what comes after,
 * so a task that never ends (says `unknown` for ever, outlasts the polling), followed late in the run
 * (after rate-limit waits, slow answers), ends its polling within the run's time and is reported as
 * not reaching its end, and the run is not cut off at its deadline.
 */
function pollingTimeMs(ctx: RunContext): number {
  const left = ctx.limits.remainingMs() - KEPT_AFTER_POLLING_MS;
  return Math.max(0, Math.min(ctx.target.poll.timeoutMs, left));
}

/**
 * Why a task's polling ended without a final state: a violation of reaching the end (the task never
 * got there in the run's time), or the reason it could not be followed (returned): its queries were
 * rate limited or failed past every wait, or polled to its time without one answer for that reason.
 */
function pollingEnded(ctx: RunContext, tracker: TaskTracker, error: unknown): string | undefined {
  const neverAnswered = error instanceof PollTimeoutError && tracker.polls.length === 0;
  if (neverAnswered && tracker.lastFailure !== undefined) return whyUnfollowed(tracker.lastFailure);
  if (error instanceof PollTimeoutError) {
    ctx.verdicts.violation(
      CHECKS.reachesEnd,
      `the task was still ${error.lastStatus ?? 'unknown'} after ${error.attempts} polls`,
      { taskId: tracker.taskId },
    );
    return undefined;
  }
  if (ctx.limits.stopped !== undefined) return undefined;
  if (!(error instanceof ApiError)) throw error;
  return whyUnfollowed(error);
}

/**
 * One more look a polling interval after the end (a finished task stays finished): never into the last
 * seconds of the run, which it would end by reaching the deadline (a task that ends late in a run of
 * slow answers).
 */
async function lookAfterTheEnd(ctx: RunContext, tracker: TaskTracker): Promise<void> {
  const pause = Math.min(
    ctx.target.poll.maxIntervalMs,
    ctx.limits.remainingMs() - LAST_LOOK_MARGIN_MS,
  );
  if (ctx.limits.stopped !== undefined || pause <= 0) return;
  await ctx.clock.sleep(pause);
  await tracker.look().catch(() => undefined);
}

/**
 * Submits one task and follows it to its end: a look at once (GET probes are free), then the §8 polling
 * loop, then one more look a polling interval after the end (a finished task stays finished). Every look
 * judges both query forms, and every state seen for the first time runs that state's probes.
 */
export async function followTask(ctx: RunContext, task: LifecycleTask): Promise<FollowedTask> {
  const { verdicts: v, recorder, target } = ctx;
  const submitted = await submitLifecycleTask(ctx, task);
  if (submitted.kind !== 'created')
    return { task, outcome: submitted.kind, finalStatus: undefined, states: new Set() };
  const { taskId } = submitted;
  const tracker = new TaskTracker(ctx, taskId, task);
  let finalStatus: string | undefined;
  // One progress line per state the task enters, not one per poll.
  let shown: unknown;
  const progress = (t: { status: unknown; progress: unknown }) => {
    if (t.status === shown) return;
    shown = t.status;
    ctx.progress(`${taskId} ${String(t.status)} ${String(t.progress)}%`);
  };
  let unfollowed: string | undefined;
  try {
    // A first look answered 5xx or 429 (waited out as long as the run could) is the poller's to retry.
    const first = await tracker.look().catch((error: unknown) => {
      if (temporary(error)) return undefined;
      throw error;
    });
    if (first !== undefined) progress(first);
    if (first !== undefined && stops(ctx.verdicts.lifecycle, first.status))
      finalStatus = first.status;
    else {
      const result = await pollTask(() => tracker.look(), taskId, {
        ...target.poll,
        timeoutMs: pollingTimeMs(ctx),
        signal: ctx.limits.signal,
        sleep: ctx.clock.sleep,
        now: () => ctx.clock.now(),
        onUpdate: progress,
      });
      finalStatus = result.task.status;
    }
    v.pass(CHECKS.reachesEnd);
  } catch (error) {
    unfollowed = pollingEnded(ctx, tracker, error);
  }
  if (unfollowed !== undefined)
    ctx.notes.push(`${taskId} (${task.name}) was not followed to its end: ${unfollowed}`);
  if (finalStatus !== undefined) await lookAfterTheEnd(ctx, tracker);
  judgeSequence(v, recorder, taskId, tracker.polls, submitted.progress);
  const states = new Set(tracker.polls.map((p) => String(p.state)));
  return { task, outcome: 'created', finalStatus, states, unfollowed };
}
