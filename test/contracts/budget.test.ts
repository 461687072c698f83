import { describe, expect, it } from 'vitest';
import { plannedTasks } from '../../contracts/index.ts';
import { checkInProcess } from './support/in-process.ts';

// Tasks cost money on a real deployment: the counts are taken on the mock, which saw every request.
describe('tiers and budget', () => {
  it('creates no task at all with --tier free, and reports the task checks as skipped', async () => {
    const { report, service } = await checkInProcess({}, { tier: 'free' });
    expect(service.store.size).toBe(0);
    expect(report.tasksCreated).toBe(0);
    expect(report.ok).toBe(true);
    const skipped = report.results.filter((r) => r.outcome === 'skip').map((r) => r.id);
    expect(skipped).toEqual(
      expect.arrayContaining([
        'input.empty-prompt',
        'submission.both-paths',
        'content.binary',
        'owner.content',
        'sequence.legal-transition',
      ]),
    );
    expect(report.results.find((r) => r.id === 'content.binary')!.skipped).toBe(
      '--tier free creates no task',
    );
  });

  it.each([0, 1, 2, 3])(
    'never creates more than --budget %i tasks, even when the deployment accepts what it should refuse',
    async (budget) => {
      for (const defects of [[], ['empty-prompt-accepted', 'auth-skipped']]) {
        const { report, service } = await checkInProcess({ defects }, { budget });
        expect(service.store.size, `defects ${defects.join(',') || 'none'}`).toBeLessThanOrEqual(
          budget,
        );
        expect(report.tasksCreated).toBe(service.store.size);
      }
    },
  );

  it('reports what a small budget could not cover as skipped, never as passed', async () => {
    const { report, service } = await checkInProcess({}, { budget: 1 });
    expect(service.store.size).toBe(1);
    const paths = report.results.find((r) => r.id === 'submission.both-paths')!;
    expect(paths.passes).toBe(1);
    const zero = await checkInProcess({}, { budget: 0 });
    expect(zero.report.results.find((r) => r.id === 'submission.both-paths')).toMatchObject({
      outcome: 'skip',
    });
    expect(zero.report.results.find((r) => r.id === 'input.empty-prompt')).toMatchObject({
      outcome: 'skip',
    });
  });

  it('creates one more task for a failing model or prompt, one for the native path, one for both', async () => {
    const failing = { prompt: 'a storm [mock:fail]' };
    const family = { model: 'alt-video-v2', plugin: 'alt-video' };
    expect(plannedTasks({})).toBe(2);
    expect(plannedTasks({ failing })).toBe(3);
    expect(plannedTasks({ failing: { model: 'video-lite-v1' }, family })).toBe(4);
    expect(plannedTasks({ failing, family })).toBe(5);
    const { report, service } = await checkInProcess({}, { failing, budget: 3 });
    expect(service.store.size).toBe(3);
    expect(report.tasksCreated).toBe(3);
  });

  it('leaves the extra tasks out first when the budget is smaller than the plan, and says so', async () => {
    const { report, service } = await checkInProcess(
      {},
      { failing: { prompt: 'a storm [mock:fail]' }, budget: 2 },
    );
    expect(service.store.size).toBe(2);
    const failed = report.coverage.cells.filter(
      (c) => c.state === 'failed' && c.route === 'getVideo',
    );
    expect(new Set(failed.map((c) => c.reason))).toEqual(
      new Set(['budget: the task expected to fail did not fit']),
    );
    expect(report.notes).toContain(
      'budget 2 did not cover: expected to fail (--failing-model/--failing-prompt) (--budget 3 would)',
    );
  });

  it('never resubmits: one submission per request ID, as the mock counted them', async () => {
    const { service, report } = await checkInProcess();
    const counts = [...service.submissionsByClientRequestId.values()];
    expect(counts.length).toBeGreaterThanOrEqual(2);
    expect(counts.every((n) => n === 1)).toBe(true);
    expect(report.results.find((r) => r.id === 'client.no-resubmission')!.outcome).toBe('pass');
  });

  it('skips the ownership checks without a second key, and says why', async () => {
    const { report } = await checkInProcess({}, { otherApiKey: undefined });
    expect(report.results.find((r) => r.id === 'owner.status')).toMatchObject({
      outcome: 'skip',
      skipped: "needs a second user's key (--other-api-key)",
    });
  });

  it('warns, not fails, on a deployment that only breaks assumptions; --strict fails it', async () => {
    const lenient = await checkInProcess({ defects: ['progress-decrease'] });
    expect(lenient.report.ok).toBe(true);
    expect(
      lenient.report.results.find((r) => r.id === 'sequence.progress-monotonic')!.outcome,
    ).toBe('warn');
    const strict = await checkInProcess({ defects: ['progress-decrease'] }, { strict: true });
    expect(strict.report.ok).toBe(false);
  });
});
