import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  assertNoClientViolations,
  ClientVerdictError,
  createHandlers,
  createMockService,
  renderClientJUnit,
  renderClientSummary,
  startMockServer,
  type ClientVerdict,
  type RunningMockServer,
} from '../../mocks/index.ts';
import { expectControlConformant, seenBytes } from '../helpers/conformance.ts';
import { exchange } from '../helpers/http-exchange.ts';
import { KITE, Session, idOf } from './reference-clients.ts';
import { coreWire, httpWire } from './wire.ts';

const MANUAL = { clock: { mode: 'manual' as const, start: Date.UTC(2026, 10, 22) }, seed: 'api' };
/** A key that is not a built-in one: the report must never show it, in any field. */
const LIVE_KEY = 'sk-live-7Hq2ZpW9xK4mN8vB3cR1';
const tokens = [{ key: LIVE_KEY, user: 'carol', group: 'default' }];

/** A client that resubmits a running task, retries a 400 and polls every 200 ms. */
async function sloppy(s: Session): Promise<string> {
  const id = idOf(await s.submit());
  for (let query = 0; query < 3; query++) {
    await s.wire.advance(200);
    await s.wire.call('GET', `/v1/videos/${id}`);
  }
  await s.submit();
  await s.submit({ model: 'video-pro-v1', prompt: '' });
  await s.submit({ model: 'video-pro-v1', prompt: '' });
  return id;
}

