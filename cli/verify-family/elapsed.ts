import { performance } from 'node:perf_hooks';

/** Whole milliseconds since `since` (a `performance.now()` reading). */
export function elapsed(since: number): number {
  return Math.round(performance.now() - since);
}
