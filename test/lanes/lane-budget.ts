/**
 * Each lane's budget, and the summary every vitest run prints at its end (test/lanes/lane-budget-
 * reporter.ts; decisions/059). A lane is held to the CPU time its files cost, their own and that of the
 * processes they start (test/lanes/file-cost.ts), not to its wall time: on 2 shared cores the wall
 * time of one run stretches with everyone else's load, the CPU it needs does not. Both are printed, with
 * the load average, so a slow day reads as what it is.
 *
 * When a lane's CPU passes its budget the run fails, saying what to do: make the slow files cheaper
 * (share a server or process across a file, test parsing in-process instead of through a process, a
 * manual clock instead of a real wait), or, for a whole-system run too heavy for the unit lane, move it
 * to the e2e lane by its name. A budget is raised only in a decision record that says why.
 */

/** The key of a file's task meta under which test/lanes/file-cost.ts leaves what the file cost. */
export const FILE_COST = 'videotask.fileCost';

export interface FileCost {
  readonly wallMs: number;
  /** This process's CPU while the file ran, and its collected children's when `children`. */
  readonly cpuMs: number;
  readonly children: boolean;
}

export interface LaneBudget {
  /** CPU seconds the whole lane may take (its files and the processes they start). */
  readonly cpuSeconds: number;
}

/**
 * decisions/059: the unit lane measured 55.4 s of CPU at load average 6.4 (2026-11-29), 61.7 s in a
 * fresh-clone `.ci/run` at load average 5–10 (shared caches cost CPU too): 80 s, a quarter above.
 * The e2e lane measured 540 s of CPU in a fresh-clone `.ci/run` on Node 20 with nothing else
 * running (2026-11-29), with a budget of 800 s; decisions/060 (the CLI bundled once per run, one
 * worker process for many files) brought it to 342 s in a whole `npm test` at load average 4:
 * half again for another Node's code and a loaded machine, 520 s.
 */
export const LANE_BUDGETS: Readonly<Record<string, LaneBudget>> = {
  unit: { cpuSeconds: 80 },
  e2e: { cpuSeconds: 520 },
};

/** One test file as the run reported it. */
export interface FileRun {
  readonly lane: string;
  /** The file's path, relative to the project root. */
  readonly file: string;
  readonly tests: number;
  readonly cost: FileCost | undefined;
}

export interface LaneSummary {
  /** What the run prints, one line each. */
  readonly lines: readonly string[];
  /** One line per lane over its budget; the run fails when there is any. */
  readonly over: readonly string[];
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** How many of the slowest files a lane's line names. */
const SLOWEST = 3;

/** The lines a run prints for its lanes and the lanes over budget. */
export function summarizeLanes(
  runs: readonly FileRun[],
  budgets: Readonly<Record<string, LaneBudget>> = LANE_BUDGETS,
): LaneSummary {
  const lanes = [...new Set(runs.map((r) => r.lane))].sort();
  const lines: string[] = [];
  const over: string[] = [];
  for (const lane of lanes) {
    const files = runs.filter((r) => r.lane === lane);
    const measured = files.filter((r) => r.cost !== undefined);
    const cpuMs = measured.reduce((sum, r) => sum + r.cost!.cpuMs, 0);
    const wallMs = measured.reduce((sum, r) => sum + r.cost!.wallMs, 0);
    const tests = files.reduce((sum, r) => sum + r.tests, 0);
    const budget = budgets[lane];
    const slowest = [...measured]
      .sort((a, b) => b.cost!.cpuMs - a.cost!.cpuMs)
      .slice(0, SLOWEST)
      .map((r) => `${r.file} ${seconds(r.cost!.cpuMs)}`);
    const own = measured.some((r) => !r.cost!.children) ? ' (own CPU only: no /proc)' : '';
    lines.push(
      `lane ${lane}: ${files.length} files, ${tests} tests, CPU ${seconds(cpuMs)}` +
        (budget === undefined ? '' : ` of its ${budget.cpuSeconds} s budget`) +
        `${own}, files' wall ${seconds(wallMs)}; most CPU: ${slowest.join(', ')}`,
    );
    if (budget !== undefined && cpuMs > budget.cpuSeconds * 1000)
      over.push(
        `lane ${lane} took ${seconds(cpuMs)} of CPU, over its budget of ${budget.cpuSeconds} s ` +
          '(test/lanes/lane-budget.ts): make its slowest files cheaper (share a server or process ' +
          'across a file, test parsing in-process, a manual clock instead of a real wait) or move a ' +
          'whole-system run to the e2e lane (docs/architecture.md#tests, decisions/059).',
      );
  }
  return { lines, over };
}