describe('GET and DELETE /__mock/client-report over HTTP', () => {
  let server: RunningMockServer;
  beforeAll(async () => {
    server = await startMockServer({ ...MANUAL, tokens, port: 0 });
  });
  afterAll(() => server.close());

  it('answers the report the spec declares, callers masked, and clears it on DELETE', async () => {
    await sloppy(new Session(httpWire(server.url, LIVE_KEY)));
    const answer = await fetch(`${server.url}/__mock/client-report`);
    const bytes = new Uint8Array(await answer.arrayBuffer());
    const seen = seenBytes(answer.status, answer.headers.get('content-type') ?? '', bytes);
    expectControlConformant('getMockClientReport', seen);
    const text = new TextDecoder().decode(bytes);
    expect(text).not.toContain(LIVE_KEY);
    expect(text).not.toContain(LIVE_KEY.slice(3, -4));
    const report = JSON.parse(text) as { verdicts: ClientVerdict[] };
    expect(report.verdicts.map((v) => v.rule).sort()).toEqual([
      'no-direct-retry-after-4xx',
      'no-resubmission',
      'poll-interval',
    ]);
    expect(new Set(report.verdicts.map((v) => v.caller))).toEqual(new Set(['sk-…3cR1']));
    expect(report.verdicts[0]!.user).toBe('carol');

    const cleared = await fetch(`${server.url}/__mock/client-report`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
    });
    const clearedSeen = seenBytes(
      cleared.status,
      cleared.headers.get('content-type') ?? '',
      new Uint8Array(await cleared.arrayBuffer()),
    );
    expectControlConformant('clearMockClientReport', clearedSeen);
    const after = (await (await fetch(`${server.url}/__mock/client-report`)).json()) as {
      verdicts: unknown[];
      counts: { requests: number };
    };
    expect(after.verdicts).toEqual([]);
    expect(after.counts.requests).toBe(0);
  });

  it('guards the route as the rest of the control API: JSON writes, no other origin, this Host', async () => {
    const url = `${server.url}/__mock/client-report`;
    expect((await exchange(url, { method: 'DELETE' })).status).toBe(415);
    const crossSite = await exchange(url, { headers: { origin: 'https://evil.example' } });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers['access-control-allow-origin']).toBeUndefined();
    const rebound = await exchange(url, { headers: { host: `evil.example:${server.port}` } });
    expect(rebound.status).toBe(403);
  });

  it('forgets the report on POST /__mock/reset', async () => {
    await sloppy(new Session(httpWire(server.url)));
    const reset = await fetch(`${server.url}/__mock/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(reset.status).toBe(200);
    const report = await httpWire(server.url).report();
    expect(report.verdicts).toEqual([]);
  });
});

describe('in-process', () => {
  it('reports the sloppy client with sections, requests and advice; the summary and JUnit say the same', async () => {
    const service = createMockService({ ...MANUAL, tokens });
    const id = await sloppy(new Session(coreWire(service, LIVE_KEY)));
    const report = service.clientReport();
    const resubmission = report.verdicts.find((v) => v.rule === 'no-resubmission')!;
    expect(resubmission).toMatchObject({
      outcome: 'violation',
      section: '§3',
      taskId: id,
      situation: 'Query returns `queued` or `in_progress`',
      advice: expect.stringContaining('Do not resubmit') as string,
    });
    expect(resubmission.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /v1/video/generations 200',
      `GET /v1/videos/${id} 200`,
      'POST /v1/video/generations 200',
    ]);
    const summary = renderClientSummary(report);
    expect(summary).toContain('VIOLATION no-resubmission (§3)');
    expect(summary).toContain('ADVICE poll-interval (§8)');
    expect(summary).toContain('Your tests never showed your client:');
    expect(summary).toContain('`[mock:fail]`');
    const junit = renderClientJUnit(report);
    expect(junit).toMatch(/<testsuite name="videotask.client-rules" tests="\d+" failures="2"/);
    expect(junit).toContain('<skipped message="never met: `[mock:fail]`');
    for (const text of [summary, junit, JSON.stringify(report)])
      expect(text).not.toContain(LIVE_KEY);
  });

  it('fails a test through assertNoClientViolations, listing each verdict; advice alone passes', async () => {
    const service = createMockService(MANUAL);
    const s = new Session(coreWire(service));
    await s.job(KITE, { wait: () => 2_000 });
    expect(() => assertNoClientViolations(service)).not.toThrow();
    expect(() => assertNoClientViolations(service, { fail: ['violation', 'advice'] })).toThrow(
      ClientVerdictError,
    );
    await sloppy(s);
    let error: unknown;
    try {
      assertNoClientViolations(service, { clear: true });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ClientVerdictError);
    expect((error as ClientVerdictError).message).toContain('no-resubmission (§3)');
    expect((error as ClientVerdictError).message).toContain('do instead');
    expect((error as ClientVerdictError).verdicts).toHaveLength(2);
    expect(() => assertNoClientViolations(service)).not.toThrow(); // cleared
  });

  it('sees nothing with clientVerdicts: false', async () => {
    const service = createMockService({ ...MANUAL, clientVerdicts: false });
    await sloppy(new Session(coreWire(service)));
    expect(service.clientReport().verdicts).toEqual([]);
    expect(service.clientReport().counts.requests).toBe(0);
  });
});

describe('msw: createHandlers(service, { onClientViolation })', () => {
  const service = createMockService(MANUAL);
  const seen: ClientVerdict[] = [];
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());
  const headers = { authorization: 'Bearer sk-mock-alice', 'content-type': 'application/json' };
  const submit = () =>
    fetch('http://video.test/v1/videos', { method: 'POST', headers, body: JSON.stringify(KITE) });

  it("fails the offending request with a 400 naming the rule on 'error', and prints the verdict", async () => {
    server.resetHandlers(...createHandlers(service, { onClientViolation: 'error' }));
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    const first = await submit();
    expect(first.status).toBe(200);
    const again = await submit();
    expect(again.status).toBe(400);
    expect(again.headers.get('x-mock-client-rule')).toBe('no-resubmission');
    const body = (await again.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('client_rule_violated');
    expect(body.error.message).toMatch(/no-resubmission \(§3\).*Do instead: Keep polling/);
    expect(printed.mock.calls.flat().join('\n')).toContain('VIOLATION no-resubmission (§3)');
    // GET /v1/models declares no 400: the request fails as msw's own onUnhandledRequest 'error' does.
    await expect(fetch('http://video.test/v1/models')).rejects.toThrow(TypeError);
    expect(printed.mock.calls.flat().join('\n')).toContain('VIOLATION authorization-header (§5)');
    printed.mockRestore();
    service.reset();
  });

  it('calls a function with each violation and answers as usual; advice never fails a request', async () => {
    server.resetHandlers(...createHandlers(service, { onClientViolation: (v) => seen.push(v) }));
    const { id } = (await (await submit()).json()) as { id: string };
    for (let query = 0; query < 3; query++) {
      service.clock.advance(100);
      expect((await fetch(`http://video.test/v1/videos/${id}`, { headers })).status).toBe(200);
    }
    expect((await submit()).status).toBe(200);
    expect(seen.map((v) => v.rule)).toEqual(['no-resubmission']);
    expect(service.clientReport().verdicts.map((v) => v.rule)).toContain('poll-interval');
  });
});
