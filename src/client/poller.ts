import { checkFunction, checkId } from './check-options.ts';
import type { VideoTask } from './client-types.ts';
import {
  ConnectionError,
  PollTimeoutError,
  RateLimitError,
  RequestTimeoutError,
  ServerError,
} from './errors.ts';
import {
  pollInterval,
  pollSettings,
  type PollOptions,
  type PollSettings,
} from './poll-schedule.ts';
import { raceAbort } from './sleep.ts';

export type { PollOptions, PollSchedule } from './poll-schedule.ts';

/** One status query of one task (§4.2). Throws the client's typed errors. */
/**
 * One query of the task. `retry` is true when it repeats a query that failed for a while (§7): the
 * client's own `getTask` marks such a request (`X-Videotask-Tool: client-retry`, decisions/045).
 */
export type GetTask = (taskId: string, signal?: AbortSignal, retry?: boolean) => Promise<VideoTask>;

export interface PollResult {
  /** The task in a stop status (`completed` or `failed` by default). A failed task is data, not an error (§7). */
  readonly task: VideoTask;
  /** Queries made, failed-and-retried ones included. */
  readonly attempts: number;
  /** `now()` at the end minus `now()` at the start. */
  readonly elapsedMs: number;
}

/**
 * The §8 polling loop. It waits first, then queries: query n is due `pollInterval(n)` after query n−1
 * was due (the start for n = 1), so with the defaults the queries go out at 5000, 12500, 23750, 40625,
 * 65937.5, 95937.5, 125937.5, … ms from the start (waits 5000, 7500, 11250, 16875, 25312.5, 30000, …).
 * The schedule is anchored to the start, so the time a query takes does not shift later ones; if a
 * query overruns the next due time, the next query waits a full interval from its end instead
 * (never two queries back to back). A 429 on a query also waits at least its `retryAfterMs`. A wait
 * that would pass the total timeout is cut to end at it,
 * and the last query is made there.
 *
 * - Stops on `stopOn` (`completed`, `failed`) and returns the task, failed or not (§3, §7).
 * - `queued` / `in_progress` are polled again; nothing is ever resubmitted (§3 rule 1, §7).
 * - `unknown` (or a status the lifecycle does not know) doubles the next wait (§3).
 * - A temporary failure of a query (`ServerError`, `ConnectionError`, `RequestTimeoutError`, and a
 *   `RateLimitError`) retries the same query of the
 *   same task at the next due time, at most `queryRetries` times in a row, then is rethrown (§7).
 *   Other errors (404 and other 4xx) are rethrown at once.
 * - Out of attempts or time: `PollTimeoutError` with the task id, the attempts and the last status.
 * - `signal` aborts at once with its reason, during a wait or a query.
 *
 * `client.poll(id, options)` is this loop over `client.getVideo`; pass another `getTask` to poll
 * something else the same way.
 *
 * @example
 * const { task } = await pollTask((id, signal) => client.getVideo(id, { signal }), 'task_abc', {
 * timeoutMs: 10 * 60_000 });
 * if (task.status === 'failed') console.error(task.id, task.error?.code);
 */
export async function pollTask(
  getTask: GetTask,
  taskId: string,
  options: PollOptions = {},
): Promise<PollResult> {
  checkFunction('getTask', getTask);
  checkId('taskId', taskId);
  const settings = pollSettings(options);
  const { signal, onUpdate } = options;
  if (onUpdate !== undefined) checkFunction('onUpdate', onUpdate);
  signal?.throwIfAborted();

  const start = settings.now();
  const poll: PollState = {
    taskId,
    deadline: start + settings.timeoutMs,
    due: start,
    lastStatus: undefined,
    failuresInRow: 0,
    minWait: 0,
  };
  for (let attempt = 1; attempt <= settings.maxAttempts; attempt++) {
    await waitForTurn(poll, settings, attempt, signal);
    const task = await queryOnce(poll, settings, getTask, signal);
    if (task !== undefined) {
      poll.lastStatus = task.status;
      onUpdate?.(task, attempt);
      if (settings.stopOn.has(task.status))
        return { task, attempts: attempt, elapsedMs: settings.now() - start };
    }

    if (settings.now() >= poll.deadline)
      throw timedOut(
        taskId,
        attempt,
        poll.lastStatus,
        settings,
        `its total timeout of ${settings.timeoutMs} ms`,
      );
  }
  throw timedOut(
    taskId,
    settings.maxAttempts,
    poll.lastStatus,
    settings,
    `${settings.maxAttempts} attempts`,
  );
}

/** Where one poll stands between its queries. */
interface PollState {
  readonly taskId: string;
  readonly deadline: number;
  /** When the next query is due. */
  due: number;
  lastStatus: string | undefined;
  failuresInRow: number;
  /** A 429's Retry-After: the next query goes out no sooner. */
  minWait: number;
}

/** Waits until query `attempt` is due (see `pollTask`); throws `PollTimeoutError` if that is past the deadline. */
async function waitForTurn(
  poll: PollState,
  settings: PollSettings,
  attempt: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const interval = pollInterval(
    settings,
    attempt,
    poll.lastStatus !== undefined && settings.slowsDown(poll.lastStatus),
  );
  const before = settings.now();
  poll.due += interval;
  // Fell behind (a query slower than this interval): wait a full interval from now, never back to back.
  if (poll.due < before) poll.due = before + interval;
  // After a 429, never sooner than its Retry-After; a Retry-After past the deadline ends the poll.
  if (before + poll.minWait > poll.deadline)
    throw timedOut(
      poll.taskId,
      attempt - 1,
      poll.lastStatus,
      settings,
      `its total timeout of ${settings.timeoutMs} ms`,
    );
  poll.due = Math.min(Math.max(poll.due, before + poll.minWait), poll.deadline);
  poll.minWait = 0;
  if (poll.due > before) await raceAbort(settings.sleep(poll.due - before, signal), signal);
  signal?.throwIfAborted();
}

/**
 * One query: the task, or `undefined` after a temporary failure that may be retried (§7). Rethrows
 * any other failure, and a temporary one past `queryRetries` in a row.
 */
async function queryOnce(
  poll: PollState,
  settings: PollSettings,
  getTask: GetTask,
  signal: AbortSignal | undefined,
): Promise<VideoTask | undefined> {
  try {
    const task = await raceAbort(getTask(poll.taskId, signal, poll.failuresInRow > 0), signal);
    poll.failuresInRow = 0;
    return task;
  } catch (error) {
    signal?.throwIfAborted();
    if (!isTemporary(error) || ++poll.failuresInRow > settings.queryRetries) throw error;
    if (error instanceof RateLimitError && error.retryAfterMs !== undefined)
      poll.minWait = error.retryAfterMs;
    return undefined;
  }
}

/** §7: a temporary failure of a query, retried a limited number of times. */
function isTemporary(error: unknown): boolean {
  return (
    error instanceof ServerError ||
    error instanceof ConnectionError ||
    error instanceof RequestTimeoutError ||
    error instanceof RateLimitError
  );
}

function timedOut(
  taskId: string,
  attempts: number,
  lastStatus: string | undefined,
  settings: PollSettings,
  limit: string,
): PollTimeoutError {
  const stopOn = [...settings.stopOn].join(' or ');
  return new PollTimeoutError(
    `Task ${taskId} did not reach ${stopOn} within ${limit} (${attempts} ` +
      `queries, last status ${lastStatus ?? 'none read'}). It was not ` +
      `resubmitted; poll it again later.`,
    taskId,
    attempts,
    lastStatus,
  );
}
