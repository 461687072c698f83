/**
 * The mock's notion of time. Everything time-based (lifecycle, URL expiry, `updated_at`) reads it,
 * so a test can jump it forward instead of waiting.
 */
export interface Clock {
  /** Simulated milliseconds since the Unix epoch. */
  now(): number;
  readonly mode: 'real' | 'manual';
  /** Simulated milliseconds per real millisecond (1 for a manual clock). */
  readonly speed: number;
  /** Moves the clock forward by `ms` simulated milliseconds. */
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

export function createClock(options: ClockOptions = {}): Clock {
  const mode = options.mode ?? 'real';
  const speed = mode === 'manual' ? 1 : (options.speed ?? 1);
  if (!Number.isFinite(speed) || speed <= 0)
    throw new RangeError(`Clock speed must be a positive number, got ${String(options.speed)}`);
  const start = options.start ?? Date.now();
  const realStart = performance.now();
  let offset = 0;
  return {
    mode,
    speed,
    now:
      mode === 'manual'
        ? () => start + offset
        : () => Math.floor(start + offset + (performance.now() - realStart) * speed),
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0)
        throw new RangeError(`A clock only moves forward: advance(${String(ms)})`);
      offset += ms;
    },
  };
}
