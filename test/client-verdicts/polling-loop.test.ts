import { describe, expect, it } from 'vitest';
import { createMockService, type ClientReport } from '../../mocks/index.ts';
import { idOf } from './reference-clients.ts';
import { coreWire } from './wire.ts';

// A polling loop's status queries take the judge's fast path (the last caller, the last task and its
// latest stream, a repeated verdict found by rule number): a loop that changes caller, task or query
// form on the way is judged exactly as one that never did.

const MANUAL = {
  clock: { mode: 'manual' as const, start: Date.UTC(2026, 10, 22) },
  seed: 'polling-loop',
};
const STUCK = { model: 'video-pro-v1', prompt: 'a red kite [mock:stuck]' };

const counts = (report: ClientReport) =>
  report.verdicts.map((v) => [v.rule, v.caller, v.taskId ?? null, v.count]);

describe('a polling loop', () => {
  it('tells its callers apart when the Authorization header changes between requests', async () => {
    const service = createMockService(MANUAL);
    const wire = coreWire(service);
    const keys = ['sk-mock-alice', null, 'sk-mock-alice', null, 'sk-mock-bob', null];
    for (const key of keys) await wire.call('GET', '/v1/models', { key });
    await wire.call('GET', '/v1/models', { headers: { authorization: 'Basic c2stbW9jaw==' } });
    const report = service.clientReport();
    // Every request without a Bearer key is one caller's, whatever it sent instead (issue 33 item 7).
    expect(report.counts.callers).toBe(3);
    expect(report.verdicts.map((v) => [v.rule, v.caller, v.count])).toEqual([
      ['authorization-header', '(no key)', 4],
    ]);
  });

  it('counts a breach repeated on every query once per query, per task and query form', async () => {
    const service = createMockService(MANUAL);
    const wire = coreWire(service);
    const first = idOf(await wire.call('POST', '/v1/videos', { body: STUCK }));
    const second = idOf(await wire.call('POST', '/v1/videos', { body: { ...STUCK, seed: 2 } }));
    // 70 rounds, 1 s apart: each task queried on two forms in turn, 140 queries of each task.
    for (let round = 0; round < 70; round++) {
      await wire.advance(1_000);
      for (const id of [first, second]) {
        await wire.call('GET', `/v1/videos/${id}`);
        await wire.call('GET', `/v1/video/generations/${id}`);
      }
    }
    const report = service.clientReport();
    const alice = report.verdicts[0]!.caller;
    // poll-interval: every query but each stream's first (69 per form); poll-attempts: past 60.
    expect(counts(report)).toEqual([
      ['poll-interval', alice, first, 138],
      ['poll-interval', alice, second, 138],
      ['poll-attempts', alice, first, 80],
      ['poll-attempts', alice, second, 80],
    ]);
  });
});
