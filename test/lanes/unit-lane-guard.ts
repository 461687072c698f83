/**
 * The unit lane's guard, a vitest setup file of the `unit` project (vitest.config.ts). A unit test runs
 * in its process only: it starts no process (child_process, cluster), opens no listening socket
 * (node:http, node:net, any server) and so launches no browser either. A test that needs one of those
 * belongs to the e2e lane, which is a name: `*.e2e.test.ts` (docs/architecture.md#tests).
 *
 * Every way to start a process or a server is replaced, before the test file is imported, by one that
 * throws a message naming the file and the lane rule. Code under test may catch that error (a CLI that
 * reports a failed spawn as its own error), so each attempt is also kept and fails the test it happened
 * in (afterEach), or the file (afterAll) when it happened while the file was imported.
 * `syncBuiltinESMExports` makes `import { spawn } from 'node:child_process'` see the replacement too.
 */
import childProcess from 'node:child_process';
import cluster from 'node:cluster';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { afterAll, afterEach, expect } from 'vitest';
import { LANE_VIOLATIONS, laneMessage, type LaneViolation } from './lane-rule.ts';

const violations: LaneViolation[] = [];
(globalThis as Record<symbol, unknown>)[LANE_VIOLATIONS] = violations;

function refuse(what: string): never {
  const file = expect.getState().testPath ?? 'this test file';
  const violation = { what, file };
  violations.push(violation);
  throw new Error(laneMessage(violation));
}

const PROCESS_STARTERS = [
  'spawn',
  'spawnSync',
  'exec',
  'execSync',
  'execFile',
  'execFileSync',
  'fork',
] as const;
const starters = childProcess as unknown as Record<string, unknown>;
for (const name of PROCESS_STARTERS) {
  // A plain function, without the original's util.promisify.custom (which would bypass it).
  starters[name] = (command: unknown) => refuse(`child_process.${name}(${String(command)})`);
}
cluster.fork = () => refuse('cluster.fork()');
net.Server.prototype.listen = function listen(this: net.Server): never {
  return refuse(`${this.constructor.name}.listen()`);
};
syncBuiltinESMExports();

/** Fails the test (or the file) in which a process or server was refused, even if the refusal was caught. */
function failOnViolations(): void {
  const found = violations.splice(0);
  if (found.length > 0) throw new Error(found.map(laneMessage).join('\n'));
}
afterEach(failOnViolations);
afterAll(failOnViolations);
