/**
 * The CPU time (user + system, in ms) this process spends on `work`, for "in linear time" bounds: on a
 * machine the other test files and engineers load, wall time stretches with their load and CPU time
 * does not (vitest runs each file in a process of its own: `pool: 'forks'`).
 */
export function cpuMs(work: () => void): number {
  const before = process.cpuUsage();
  work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}
