import { LIFECYCLE, POLLING } from '../generated/client-contract.ts';
import { checkFunction, checkNumber } from './check-options.ts';
import type { VideoStatus, VideoTask } from './client-types.ts';
import { textOf } from './client-support.ts';
import { realSleep, type Sleep } from './sleep.ts';

/** Options of `pollTask`. Every number is checked up front (`RangeError` naming the option). */
export interface PollOptions {
  /** Wait before the first query (§8: 5 s). */
  readonly initialIntervalMs?: number;
  /** Growth of the wait per query (§8 reference loop: 1.5). ≥ 1. */
  readonly factor?: number;
  /** Ceiling of the normal schedule (§8: 30 s). ≥ initialIntervalMs. */
  readonly maxIntervalMs?: number;
  /** Most queries made, retried ones included (§8 reference loop: 60). */
  readonly maxAttempts?: number;
  /** Total time allowed (§8: "a total timeout must be set"). Default 30 min; must be finite. */
  readonly timeoutMs?: number;
  /**
   * Temporary failures (5xx, connection, timeout, 429) of a query retried in a row before
   * rethrowing (§7). Default 3.
   */
  readonly queryRetries?: number;
  /** Aborting rejects the poll at once with `signal.reason`, also during a wait. */
  readonly signal?: AbortSignal;
  /** Injectable wait (fake time in tests). Default: real timers. */
  readonly sleep?: Sleep;
  /** Injectable clock in ms. Default `Date.now`. */
  readonly now?: () => number;
  /** Called after every successful query with the task and the 1-based attempt number. */
  readonly onUpdate?: (task: VideoTask, attempt: number) => void;
  /** Statuses that end the poll. Default: the spec's `x-lifecycle.stopPolling` (`completed`, `failed`, §3). */
  readonly stopOn?: readonly VideoStatus[];
}

/**
 * The numbers of one §8 polling loop, every one given: `PollOptions`' own names, so a caller that
 * keeps a schedule (the contract suite's target, the CLI's `--poll-*` flags) passes it to `pollTask`
 * as it is.
 */
export type PollSchedule = Required<
  Pick<PollOptions, 'initialIntervalMs' | 'factor' | 'maxIntervalMs' | 'maxAttempts' | 'timeoutMs'>
>;

/** The options with defaults applied and every value checked. */
export interface PollSettings {
  readonly initialIntervalMs: number;
  readonly factor: number;
  readonly maxIntervalMs: number;
  readonly maxAttempts: number;
  readonly timeoutMs: number;
  readonly queryRetries: number;
  readonly sleep: Sleep;
  readonly now: () => number;
  readonly stopOn: ReadonlySet<string>;
  /**
   * Statuses read as "lower the polling rate": the lifecycle's `slowDown` plus any status it does
   * not know (§3: "state not recognised").
   */
  readonly slowsDown: (status: string) => boolean;
}

export const DEFAULT_POLL_TIMEOUT_MS = 30 * 60 * 1000;

/**
 * While the last status read is a slow-down one (`unknown`, §3: "the client lowers its polling
 * rate"), the wait is multiplied by this; the document gives no factor, so this is our choice.
 */
export const SLOW_DOWN_FACTOR = 2;

const KNOWN = new Set<string>(LIFECYCLE.states);
const SLOW_DOWN = new Set<string>(LIFECYCLE.slowDown);

/**
 * Applies the §8 defaults (the spec's `x-polling`, generated into `client-contract.ts`) and checks
 * every option, before any request is made.
 *
 * @example
 * pollSettings({ maxAttempts: 0 }); // RangeError: maxAttempts must be a whole number ≥ 1, got 0
 */
export function pollSettings(options: PollOptions = {}): PollSettings {
  const initialIntervalMs = checkNumber(
    'initialIntervalMs',
    options.initialIntervalMs ?? POLLING.initialIntervalMs,
    0,
  );
  const maxIntervalMs = checkNumber(
    'maxIntervalMs',
    options.maxIntervalMs ?? POLLING.maxIntervalMs,
    0,
  );
  if (maxIntervalMs < initialIntervalMs)
    throw new RangeError(
      `maxIntervalMs (${maxIntervalMs}) must be ≥ initialIntervalMs (${initialIntervalMs})`,
    );
  const stopOn: readonly VideoStatus[] = options.stopOn ?? LIFECYCLE.stopPolling;
  checkStopOn(stopOn);
  return {
    initialIntervalMs,
    factor: checkNumber('factor', options.factor ?? POLLING.factor, 1),
    maxIntervalMs,
    maxAttempts: checkNumber('maxAttempts', options.maxAttempts ?? POLLING.maxAttempts, 1, true),
    timeoutMs: checkNumber('timeoutMs', options.timeoutMs ?? DEFAULT_POLL_TIMEOUT_MS, 0),
    queryRetries: checkNumber('queryRetries', options.queryRetries ?? 3, 0, true),
    sleep: checkFunction('sleep', options.sleep ?? realSleep),
    now: checkFunction('now', options.now ?? Date.now),
    stopOn: new Set<string>(stopOn),
    slowsDown: (status) => SLOW_DOWN.has(status) || !KNOWN.has(status),
  };
}

/** `stopOn` lists at least one status, each a lifecycle status. */
function checkStopOn(stopOn: readonly VideoStatus[]): void {
  if (!Array.isArray(stopOn) || stopOn.length === 0)
    throw new RangeError('stopOn must list at least one status');
  // Checked for callers without types: an entry may be anything.
  for (const status of stopOn as readonly unknown[])
    if (typeof status !== 'string' || !KNOWN.has(status))
      throw new RangeError(
        `stopOn: "${textOf(status)}" is not a status (${LIFECYCLE.states.join(', ')})`,
      );
}

/**
 * The wait before query `attempt` (1-based), §8: `min(initial × factor^(attempt−1), maxIntervalMs)`,
 * so 5000, 7500, 11250, 16875, 25312.5, 30000, 30000, … ms with the defaults. When the status read
 * last is a slow-down one (`unknown`, §3 "the client lowers its polling rate and keeps querying"),
 * that wait is multiplied by `SLOW_DOWN_FACTOR` (2): the slowed wait may exceed `maxIntervalMs` (up
 * to `maxIntervalMs × 2`, 60 s by default), since capping it would erase the slow-down
 * once the schedule reaches its ceiling. The schedule position keeps advancing while slowed.
 *
 * @example
 * pollInterval(pollSettings(), 3, false); // 11250
 * pollInterval(pollSettings(), 9, true);  // 60000
 */
export function pollInterval(settings: PollSettings, attempt: number, slowed: boolean): number {
  const base = Math.min(
    settings.initialIntervalMs * settings.factor ** (attempt - 1),
    settings.maxIntervalMs,
  );
  return slowed ? base * SLOW_DOWN_FACTOR : base;
}
