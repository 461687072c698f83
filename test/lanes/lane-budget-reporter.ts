/**
 * The vitest reporter that prints each lane's cost at the end of every run and fails the run when a
 * lane is over its budget (test/lanes/lane-budget.ts). CI's log therefore shows, for every Node
 * version, what each lane cost against what it may cost.
 */
import { loadavg } from 'node:os';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { FILE_COST, summarizeLanes, type FileCost, type FileRun } from './lane-budget.ts';

export default class LaneBudgetReporter implements Reporter {
  private started = performance.now();

  onTestRunStart(): void {
    this.started = performance.now();
  }

  onTestRunEnd(modules: readonly TestModule[]): void {
    const runs: FileRun[] = modules.map((module) => ({
      lane: module.project.name,
      file: relative(module.project.config.root, module.moduleId),
      tests: [...module.children.allTests()].length,
      cost: (module.meta() as Record<string, unknown>)[FILE_COST] as FileCost | undefined,
    }));
    if (runs.length === 0) return;
    const { lines, over } = summarizeLanes(runs);
    const wall = (performance.now() - this.started) / 1000;
    const load = loadavg()
      .map((n) => n.toFixed(1))
      .join(' ');
    console.log(['', ...lines, `run: ${wall.toFixed(1)} s wall, load average ${load}`].join('\n'));
    if (over.length === 0) return;
    console.error(over.join('\n'));
    process.exitCode = 1;
  }
}
