import type { RunClock } from '../../../contracts/run-context.ts';

interface Timer {
  readonly at: number;
  readonly resolve: () => void;
}

/**
 * Virtual time for a contract run against the mock's manual clock: `sleep` never waits. When every
 * flow of the run is asleep and no request is in flight, the clock jumps to the earliest wake-up and
 * wakes that sleeper. A run of several parallel tasks then sees exactly the states their plans say, at
 * exactly the times its polling schedule says, in a few milliseconds of real time and the same way
 * every time.
 */
export class VirtualClock implements RunClock {
  readonly #timers: Timer[] = [];
  #inflight = 0;
  #activity = 0;
  #pending = false;

  constructor(readonly target: { now(): number; advance(ms: number): void }) {}

  now = (): number => this.target.now();

  sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted === true) {
        reject(signal.reason);
        return;
      }
      this.#timers.push({ at: this.now() + Math.max(0, ms), resolve });
      this.#touch();
    });

  /** A fetch whose requests count as activity: the clock never moves while one is in flight. */
  track(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
    return async (input, init) => {
      this.#inflight++;
      this.#touch();
      try {
        return await fetch(input, init);
      } finally {
        this.#inflight--;
        this.#touch();
      }
    };
  }

  #touch(): void {
    this.#activity++;
    if (this.#pending) return;
    this.#pending = true;
    setImmediate(() => this.#settle(this.#activity));
  }

  /** Advances only after a full turn of the event loop with nothing happening (bodies read, promises run). */
  #settle(seen: number): void {
    if (this.#activity !== seen) {
      setImmediate(() => this.#settle(this.#activity));
      return;
    }
    this.#pending = false;
    if (this.#inflight > 0 || this.#timers.length === 0) return;
    this.#timers.sort((a, b) => a.at - b.at);
    const next = this.#timers.shift()!;
    const gap = next.at - this.now();
    if (gap > 0) this.target.advance(gap);
    next.resolve();
    this.#touch();
  }
}
