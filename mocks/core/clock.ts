import {
  advancedClock,
  type ClockState,
  type Operation,
  type SharedState,
} from './state/shared-state.ts';
import { TIME_BOUND_MS } from './task-id/task-id-layout.ts';

/**
 * The mock's notion of time. Everything time-based (lifecycle, URL expiry, `updated_at`) reads it,
 * so a test can jump it forward instead of waiting.
 */
export interface Clock {
  /** Simulated milliseconds since the Unix epoch, within ±8.64e15 (the Date range). */
  now(): number;
  readonly mode: 'real' | 'manual';
  /** Simulated milliseconds per real millisecond (1 for a manual clock). */
  readonly speed: number;
  /** Moves the clock forward by `ms` simulated milliseconds. Throws a RangeError past the bound. */
  advance(ms: number): void;
}

export interface ClockOptions {
  /** `manual`: time moves only through `advance`. Default `real`. */
  readonly mode?: 'real' | 'manual';
  /** Real mode only: how many times faster than real time. Default 1. */
  readonly speed?: number;
  /** Simulated time at creation (ms since epoch). Default: the real time now. */
  readonly start?: number;
}

/**
 * When this process (page, worker) started, in ms since the epoch: fixed for its life, and read once
 * here because reading it is a call that costs about half of `performance.now()` (issue 23: every
 * status query reads the clock).
 */
const TIME_ORIGIN = performance.timeOrigin;

/** Monotonic wall time in ms, on a scale every process of a machine shares. */
export function wallNow(): number {
  return TIME_ORIGIN + performance.now();
}

/** A clock's state from options, starting at `start` (or the options' start, or now). */
export function clockStateFrom(options: ClockOptions = {}, start?: number): ClockState {
  const mode = options.mode ?? 'real';
  const speed = mode === 'manual' ? 1 : (options.speed ?? 1);
  if (!Number.isFinite(speed) || speed <= 0)
    throw new RangeError(`Clock speed must be a positive number, got ${String(options.speed)}`);
  const at = start ?? options.start ?? Date.now();
  if (!(Math.abs(at) <= TIME_BOUND_MS))
    throw new RangeError(`A clock starts within ±${TIME_BOUND_MS} ms of the epoch, got ${at}`);
  return mode === 'manual'
    ? { mode, now: at }
    : { mode, speed, anchorSim: at, anchorWall: wallNow() };
}

/** The time a clock state shows now (a real clock in whole ms), within the bound, never past `ceiling`. */
export function readClock(state: ClockState, ceiling = TIME_BOUND_MS): number {
  if (state.mode === 'manual') return Math.min(state.now, ceiling);
  const raw = state.anchorSim + (wallNow() - state.anchorWall) * state.speed;
  return Math.floor(Math.min(raw, ceiling, TIME_BOUND_MS));
}

/** Why `ms` cannot be added to a clock showing `now`, or `undefined` when it can. */
export function advanceProblem(now: number, ms: number): string | undefined {
  if (!Number.isFinite(ms) || ms < 0) return `a clock only moves forward: advance(${String(ms)})`;
  if (now + ms > TIME_BOUND_MS)
    return (
      `the clock is bounded to ${TIME_BOUND_MS} ms after the epoch (the Date ` +
      `range); it shows ${now}, so it can move at most ${TIME_BOUND_MS - now} ms more`
    );
  return undefined;
}

/** A clock of its own (not a service's: use `service.clock` for that). */
export function createClock(options: ClockOptions = {}): Clock {
  let state = clockStateFrom(options);
  return {
    mode: state.mode,
    speed: state.mode === 'manual' ? 1 : state.speed,
    now: () => readClock(state),
    advance(ms) {
      const problem = advanceProblem(readClock(state), ms);
      if (problem !== undefined) throw new RangeError(`Cannot advance the clock: ${problem}`);
      state = advancedClock(state, ms);
    },
  };
}

/**
 * `Retry-After` for a wait of `simulatedMs` on this clock, in whole real seconds (RFC 9110 §10.2.3
 * delay-seconds), which is what a client sleeps: the simulated wait divided by the clock's speed,
 * rounded up, and at least 1 for any wait at all, so a client never retries while it would still be
 * refused. A manual clock has speed 1: its header is the simulated seconds, the time a test must
 * advance the clock by (waiting in real time moves nothing). No wait is 0.
 */
export function retryAfterSeconds(clock: Pick<Clock, 'speed'>, simulatedMs: number): number {
  if (!(simulatedMs > 0)) return 0;
  return Math.max(1, Math.ceil(simulatedMs / clock.speed / 1000));
}

/**
 * A `Retry-After` as read by the client verdicts, on the mock's clock (decisions/044): the inverse of
 * `retryAfterSeconds`. Delay-seconds are real seconds on a real clock (what a client sleeps), so many
 * mock ms at the clock's speed; a manual clock's are its own seconds. An HTTP-date (RFC 9110 §10.2.3,
 * which a deployment behind a proxy may send) is the wait from `sentAt` (the answer's `Date`, else now),
 * in real ms, on the clock likewise. -1 when there is none or it is not a delay.
 */
export function retryAfterOnClock(
  clock: Pick<Clock, 'speed'>,
  header: string | undefined,
  sentAt?: string,
): number {
  if (header === undefined) return -1;
  const text = header.trim();
  const seconds = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isFinite(seconds)) return seconds * 1000 * clock.speed;
  const until = Date.parse(text);
  if (Number.isNaN(until)) return -1;
  const from = sentAt === undefined ? Number.NaN : Date.parse(sentAt);
  const wait = until - (Number.isNaN(from) ? Date.now() : from);
  return Math.max(0, wait) * clock.speed;
}

/**
 * A service's clock: reads the shared state's clock (never past a ceiling: a real clock's durable lease,
 * decisions/012) and moves it only through the `advance` operation, so that a state file keeps it.
 */
export function serviceClock(
  shared: Readonly<SharedState>,
  ceiling: () => number | undefined,
  apply: (operation: Operation) => void,
): Clock {
  const { clock } = shared;
  const now = (): number => readClock(shared.clock, ceiling());
  return {
    mode: clock.mode,
    speed: clock.mode === 'manual' ? 1 : clock.speed,
    now,
    advance(ms) {
      const problem = advanceProblem(now(), ms);
      if (problem !== undefined) throw new RangeError(`Cannot advance the clock: ${problem}`);
      apply({ op: 'advance', ms });
    },
  };
}
