import { describe, expect, it } from 'vitest';
import type { Defect } from '../../mocks/defects/defect.ts';
import { failures } from './helpers.ts';
import { checkInProcess, FULL_MOCK, FULL_TARGET } from './support/in-process.ts';
import { OWN_WAY } from './support/own-way.ts';

// The false-alarm side of the self-proof: deployments that change only what the document leaves
// open (status codes within §7's classes, error body shapes, extra fields, no request ID header, the
// catalog's shape, the video's content type, the task ID's form, fields present more often than §2.2
// requires, the wrapper's status names) pass, alone and all together. What they differ in from
// the deployed gateway may warn (an assumption's basis), never fail a documented check.
const CASES: [string, readonly Defect[]][] = [
  ...OWN_WAY.map((defect): [string, readonly Defect[]] => [defect.name, [defect]]),
  ['all of them at once', OWN_WAY],
];

describe('a deployment that conforms in its own way', () => {
  it.each(CASES)('%s: no documented check fails', async (_name, defects) => {
    for (const [mock, target] of [
      [{}, {}],
      [FULL_MOCK, FULL_TARGET],
    ] as const) {
      const { report } = await checkInProcess({ ...mock, defects: [...defects] }, target);
      expect(failures(report)).toEqual([]);
      expect(report.ok).toBe(true);
      const warned = report.results.filter((r) => r.outcome === 'warn');
      for (const result of warned) expect(result.basisText).not.toMatch(/^documented/);
      expect(report.tasksCreated).toBeGreaterThan(0);
    }
  });

  // Transitions and durations: "not shown" (§3). A task that starts at once is never seen queued; one
  // that outlasts the run's polling is never seen completed: both pass, the coverage says why.
  it.each([
    ['starts at once', { queueMs: [0, 0] }, /queued: no poll showed queued/],
    ['is done at once', { queueMs: [0, 0], runMs: [0, 10] }, /queued: no poll showed queued/],
    [
      'runs 20–25 min',
      { runMs: [20 * 60_000, 25 * 60_000] },
      /completed: no poll showed completed/,
    ],
  ] as const)('whose every task %s: no documented check fails', async (_name, timing, why) => {
    const { report } = await checkInProcess({ timing });
    expect(failures(report)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.coverage.line).toMatch(why);
  });
});
