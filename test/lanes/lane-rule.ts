/**
 * The two test lanes (docs/architecture.md#tests), decided by a file's name so that a new file lands
 * in one without anyone editing a list:
 *  - e2e: `test/**\/*.e2e.test.ts`, tests that start a process, a server or a browser, and whole-system
 *    runs too heavy for the unit lane's budget (hundreds of contract runs: decisions/034);
 *  - unit: every other `test/**\/*.test.ts`, under 60 s in all; test/lanes/unit-lane-guard.ts fails
 *    one that starts a process or a server.
 */
export const TESTS = 'test/**/*.test.ts';
export const E2E_TESTS = 'test/**/*.e2e.test.ts';

/** Where the guard keeps what it refused, for the lane's own test (globalThis, one per test file). */
export const LANE_VIOLATIONS = Symbol.for('videotask.unit-lane.violations');

export interface LaneViolation {
  /** `child_process.spawn(node)`, `Server.listen()`. */
  readonly what: string;
  readonly file: string;
}

export function laneMessage({ what, file }: LaneViolation): string {
  return (
    `unit lane: ${file} called ${what}. A unit test starts no process, server or browser; ` +
    'a test that needs one goes in the e2e lane: name its file *.e2e.test.ts (docs/architecture.md#tests).'
  );
}
