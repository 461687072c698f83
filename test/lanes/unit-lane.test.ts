import { execFile, fork, spawn, spawnSync } from 'node:child_process';
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import net from 'node:net';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { LANE_VIOLATIONS, type LaneViolation } from './lane-rule.ts';

// This file runs in the unit lane: the guard (unit-lane-guard.ts) is in force here. Each test takes
// back what the guard kept, so that only the assertions decide; unit-lane-guard.e2e.test.ts shows a
// real run failing a test that swallows the error.
const kept = () => (globalThis as Record<symbol, LaneViolation[]>)[LANE_VIOLATIONS]!;
afterEach(() => void kept().splice(0));

const RULE = /unit lane: .*unit-lane\.test\.ts called .*name its file \*\.e2e\.test\.ts/;

describe('the unit lane refuses processes and servers', () => {
  it.each([
    ['spawn', () => spawn(process.execPath, ['-e', '0'])],
    ['spawnSync', () => spawnSync(process.execPath, ['-e', '0'])],
    ['fork', () => fork('-e')],
    ['cluster.fork', () => cluster.fork()],
    ['an http server', () => createServer().listen(0, '127.0.0.1')],
    ['a net server', () => net.createServer().listen(0)],
  ])('%s throws the rule, naming the file', (_name, start) => {
    expect(start).toThrow(RULE);
    expect(kept()).toHaveLength(1);
  });

  it('rejects a promisified execFile', async () => {
    await expect(promisify(execFile)(process.execPath, ['-e', '0'])).rejects.toThrow(RULE);
    expect(kept()).toHaveLength(1);
  });

  it('keeps what it refused even when the caller swallows the error', () => {
    try {
      spawnSync('git', ['status']);
    } catch {
      // what code under test might do
    }
    expect(kept().map((v) => v.what)).toEqual(['child_process.spawnSync(git)']);
  });
});
