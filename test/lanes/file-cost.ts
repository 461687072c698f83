/**
 * What one test file costs, for the lanes' budgets (test/lanes/lane-budget.ts): a setup file of both
 * projects (vitest.config.ts) that leaves in the file's task meta its wall time and its CPU time, its
 * own and that of every child process it started and collected (a `videotask` process, a mock and its
 * workers, esbuild, chromium). On Linux that is /proc/self/stat's utime, stime, cutime and cstime; where
 * there is no /proc, the process's own CPU only (`process.cpuUsage`), and the summary says so.
 *
 * A vitest worker runs one file at a time, so the difference between the file's start (this setup
 * file's evaluation, before the test file is imported) and its end is the file's. A child still
 * running when the file ends (nothing should be) is counted where it is collected.
 */
import { readFileSync } from 'node:fs';
import { afterAll } from 'vitest';
import { FILE_COST, type FileCost } from './lane-budget.ts';

/** Linux reports these times in USER_HZ, which is 100 on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/** CPU milliseconds of this process and its collected children, and whether children are included. */
export function cpuNow(): { ms: number; children: boolean } {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // The fields after the command name (in parentheses, which may itself hold spaces and parentheses).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // state is field 3 of the line, so utime (14), stime (15), cutime (16), cstime (17) sit at 11–14.
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    if (Number.isFinite(ticks)) return { ms: (ticks * 1000) / TICKS_PER_SECOND, children: true };
  } catch {
    // no /proc: below
  }
  const { user, system } = process.cpuUsage();
  return { ms: (user + system) / 1000, children: false };
}

// Vitest evaluates a setup file again before each test file, in the same worker too (isolate: false),
// so this runs before the file is imported: its imports (the spec, Ajv, esbuild's output) count.
const wallStart = performance.now();
const cpuStart = cpuNow().ms;

// vitest reads a hook's first parameter as the fixtures it asks for: it must be an object pattern.
// eslint-disable-next-line no-empty-pattern
afterAll(({}, suite) => {
  const cpu = cpuNow();
  const cost: FileCost = {
    wallMs: performance.now() - wallStart,
    cpuMs: cpu.ms - cpuStart,
    children: cpu.children,
  };
  (suite.meta as Record<string, unknown>)[FILE_COST] = cost;
});
