import { describe, expect, it } from 'vitest';
import { createMockService } from '../../mocks/index.ts';
import {
  emptyObservation,
  type Observation,
} from '../../mocks/core/client-verdicts/observation.ts';
import { KITE, Session, idOf } from './reference-clients.ts';
import { coreWire } from './wire.ts';

// Memory stays bounded per caller (decisions/019), and what the judge could not keep is said, never
// misjudged; observations from before a reset, or that arrive after later ones, are not judged.

const MANUAL = {
  clock: { mode: 'manual' as const, start: Date.UTC(2026, 10, 22) },
  seed: 'limits',
};

describe('limits', () => {
  it('judges at most maxCallers callers and counts the requests of the others', async () => {
    const service = createMockService({ ...MANUAL, clientVerdicts: { limits: { maxCallers: 2 } } });
    for (const key of ['sk-mock-alice', 'sk-mock-bob', 'sk-mock-vip', 'sk-not-a-mock-key'])
      await coreWire(service, key).call('GET', '/v1/models');
    const report = service.clientReport();
    expect(report.counts.callers).toBe(2);
    expect(report.limits).toMatchObject({
      maxCallers: 2,
      requestsOfUntrackedCallers: 1,
      requestsOfUnknownKeys: 1,
    });
  });

  it('forgets the oldest tasks past maxTasksPerCaller, and so judges nothing about them', async () => {
    const limits = { maxTasksPerCaller: 3 };
    const service = createMockService({ ...MANUAL, clientVerdicts: { limits } });
    const s = new Session(coreWire(service));
    const first = idOf(await s.submit());
    for (let n = 1; n <= 3; n++) await s.submit({ ...KITE, prompt: `kite ${n}` });
    await s.submit(); // the first task is forgotten: this is not judged a resubmission
    await s.wire.call('GET', `/v1/videos/${first}`);
    const report = service.clientReport();
    expect(report.verdicts).toEqual([]);
    expect(report.limits.tasksForgotten).toBeGreaterThanOrEqual(2);
  });

  it('keeps maxVerdicts entries and counts the breaches past them by rule', async () => {
    const service = createMockService({
      ...MANUAL,
      clientVerdicts: { limits: { maxVerdicts: 1 } },
    });
    const wire = coreWire(service);
    for (const path of ['/v1/models', '/v1/models']) await wire.call('GET', path, { key: null });
    await wire.call('POST', '/v1/videos', { raw: '{}', headers: { 'content-type': 'text/plain' } });
    const report = service.clientReport();
    expect(report.verdicts.map((v) => [v.rule, v.count])).toEqual([['authorization-header', 2]]);
    expect(report.limits.verdictsNotListed).toEqual({ 'json-content-type': 1 });
  });
});

describe('observations out of order', () => {
  const service = createMockService(MANUAL);
  const at = service.clock.now();
  const query = (order: number, atMs: number, generation = 0): Observation => ({
    ...emptyObservation(),
    caller: 'Bearer sk-mock-alice',
    kind: 'query',
    form: 'openai',
    method: 'GET',
    path: '/v1/videos/task_x',
    at: atMs,
    order,
    generation,
    status: 200,
    taskId: 'task_x',
    told: 'in_progress',
  });

  it('judges nothing on a query that arrives after a later one of the same loop', () => {
    service.clientVerdicts.judge([
      query(10, at + 10_000),
      query(5, at + 9_000),
      query(20, at + 15_000),
    ]);
    expect(service.clientReport().verdicts).toEqual([]);
  });

  it('drops observations from before a reset', () => {
    service.reset();
    service.clientVerdicts.judge([query(30, at + 20_000, 0), query(31, at + 20_100, 0)]);
    expect(service.clientReport().counts.requests).toBe(0);
  });
});
