import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ClientReport } from '../../mocks/index.ts';
import { VideoTaskClient, submitWithRetry } from '../../src/index.ts';
import { exitCode, killMockProcesses, listening, spawnMock } from '../helpers/mock-process.ts';

// Tried as a new user would: `videotask mock --client-report DIR`, a deliberately sloppy client
// written with fetch (polls every 200 ms, resubmits when it sees in_progress, retries a 400) and the
// project's own client side by side; the report over HTTP while it runs, the files on exit. Then the
// same with `--workers 2`, where one client's requests land on both workers.

const BANNER_END = /secret: .*\n/;
const KITE = { model: 'video-pro-v1', prompt: 'a red kite' };
const dirs: string[] = [];
afterEach(() => killMockProcesses());
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function reportDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'videotask-client-report-'));
  dirs.push(dir);
  return join(dir, 'report');
}

interface Answer {
  readonly status: number;
  readonly json: unknown;
  readonly worker: string;
}

/** One request on a connection of its own, so that with workers the requests spread over them. */
function call(base: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = {
    authorization: 'Bearer sk-mock-alice',
    connection: 'close',
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
  };
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          json: JSON.parse(text) as unknown,
          worker: String(res.headers['x-mock-worker'] ?? ''),
        }),
      );
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const statusOf = (answer: Answer) => (answer.json as { status?: string }).status;

/** The sloppy client: `pause` between polls (a real wait, or a move of a manual clock). */
async function sloppyClient(base: string, pause: () => Promise<void>): Promise<string[]> {
  const workers: string[] = [];
  const submitted = await call(base, 'POST', '/v1/videos', KITE);
  const { id } = submitted.json as { id: string };
  let resubmitted = false;
  for (let poll = 0; poll < 200; poll++) {
    await pause();
    const answer = await call(base, 'GET', `/v1/videos/${id}`);
    workers.push(answer.worker);
    if (statusOf(answer) === 'in_progress' && !resubmitted) {
      resubmitted = true;
      await call(base, 'POST', '/v1/videos', KITE);
    }
    if (statusOf(answer) === 'completed') break;
  }
  const empty = { model: 'video-pro-v1', prompt: '' };
  expect((await call(base, 'POST', '/v1/videos', empty)).status).toBe(400);
  expect((await call(base, 'POST', '/v1/videos', empty)).status).toBe(400);
  return workers;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Stops the mock as a terminal would and reads what it wrote. */
async function filesOnExit(mock: ReturnType<typeof spawnMock>, dir: string) {
  mock.child.kill('SIGTERM');
  expect(await exitCode(mock, 20_000), mock.stderr()).toBe(0);
  expect(mock.stderr()).toMatch(/client report: 2 violation\(s\), 1 advice, 0 note\(s\)/);
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  return {
    json: JSON.parse(read('client-report.json')) as ClientReport,
    summary: read('client-report.txt'),
    junit: read('client-report.junit.xml'),
  };
}

function expectSloppyVerdicts(report: ClientReport): void {
  const alice = report.verdicts.filter((v) => v.user === 'alice');
  expect(alice.map((v) => [v.rule, v.outcome, v.section])).toEqual([
    ['no-resubmission', 'violation', '§3'],
    ['no-direct-retry-after-4xx', 'violation', '§7'],
    ['poll-interval', 'advice', '§8'],
  ]);
  for (const verdict of alice) {
    expect(verdict.advice.length).toBeGreaterThan(20);
    expect(verdict.caller).toBe('sk-…ce');
    expect(verdict.requests.length).toBeGreaterThan(0);
  }
  expect(alice[1]!.advice).toBe(
    'Fix authentication, permission, model or parameters. Do not retry directly.',
  );
}

describe('videotask mock --client-report DIR, tried as a new user', () => {
  it('judges the sloppy client, not the project’s own client, and writes the report on exit', async () => {
    const dir = reportDir();
    const mock = spawnMock('--port', '0', '--speed', '10', '--seed', '20', '--client-report', dir);
    const base = await listening(mock, BANNER_END, 30_000);
    expect(mock.stdout()).toContain(`client report: ${dir} on exit`);

    const own = new VideoTaskClient({ baseUrl: base, apiKey: 'sk-mock-bob' });
    const ownJob = (async () => {
      const clientRequestId = crypto.randomUUID();
      const task = await submitWithRetry((id) => own.submit(KITE, { clientRequestId: id }), {
        clientRequestId,
      });
      // 1 s real is 10 s on this mock's clock: slower than §8's first 5 s, never faster.
      const settings = { initialIntervalMs: 1_000, maxIntervalMs: 3_000, timeoutMs: 60_000 };
      await own.poll(task.id, settings);
      await new Response((await own.content(task.id)).body).arrayBuffer();
    })();
    await sloppyClient(base, () => sleep(200));
    await ownJob;

    const live = (await (await fetch(`${base}/__mock/client-report`)).json()) as ClientReport;
    expectSloppyVerdicts(live);
    expect(live.verdicts.filter((v) => v.user === 'bob')).toEqual([]);
    expect(live.coverage.callers.map((c) => c.user).sort()).toEqual(['alice', 'bob']);

    const { json, summary, junit } = await filesOnExit(mock, dir);
    expectSloppyVerdicts(json);
    expect(summary).toContain('VIOLATION no-resubmission (§3) by sk-…ce (alice)');
    expect(summary).toMatch(/do instead \(§7 "Submission returns 4xx"\): Fix authentication/);
    expect(summary).toContain('Your tests never showed your client:');
    expect(XMLValidator.validate(junit)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(junit) as {
      testsuites: { testsuite: { '@_name': string; '@_failures': string }[] };
    };
    const rules = parsed.testsuites.testsuite.find((s) => s['@_name'] === 'videotask.client-rules');
    expect(rules?.['@_failures']).toBe('2');
  }, 90_000);

  it('gathers the verdicts of one client across --workers 2', async () => {
    const dir = reportDir();
    const mock = spawnMock(
      '--port',
      '0',
      '--workers',
      '2',
      '--clock',
      'manual',
      '--client-report',
      dir,
    );
    const base = await listening(mock, BANNER_END, 30_000);
    // 2 s of the mock's clock per poll: faster than §8, and fewer than 60 polls in a task's life.
    const advance = async () => {
      const body = JSON.stringify({ ms: 2_000 });
      const headers = { 'content-type': 'application/json' };
      await fetch(`${base}/__mock/clock/advance`, { method: 'POST', headers, body });
    };
    const workers = await sloppyClient(base, advance);
    expect(new Set(workers).size).toBe(2);

    const live = (await (await fetch(`${base}/__mock/client-report`)).json()) as ClientReport;
    expectSloppyVerdicts(live);
    const { json } = await filesOnExit(mock, dir);
    expectSloppyVerdicts(json);
  }, 90_000);

  it('judges nothing with --no-client-verdicts, and refuses it with --client-report', async () => {
    const mock = spawnMock('--port', '0', '--clock', 'manual', '--no-client-verdicts');
    const base = await listening(mock, BANNER_END, 30_000);
    await call(base, 'GET', '/v1/models');
    const report = (await (await fetch(`${base}/__mock/client-report`)).json()) as ClientReport;
    expect(report.counts.requests).toBe(0);
    const both = spawnMock('--no-client-verdicts', '--client-report', reportDir());
    expect(await exitCode(both, 20_000)).toBe(2);
    expect(both.stderr()).toContain('--client-report needs the client verdicts');
  }, 60_000);
});
