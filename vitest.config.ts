import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { E2E_TESTS, TESTS } from './test/lanes/lane-rule.ts';

// Two lanes, both in `npm test` (docs/architecture.md#tests): `npm run test:unit` (in-process, guarded
// by test/lanes/unit-lane-guard.ts) and `npm run test:e2e` (processes, servers, browsers).
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Two files at a time even on 2 cores (vitest's default there is one): an e2e file mostly waits on
    // the processes and clocks it started (a third of its wall time is CPU), so two overlap. Five
    // mocks/ e2e files: 53 s wall with two, 82 s with one (decisions/059).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Each lane's cost against its budget, printed at the end of every run (decisions/059).
    reporters: ['default', './test/lanes/lane-budget-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [TESTS],
          exclude: [...configDefaults.exclude, E2E_TESTS],
          setupFiles: ['test/lanes/unit-lane-guard.ts', 'test/lanes/file-cost.ts'],
          // In-process tests share a worker's modules (and their warmed-up code): half the lane's CPU.
          // A unit test therefore leaves no global behind (timers, env, msw listeners: close them).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: [E2E_TESTS],
          setupFiles: ['test/lanes/file-cost.ts'],
          // One worker process runs many files, as in the unit lane: a file no longer pays for a new
          // process and a fresh import of the sources (70 small e2e files: 79 -> 46 s of CPU). An e2e
          // file therefore leaves nothing behind either: it stops what it started, restores what it
          // changed (environment, spies), and closes its msw servers (decisions/060).
          isolate: false,
          // The `videotask` the tests start: the CLI bundled once per run, a quarter of the CPU of a
          // start through tsx (test/setup/built-cli.ts, decisions/060).
          globalSetup: ['test/setup/built-cli.ts'],
        },
      },
    ],
  },
});
