import { describe, expect, it } from 'vitest';
import { cpuNow } from './file-cost.ts';
import { summarizeLanes, type FileRun } from './lane-budget.ts';

const run = (lane: string, file: string, cpuMs: number, tests = 1): FileRun => ({
  lane,
  file,
  tests,
  cost: { cpuMs, wallMs: cpuMs * 2, children: true },
});

describe('the lanes summary every run prints', () => {
  it('prints each lane with its files, tests, CPU against its budget and its costliest files', () => {
    const { lines, over } = summarizeLanes(
      [
        run('unit', 'test/a.test.ts', 1_000, 3),
        run('unit', 'test/b.test.ts', 4_000, 2),
        run('e2e', 'test/c.e2e.test.ts', 9_000),
      ],
      { unit: { cpuSeconds: 10 }, e2e: { cpuSeconds: 20 } },
    );
    expect(lines).toEqual([
      "lane e2e: 1 files, 1 tests, CPU 9.0 s of its 20 s budget, files' wall 18.0 s; " +
        'most CPU: test/c.e2e.test.ts 9.0 s',
      "lane unit: 2 files, 5 tests, CPU 5.0 s of its 10 s budget, files' wall 10.0 s; " +
        'most CPU: test/b.test.ts 4.0 s, test/a.test.ts 1.0 s',
    ]);
    expect(over).toEqual([]);
  });

  it('fails a lane over its CPU budget, saying what to do', () => {
    const { over } = summarizeLanes([run('unit', 'test/a.test.ts', 10_500)], {
      unit: { cpuSeconds: 10 },
    });
    expect(over).toHaveLength(1);
    expect(over[0]).toMatch(/^lane unit took 10\.5 s of CPU, over its budget of 10 s/);
    expect(over[0]).toContain('move a whole-system run to the e2e lane');
  });

  it('says when a CPU figure is the process only, and counts a file it has no figure for', () => {
    const bare: FileRun = { lane: 'unit', file: 'test/x.test.ts', tests: 4, cost: undefined };
    const own: FileRun = {
      lane: 'unit',
      file: 'test/y.test.ts',
      tests: 1,
      cost: { cpuMs: 100, wallMs: 100, children: false },
    };
    const { lines } = summarizeLanes([bare, own], {});
    expect(lines[0]).toMatch(
      /^lane unit: 2 files, 5 tests, CPU 0\.1 s \(own CPU only: no \/proc\)/,
    );
  });
});

describe('a file’s CPU', () => {
  it('grows with the work this process does', () => {
    const before = cpuNow();
    // A fixed amount of work (about 0.1 s of CPU), not a fixed time: /proc counts in 10 ms ticks.
    let x = 0;
    for (let i = 0; i < 50_000_000; i++) x += Math.sqrt(i);
    expect(x).toBeGreaterThan(0);
    expect(cpuNow().ms).toBeGreaterThan(before.ms);
    expect(before.children).toBe(process.platform === 'linux');
  });
});
