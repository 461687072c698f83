import type { Random } from './random.ts';

export type Outcome = 'succeed' | 'fail' | 'stuck';

/**
 * Drawn once at submission. A task's state at any instant is a pure function of its plan, its
 * creation time and the clock (`snapshot`): no timers, no background loop.
 */
export interface TaskPlan {
  /** Reported as `unknown` from submission until this offset (0: never). */
  readonly unknownMs: number;
  /** Queued from submission until this offset (≥ unknownMs). */
  readonly queueMs: number;
  /** Running time after the queue; `Infinity` when the task never finishes. */
  readonly runMs: number;
  readonly outcome: Outcome;
  readonly errorCode?: string | undefined;
  readonly errorMessage?: string | undefined;
  /** The scenario that produced the plan (`succeed` by default). */
  readonly scenario: string;
  /** `flaky`: every n-th status query answers a temporary 503. */
  readonly flakyEvery?: number | undefined;
  /** Progress never shows below this while running (set when an outcome is forced mid-run). */
  readonly progressFloor?: number | undefined;
}

export interface Timing {
  /** Queue time range in ms (simulated). */
  readonly queueMs: readonly [number, number];
  /** Running time range in ms (simulated). */
  readonly runMs: readonly [number, number];
}

/** Realistic defaults: seconds in the queue, tens of seconds running. */
export const DEFAULT_TIMING: Timing = { queueMs: [2_000, 8_000], runMs: [20_000, 60_000] };

/** Upstream-like failures a task may end with (`error.code`, `error.message` come from the upstream, §2.2). */
export const UPSTREAM_FAILURES: readonly { readonly code: string; readonly message: string }[] = [
  {
    code: 'OutputVideoSensitiveContentDetected',
    message: 'The generated video may contain sensitive content.',
  },
  {
    code: 'InputTextSensitiveContentDetected',
    message: 'The request failed because the input text may contain sensitive information.',
  },
  {
    code: 'InternalServiceError',
    message: 'The service encountered an unexpected internal error.',
  },
  { code: 'GenerationTimeout', message: 'The generation did not finish within the allowed time.' },
];

export interface PlanRequest {
  readonly random: Random;
  readonly timing: Timing;
  /** Probability in [0, 1] that an otherwise succeeding task fails. */
  readonly failureRate: number;
  /** Time (ms range) a new task reads `unknown` before `queued` (profile). */
  readonly unknownFirstMs?: readonly [number, number] | undefined;
}

/** The default plan: queue, run, then succeed (or fail at `failureRate`). */
export function drawPlan({
  random,
  timing,
  failureRate,
  unknownFirstMs = [0, 0],
}: PlanRequest): TaskPlan {
  const unknownMs =
    unknownFirstMs[1] > 0 ? Math.round(random.between(unknownFirstMs[0], unknownFirstMs[1])) : 0;
  const queueMs = unknownMs + Math.round(random.between(timing.queueMs[0], timing.queueMs[1]));
  const runMs = Math.round(random.between(timing.runMs[0], timing.runMs[1]));
  if (failureRate > 0 && random.next() < failureRate) {
    const failure = UPSTREAM_FAILURES[random.int(0, UPSTREAM_FAILURES.length - 1)]!;
    // A failing task stops part-way through its run.
    return {
      unknownMs,
      queueMs,
      runMs: Math.round(runMs * random.between(0.3, 0.9)),
      outcome: 'fail',
      errorCode: failure.code,
      errorMessage: failure.message,
      scenario: 'fail',
    };
  }
  return { unknownMs, queueMs, runMs, outcome: 'succeed', scenario: 'succeed' };
}
