import type { Sleep } from '../../src/client/sleep.ts';

/**
 * Fake time for the client's loops: `sleep` advances a number and returns at once (never a real
 * wait), `now` reads it, `sleeps` records every wait asked for.
 */
export function fakeTime(start = 0): {
  now: () => number;
  sleep: Sleep;
  sleeps: number[];
  advance(ms: number): void;
} {
  let t = start;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleep: (ms, signal) => {
      if (signal?.aborted) return Promise.reject(signal.reason);
      sleeps.push(ms);
      t += ms;
      return Promise.resolve();
    },
    sleeps,
    advance(ms) {
      t += ms;
    },
  };
}
