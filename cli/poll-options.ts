import type { PollSchedule } from '../src/client/poll-schedule.ts';
import { POLLING } from '../src/generated/client-contract.ts';
import { numberOption, secondsOption, UsageError } from './options.ts';

/**
 * The flags of the §8 polling loop, the same on every command that polls (`wait`, `contract`, `learn`,
 * `drift`, `verify-family`), parsed and explained here only.
 */
export const POLL_FLAGS = {
  'poll-initial': { type: 'string' },
  'poll-factor': { type: 'string' },
  'poll-max': { type: 'string' },
  'poll-attempts': { type: 'string' },
  'poll-timeout': { type: 'string' },
} as const;

/** The values `parseArgs` gives for `POLL_FLAGS`. */
export type PollFlagValues = { readonly [F in keyof typeof POLL_FLAGS]?: string | undefined };

/** §8's numbers (the spec's `x-polling`) with a command's own total timeout. */
export const documentedPolling = (timeoutMs: number): PollSchedule => ({ ...POLLING, timeoutMs });

/**
 * The polling numbers the flags ask for, each one the flag leaves out taken from `defaults`. A bad
 * value or a ceiling below the first interval is a `UsageError` (exit 2).
 *
 * @example
 * pollOptions({ 'poll-max': '10' }, documentedPolling(1_800_000)).maxIntervalMs; // 10000
 */
export function pollOptions(values: PollFlagValues, defaults: PollSchedule): PollSchedule {
  const given = {
    initialIntervalMs: secondsOption('--poll-initial', values['poll-initial']),
    factor: numberOption('--poll-factor', values['poll-factor'], { min: 1 }),
    maxIntervalMs: secondsOption('--poll-max', values['poll-max']),
    maxAttempts: numberOption('--poll-attempts', values['poll-attempts'], {
      integer: true,
      min: 1,
    }),
    timeoutMs: secondsOption('--poll-timeout', values['poll-timeout']),
  };
  const numbers = {
    initialIntervalMs: given.initialIntervalMs ?? defaults.initialIntervalMs,
    factor: given.factor ?? defaults.factor,
    maxIntervalMs: given.maxIntervalMs ?? defaults.maxIntervalMs,
    maxAttempts: given.maxAttempts ?? defaults.maxAttempts,
    timeoutMs: given.timeoutMs ?? defaults.timeoutMs,
  };
  if (numbers.maxIntervalMs < numbers.initialIntervalMs)
    throw new UsageError(
      `--poll-max (${numbers.maxIntervalMs / 1000} s) must be at least --poll-initial ` +
        `(${numbers.initialIntervalMs / 1000} s)`,
    );
  return numbers;
}

const seconds = (ms: number): string => String(ms / 1000);

/** §8's loop in a few words, from the spec: "5 s, ×1.5, up to 30 s, at most 60 queries". */
export const POLLING_SUMMARY =
  `${seconds(POLLING.initialIntervalMs)} s, ×${POLLING.factor}, up to ` +
  `${seconds(POLLING.maxIntervalMs)} s, at most ${POLLING.maxAttempts} queries`;

/**
 * The help lines of `POLL_FLAGS`, their defaults read from the spec's `x-polling`; `timeoutS` is the
 * command's own total timeout, and `timeoutNote` continues its line.
 */
export function pollHelp(timeoutS: number, timeoutNote = ''): string {
  return [
    `  --poll-initial S      first polling interval in seconds (default ${seconds(POLLING.initialIntervalMs)}, §8)`,
    `  --poll-factor F       interval growth (default ${POLLING.factor}, §8)`,
    `  --poll-max S          interval ceiling in seconds (default ${seconds(POLLING.maxIntervalMs)}, §8)`,
    `  --poll-attempts N     queries per task at most (default ${POLLING.maxAttempts}, §8)`,
    `  --poll-timeout S      total seconds allowed per task (default ${timeoutS})${timeoutNote}`,
  ].join('\n');
}
