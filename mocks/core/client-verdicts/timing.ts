import type { Clock } from '../clock.ts';

/**
 * How every timing rule compares times (decisions/044): on one clock, the mock's, whatever its speed
 * or mode. Every interval is in mock ms; a `Retry-After` is brought onto the same clock where it is
 * read (`retryAfterOnClock`); and every comparison gives the client the same tolerance, stated here
 * once.
 *
 * The tolerance is what a real clock adds by itself between a client's wait and the interval the mock
 * measures (a timer that fires a little early, a clock read in whole ms, a request that waited in a
 * queue before the previous one was measured): `TIMING_TOLERANCE_REAL_MS` of real time, so that many
 * mock ms at `--speed N` (10 at speed 1, 1,000 at speed 100). A manual clock has none: it moves only
 * when the test moves it.
 */
export const TIMING_TOLERANCE_REAL_MS = 10;

/** The one tolerance and the one notion of a measurable interval, for the clock a judge runs on. */
export class Timing {
  /** The tolerance in mock ms (0 on a manual clock). */
  readonly toleranceMs: number;
  readonly #manual: boolean;
  readonly #speed: number;

  constructor(clock: Pick<Clock, 'mode' | 'speed'>) {
    this.#manual = clock.mode === 'manual';
    this.#speed = this.#manual ? 1 : clock.speed;
    this.toleranceMs = this.#manual ? 0 : TIMING_TOLERANCE_REAL_MS * this.#speed;
  }

  /**
   * Whether an interval (mock ms) says how long a client waited. On a manual clock, 0 says nothing:
   * the clock only moves when the test moves it, and the client may have waited in real time.
   */
  measurable(ms: number): boolean {
    return ms > 0 || (ms === 0 && !this.#manual);
  }

  /** `interval` is shorter than `limit` beyond any doubt (both mock ms). */
  shorter(interval: number, limit: number): boolean {
    return interval + this.toleranceMs < limit;
  }

  /** `interval` is longer than `limit` beyond any doubt (both mock ms). */
  longer(interval: number, limit: number): boolean {
    return interval - this.toleranceMs > limit;
  }

  /** `interval` is no longer than `limit` beyond any doubt: it may not have grown past it (mock ms). */
  notLonger(interval: number, limit: number): boolean {
    return interval + this.toleranceMs <= limit;
  }

  /**
   * `interval` is no wait at all: within the tolerance of none. On a manual clock that is never: an
   * interval of 0 says nothing there (`measurable`), and any other is a wait.
   */
  atOnce(interval: number): boolean {
    return this.measurable(interval) && interval <= this.toleranceMs && this.toleranceMs > 0;
  }

  /** Real ms as mock ms on this clock (a manual clock: the same number, as `retryAfterSeconds` sends). */
  onClock(realMs: number): number {
    return realMs * this.#speed;
  }
}
