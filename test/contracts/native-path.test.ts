import { describe, expect, it } from 'vitest';
import type { ContractReport } from '../../contracts/index.ts';
import { checkInProcess, FULL_MOCK, FULL_TARGET } from './support/in-process.ts';

const result = (report: ContractReport, id: string) => report.results.find((r) => r.id === id)!;

// The second family's native path (§4.5), when the catalog lists the family model and the operator
// names it and its plugin: auth, the upstream's shapes, status values, no mixed formats.
describe('the native path', () => {
  it('is judged on its shapes, its status values and a mixed body, within the budget', async () => {
    const { report, service } = await checkInProcess(FULL_MOCK, FULL_TARGET);
    expect(result(report, 'native.formats-not-mixed')).toMatchObject({
      outcome: 'pass',
      passes: 1,
    });
    expect(result(report, 'native.shape').passes).toBeGreaterThanOrEqual(2);
    expect(result(report, 'native.status-mapping').passes).toBeGreaterThanOrEqual(4);
    expect(service.store.size).toBe(5);
  });

  it('fails on a mixed body accepted, and the task it made counts against the budget', async () => {
    const { report, service } = await checkInProcess(
      { ...FULL_MOCK, defects: ['native-mixed-accepted'] },
      FULL_TARGET,
    );
    expect(result(report, 'native.formats-not-mixed')).toMatchObject({
      outcome: 'fail',
      basisText: 'documented §4.5',
    });
    expect(service.store.size).toBeLessThanOrEqual(5);
    expect(report.tasksCreated).toBe(service.store.size);
  });

  it('warns on OpenAI-form status values where the upstream has its own, naming the state', async () => {
    const { report } = await checkInProcess(
      { ...FULL_MOCK, defects: ['native-openai-statuses'] },
      FULL_TARGET,
    );
    const mapping = result(report, 'native.status-mapping');
    expect(mapping.outcome).toBe('warn');
    expect(mapping.violations.map((v) => v.message)).toContain(
      'the native path says status "completed", not a native value (queued, ' +
        'running, succeeded, failed, cancelled, expired)',
    );
    expect(report.ok).toBe(true);
  });

  it('skips the mixed-body probe when the budget leaves no room for a task it could create', async () => {
    const { report } = await checkInProcess(FULL_MOCK, { ...FULL_TARGET, budget: 0 });
    expect(result(report, 'native.formats-not-mixed')).toMatchObject({
      outcome: 'skip',
      skipped: expect.stringMatching(
        /^the task budget leaves nothing for a submission a broken deployment could accept/,
      ) as unknown,
    });
  });
});
