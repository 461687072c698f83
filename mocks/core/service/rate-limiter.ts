import type { RateLimit } from './service-state.ts';

/** A fixed-window request budget per key, on the mock's clock. */
export class RateLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(readonly limit: RateLimit) {
    if (!Number.isInteger(limit.requests) || limit.requests < 1)
      throw new RangeError(`rateLimit.requests must be a positive integer, got ${limit.requests}`);
    if (!(limit.windowMs > 0))
      throw new RangeError(`rateLimit.windowMs must be positive, got ${limit.windowMs}`);
  }

  /** Counts a request; `undefined` when allowed, else the simulated ms until the key's window ends. */
  take(key: string, now: number): number | undefined {
    let window = this.#windows.get(key);
    if (window === undefined || now - window.start >= this.limit.windowMs) {
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
    }
    if (window.count < this.limit.requests) {
      window.count++;
      return undefined;
    }
    return window.start + this.limit.windowMs - now;
  }

  clear(): void {
    this.#windows.clear();
  }
}
