import { describe, expect, it } from 'vitest';
import { checkMock } from './helpers.ts';

// Tasks cost money on a real deployment: the counts are taken on the mock, which saw every request.
describe('tiers and budget', () => {
  it('creates no task at all with --tier free, and reports the task checks as skipped', async () => {
    const { report, server } = await checkMock({}, { tier: 'free' });
    expect(server.service.store.size).toBe(0);
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
        const { report, server } = await checkMock({ defects }, { budget });
        expect(
          server.service.store.size,
          `defects ${defects.join(',') || 'none'}`,
        ).toBeLessThanOrEqual(budget);
        expect(report.tasksCreated).toBe(server.service.store.size);
      }
    },
  );

  it('reports what a small budget could not cover as skipped, never as passed', async () => {
    const { report, server } = await checkMock({}, { budget: 1 });
    expect(server.service.store.size).toBe(1);
    const paths = report.results.find((r) => r.id === 'submission.both-paths')!;
    expect(paths.passes).toBe(1);
    const zero = await checkMock({}, { budget: 0 });
    expect(zero.report.results.find((r) => r.id === 'submission.both-paths')).toMatchObject({
      outcome: 'skip',
    });
    expect(zero.report.results.find((r) => r.id === 'input.empty-prompt')).toMatchObject({
      outcome: 'skip',
    });
  });

  it('never resubmits: one submission per request ID, as the mock counted them', async () => {
    const { server, report } = await checkMock();
    const counts = [...server.service.submissionsByRequestId.values()];
    expect(counts.length).toBeGreaterThanOrEqual(2);
    expect(counts.every((n) => n === 1)).toBe(true);
    expect(report.results.find((r) => r.id === 'client.no-resubmission')!.outcome).toBe('pass');
  });

  it('skips the ownership checks without a second key, and says why', async () => {
    const { report } = await checkMock({}, { otherApiKey: undefined });
    expect(report.results.find((r) => r.id === 'owner.status')).toMatchObject({
      outcome: 'skip',
      skipped: "needs a second user's key (--other-api-key)",
    });
  });

  it('warns, not fails, on a deployment that only breaks assumptions; --strict fails it', async () => {
    const lenient = await checkMock({ defects: ['progress-decrease'] });
    expect(lenient.report.ok).toBe(true);
    expect(
      lenient.report.results.find((r) => r.id === 'sequence.progress-monotonic')!.outcome,
    ).toBe('warn');
    const strict = await checkMock({ defects: ['progress-decrease'] }, { strict: true });
    expect(strict.report.ok).toBe(false);
  });
});
