import { describe, expect, it } from 'vitest';
import { renderJUnit, renderSummary, type ContractReport } from '../../contracts/index.ts';
import { mutantFor } from '../../mocks/defects/mutants/index.ts';
import type { Defect } from '../../mocks/defects/defect.ts';
import { checkInProcess, FULL_MOCK, FULL_TARGET } from './support/in-process.ts';

type CellCoverage = ContractReport['coverage']['cells'][number];

/** The reasons given for the unobserved cells `pick` selects, off the native path (which has its own). */
const reasonsOf = (report: ContractReport, pick: (c: CellCoverage) => boolean) => [
  ...new Set(
    report.coverage.cells
      .filter((c) => !c.route.endsWith('PluginTask') && !c.observed && pick(c))
      .map((c) => c.reason),
  ),
];

describe('coverage in every report', () => {
  it(
    'observes all 104 cells and judges every rule there when the run has ' +
      'every caller, a failing task and the native path',
    async () => {
      const { report } = await checkInProcess(FULL_MOCK, FULL_TARGET);
      expect(report.coverage.line).toBe('coverage: 104/104 cells observed');
      expect(report.coverage.cells.filter((c) => c.unjudged.length > 0)).toEqual([]);
    },
  );

  it('says why each cell was not observed: no unknown state shown, no task failed, no second family', async () => {
    const { report } = await checkInProcess();
    expect(report.coverage.line).toBe(
      'coverage: 54/104 cells observed (unknown: no poll showed unknown; ' +
        'failed: no task failed (no failing model or prompt given); native path: ' +
        'no second family named (--family-model and --plugin))',
    );
    for (const cell of report.coverage.cells.filter((c) => !c.observed)) {
      expect(cell.rules, `${cell.route}/${cell.state}/${cell.caller}`).toEqual({});
      expect(cell.reason).toBeDefined();
    }
  });

  it('names the missing second key, the free tier and the budget as reasons', async () => {
    const noKey = await checkInProcess({}, { otherApiKey: undefined });
    expect(reasonsOf(noKey.report, (c) => c.caller === 'other')).toEqual([
      'no second key (--other-api-key)',
    ]);
    const free = await checkInProcess({}, { tier: 'free' });
    expect(reasonsOf(free.report, (c) => c.state === 'queued')).toEqual([
      '--tier free creates no task',
    ]);
    expect(
      free.report.coverage.cells
        .filter((c) => c.state === 'missing' && !c.route.endsWith('PluginTask'))
        .every((c) => c.observed),
    ).toBe(true);
    const broke = await checkInProcess({}, { budget: 0 });
    expect(reasonsOf(broke.report, (c) => c.state === 'in_progress')).toEqual(['budget']);
    expect(reasonsOf(broke.report, (c) => c.route === 'createVideo')).toEqual(['budget']);
  });

  it('says so when the task expected to fail completed instead', async () => {
    const { report } = await checkInProcess({}, { failing: { prompt: 'a calm sea' }, budget: 3 });
    expect(reasonsOf(report, (c) => c.state === 'failed')).toEqual([
      'the task expected to fail ended completed',
    ]);
    expect(report.notes).toContain('the task expected to fail ended completed');
    expect(report.ok).toBe(true);
  });

  it('marks the cell where a rule broke, in the summary grid, the JSON and the JUnit report', async () => {
    const cell = { route: 'getVideoGeneration', state: 'queued', caller: 'other' } as const;
    const defect = mutantFor('owner-only', cell) as Defect;
    const { report } = await checkInProcess({ ...FULL_MOCK, defects: [defect] }, FULL_TARGET);
    const broken = report.coverage.cells.find(
      (c) => c.route === cell.route && c.state === cell.state && c.caller === cell.caller,
    )!;
    expect(broken.rules['owner-only']).toBe('fail');
    const grid = renderSummary(report).split('\n');
    const row = grid.findIndex((l) => l.trim() === 'GET /v1/video/generations/{task_id}');
    expect(grid[row + 2]).toMatch(/^ {4}other user {4}ok {10}FAIL {8}ok/);
    expect(renderJUnit(report)).toContain(
      '<property name="coverage: GET /v1/video/generations/{task_id} · queued · other user" ' +
        'value="FAIL: owner-only',
    );
  });

  it('shows an unobserved cell as not observed in JUnit, never as passed (and never as a test)', async () => {
    const { report } = await checkInProcess();
    const xml = renderJUnit(report);
    expect(xml).toContain(
      '<property name="coverage: GET /v1/videos/{task_id}/content · failed · no key" ' +
        'value="not observed: no task failed (no failing model or prompt given)"/>',
    );
    const notObserved = xml.match(/<property name="coverage: [^"]*" value="not observed: /g);
    expect(notObserved).toHaveLength(50);
    expect(xml).toMatch(
      new RegExp(`<testsuites name="videotask contract" tests="${report.results.length}" `),
    );
  });
});
