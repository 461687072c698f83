// Issue 34: `videotask proxy` in front of the standalone mock with named defects and scenarios, with
// real processes. The defects the clients' traffic shows are failed with their section (another
// user's task served, §5; content served before completion, §3), with the request, the deployment's
// request ID and a curl line; a failing scenario is followed to its end; a sloppy client's breaches
// are in the client report; and the mock created exactly the tasks the clients submitted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carefulClient, sloppyClient } from './support/clients.ts';
import { startMock, startProxyProcess, stopAll, type Started } from './support/processes.ts';

const ALICE = 'sk-mock-alice';
const BOB = 'sk-mock-bob';

interface Violation {
  message: string;
  evidence?: {
    request?: string;
    curl?: string;
    serviceRequestId?: string;
    cell?: { state: string };
  };
}
interface Result {
  id: string;
  outcome: string;
  basisText: string;
  violations: Violation[];
}

let mock: Started;
let proxy: Started;
const json = async <T>(url: string, init?: RequestInit): Promise<T> =>
  (await fetch(url, init)).json() as Promise<T>;

beforeAll(async () => {
  mock = await startMock(
    '--speed',
    '100',
    '--defect',
    'foreign-status',
    '--defect',
    'content-before-completion',
    '--defect',
    'progress-incomplete',
  );
  proxy = await startProxyProcess('--upstream', mock.url);
}, 30_000);

afterAll(() => stopAll());

describe('the proxy in front of the mock with named defects', () => {
  it('fails what the traffic shows with its section and a reproduction, and creates no task itself', async () => {
    const [careful, failing, sloppy] = await Promise.all([
      carefulClient(proxy.url, ALICE, 'a lighthouse at dusk'),
      carefulClient(proxy.url, ALICE, 'a storm [mock:fail]'),
      sloppyClient(proxy.url, BOB, 'a quay at night [mock:slow]'),
    ]);
    expect(careful.status).toBe('completed');
    expect(failing.status).toBe('failed');
    // Bob asks about Alice's task: the defect serves it to him.
    const foreign = await fetch(`${proxy.url}/v1/videos/${careful.taskId}`, {
      headers: { authorization: `Bearer ${BOB}` },
    });
    expect(foreign.status).toBe(200);

    const { tasks } = await json<{ tasks: unknown[] }>(`${mock.url}/__mock/tasks`);
    expect(tasks).toHaveLength(careful.submissions + failing.submissions + sloppy.submissions);

    const report = await json<{
      ok: boolean;
      results: Result[];
      coverage: { cells: { state: string; observed: boolean }[] };
    }>(`${proxy.url}/__proxy/contract-report`);
    expect(report.ok).toBe(false);
    const byId = new Map(report.results.map((r) => [r.id, r]));
    const owner = byId.get('owner.status')!;
    expect(owner).toMatchObject({ outcome: 'fail', basisText: 'documented §5' });
    const ev = owner.violations[0]!.evidence!;
    expect(ev.request).toBe(`GET /v1/videos/${careful.taskId} (other key)`);
    expect(ev.curl).toContain('$VIDEOTASK_OTHER_API_KEY');
    // Replayed against the deployment itself: its address, none of the proxy's hop (Host, Connection).
    expect(ev.curl).toContain(`'${mock.url}/v1/videos/${careful.taskId}'`);
    expect(ev.curl).not.toMatch(/'(Host|Connection|Via):/i);
    expect(ev.serviceRequestId).toMatch(/^X-Oneapi-Request-Id: \d+/);
    expect(byId.get('content.before-completion')).toMatchObject({ outcome: 'fail' });
    expect(byId.get('content.before-completion')!.basisText).toMatch(/§3/);
    expect(byId.get('sequence.progress-complete')).toMatchObject({
      outcome: 'warn',
      basisText: 'assumption',
    });
    const observed = new Set(report.coverage.cells.filter((c) => c.observed).map((c) => c.state));
    expect([...observed]).toEqual(expect.arrayContaining(['completed', 'failed']));

    const clients = await json<{ verdicts: { rule: string; caller: string; outcome: string }[] }>(
      `${proxy.url}/__proxy/client-report`,
    );
    const bob = clients.verdicts.filter((v) => v.caller === 'sk-…ob');
    expect(bob.map((v) => v.rule)).toEqual(
      expect.arrayContaining(['no-resubmission', 'stop-polling-when-finished', 'poll-interval']),
    );
    expect(
      clients.verdicts.filter((v) => v.caller !== 'sk-…ob' && v.outcome === 'violation'),
    ).toEqual([]);
  }, 40_000);

  it("judges the second family's native path (§4.5) once the family is open", async () => {
    const bind = await fetch(`${mock.url}/__mock/family`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ bound: true }),
    });
    expect(bind.status).toBe(200);
    const headers = { authorization: 'Bearer sk-mock-vip', 'content-type': 'application/json' };
    const tasks = `${proxy.url}/alt-video/api/v3/contents/generations/tasks`;
    const submitted = await fetch(tasks, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        model: 'alt-video-v2',
        content: [{ type: 'text', text: 'a lighthouse' }],
        duration: 5,
      }),
    });
    expect(submitted.status).toBe(200);
    const { id } = (await submitted.json()) as { id: string };
    for (let i = 0; i < 3; i++)
      expect((await fetch(`${tasks}/${id}`, { headers })).status).toBe(200);
    const report = await json<{ results: Result[] }>(`${proxy.url}/__proxy/contract-report`);
    const byId = new Map(report.results.map((r) => [r.id, r]));
    expect(byId.get('native.shape')).toMatchObject({ outcome: 'pass' });
    expect(byId.get('native.owner-query')).toMatchObject({ outcome: 'pass' });
  });

  it("judges the deployment's own 429s by their Retry-After", async () => {
    const limited = await startMock('--speed', '100', '--rate-limit', '2/60');
    const front = await startProxyProcess('--upstream', limited.url);
    const headers = { authorization: `Bearer ${ALICE}` };
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await fetch(`${front.url}/v1/models`, { headers })).status);
    expect(statuses).toContain(429);
    const report = await json<{ results: Result[] }>(`${front.url}/__proxy/contract-report`);
    const retryAfter = report.results.find((r) => r.id === 'rate-limit.retry-after')!;
    expect(retryAfter.outcome).toBe('pass');
    expect(await front.stop()).toBe(0);
  }, 30_000);
});
