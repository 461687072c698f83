import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClock } from '../../mocks/core/clock.ts';
import { createClientVerdicts } from '../../mocks/core/client-verdicts/client-verdicts.ts';
import { emptyObservation } from '../../mocks/core/client-verdicts/observation.ts';
import { createHandlers, createMockService, type ClientReport } from '../../mocks/index.ts';
import { VideoTaskClient } from '../../src/client/index.ts';
import { serviceContract } from '../../src/spec/index.ts';
import { toolHeaders, toolNumber } from '../../src/tool-mark.ts';
import { KITE, Session, idOf } from './reference-clients.ts';
import { coreWire } from './wire.ts';

// The project's tools mark their requests (X-Videotask-Tool, decisions/045) and the verdicts are the
// client's own: a tool's requests are set apart and counted; a mark covers nothing the mock can tell is
// the client's (its own tasks, its own submissions, a "retry" that retries nothing).

const MANUAL = { clock: { mode: 'manual' as const, start: Date.UTC(2026, 10, 22) }, seed: 'tools' };
const rules = (report: ClientReport) => report.verdicts.map((v) => v.rule);
const CONTRACT = toolHeaders('contract');
const RETRY = toolHeaders('client-retry');

function session() {
  const service = createMockService(MANUAL);
  return { service, s: new Session(coreWire(service)) };
}

describe('a tool’s requests', () => {
  it('are set apart: never judged, counted under their tool', async () => {
    const { service, s } = session();
    const empty = { model: 'video-pro-v1', prompt: '' };
    for (let n = 0; n < 3; n++) await s.submit(empty, { headers: CONTRACT }); // refused, retried
    await s.wire.call('GET', '/v1/models', { key: null, headers: CONTRACT });
    await s.wire.call('GET', '/v1/videos/task_not_issued_to_anyone', { headers: CONTRACT });
    const report = service.clientReport();
    expect(rules(report)).toEqual([]);
    expect(report.tools).toMatchObject({ byTool: { contract: 5 }, requests: 5, notCovered: 0 });
    expect(report.counts.callers).toBe(0);
  });

  it('cover nothing about the client’s own task or submission', async () => {
    const { service, s } = session();
    const id = idOf(await s.submit());
    await s.wire.advance(10_000);
    await s.wire.call('GET', `/v1/videos/${id}`); // in_progress
    await s.submit(KITE, { headers: CONTRACT }); // the client's own body again: a resubmission
    await s.wire.call('GET', `/v1/videos/${id}`, { headers: CONTRACT }); // 0 s later: too soon…
    await s.wire.advance(1_000);
    await s.wire.call('GET', `/v1/videos/${id}`, { headers: CONTRACT }); // …1 s later: advice
    const report = service.clientReport();
    expect(rules(report).sort()).toEqual(['no-resubmission', 'poll-interval']);
    expect(report.tools.notCovered).toBe(3);
  });
});

describe('the reference client’s own retries (client-retry)', () => {
  it('are the client’s traffic but break no rule: a retry after a 429, at once', async () => {
    const { service, s } = session();
    const limited = { ...KITE, prompt: 'a kite [mock:rate-limit]' };
    await s.submit(limited, { clientRequestId: 'r-1' });
    await s.wire.advance(1);
    await s.submit(limited, { clientRequestId: 'r-1', headers: RETRY });
    const report = service.clientReport();
    expect(rules(report)).toEqual([]);
    expect(report.tools).toMatchObject({ byTool: { 'client-retry': 1 }, notCovered: 0 });
  });

  it('cover nothing when the request retries nothing', async () => {
    const { service, s } = session();
    const id = idOf(await s.submit());
    await s.wire.advance(5_000);
    await s.wire.call('GET', `/v1/videos/${id}`); // queued
    await s.wire.advance(1_000);
    await s.wire.call('GET', `/v1/videos/${id}`, { headers: RETRY }); // after a 200: no retry
    const report = service.clientReport();
    expect(rules(report)).toEqual(['poll-interval']);
    expect(report.tools).toMatchObject({ requests: 0, notCovered: 1 });
  });
});

describe('VideoTaskClient', () => {
  const service = createMockService(MANUAL);
  const baseUrl = 'http://tools.test';
  const server = setupServer(...createHandlers(service, { baseUrl }));
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('marks the query client.poll repeats after a 5xx, and no other', async () => {
    const client = new VideoTaskClient({ baseUrl, apiKey: 'sk-mock-alice' });
    const task = await client.submit({ model: 'video-pro-v1', prompt: 'a kite [mock:flaky]' });
    const sleep = (ms: number) => Promise.resolve(service.clock.advance(ms));
    const { task: done } = await client.poll(task.id, { sleep });
    expect(done.status).toBe('completed');
    const report = service.clientReport();
    expect(rules(report)).toEqual([]);
    expect(report.tools.byTool['client-retry']).toBeGreaterThan(0);
    expect(report.tools.notCovered).toBe(0);
  });
});

describe('the mark', () => {
  it('names a tool by its place, case and spaces aside; anything else names none', () => {
    expect(toolNumber('contract')).toBe(1);
    expect(toolNumber(' Client-Retry ')).toBe(6);
    expect(toolNumber('contract-suite')).toBe(0);
    expect(toolNumber(undefined)).toBe(0);
  });
});

describe('callers of traffic the mock did not answer (a proxy)', () => {
  it("with callers: 'not-refused', a key answered 401 is no caller; one answered otherwise is", () => {
    const { validators, lifecycle } = serviceContract();
    const verdicts = createClientVerdicts(
      {
        clock: createClock({ mode: 'manual', start: Date.UTC(2026, 10, 22) }),
        shared: { generation: 0, familyBound: false },
        validators,
        lifecycle,
        store: { get: () => undefined },
        tokens: { authenticate: () => undefined },
      },
      { callers: 'not-refused' },
    );
    const observation = (key: string, status: number) => ({
      ...emptyObservation(),
      caller: `Bearer ${key}`,
      kind: 'catalog' as const,
      method: 'GET',
      path: '/v1/models',
      status,
    });
    verdicts.judge([observation('sk-made-up', 401), observation('sk-real', 200)]);
    const report = verdicts.report();
    expect(report.counts.callers).toBe(1);
    expect(report.limits.requestsOfUnknownKeys).toBe(1);
    // Observations made elsewhere without a tool, or with a number that names none, are the client's.
    const { tool: _none, ...untooled } = observation('sk-real', 200);
    verdicts.judge([untooled as never, { ...observation('sk-real', 200), tool: 14 }]);
    expect(verdicts.report()).toMatchObject({
      counts: { requests: 3 },
      tools: { requests: 0, notCovered: 0 },
    });
  });
});
