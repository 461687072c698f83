// Issue 34: `videotask proxy` in front of an independent deployment written for the test (support/
// small-deployment.ts, at a base path), with real processes: a careful client through it is judged
// clean on both sides, and the deployment creates exactly the tasks the clients asked for; the
// documented faults injected by prompt tag reach the client and are judged and recorded in both
// reports; streaming, Range, hop-by-hop fields, the control routes' protections, the gateway's 502,
// and the reports written atomically on SIGTERM.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get as httpGet } from 'node:http';
import { connect } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expectControlConformant } from '../helpers/conformance.ts';
import { eventually } from '../helpers/eventually.ts';
import { exchange } from '../helpers/http-exchange.ts';
import { carefulClient, sloppyClient, type ClientRun } from './support/clients.ts';
import {
  startProxyProcess,
  startSmallDeployment,
  stopAll,
  type Started,
} from './support/processes.ts';

const ALICE = 'sk-small-alice-0123456789';
const BOB = 'sk-small-bob-0123456789ab';

interface Report {
  ok: boolean;
  counts: Record<string, number>;
  results: {
    id: string;
    outcome: string;
    basisText: string;
    violations: { message: string; evidence?: { curl?: string } }[];
  }[];
  notes: string[];
  coverage: { observed: number; line: string };
}
interface ClientReport {
  counts: Record<string, number>;
  verdicts: { rule: string; outcome: string; section: string; message: string; caller: string }[];
  coverage: { situations: { id: string; met: boolean }[] };
  proxy: { injected: Record<string, number>; injections: { fault: string }[] };
}

let deployment: Started;
let proxy: Started;
let reportDir: string;
const json = async <T>(url: string, init?: RequestInit): Promise<T> =>
  (await fetch(url, init)).json() as Promise<T>;
const created = async () =>
  (await json<{ created: number }>(`${deployment.url.replace(/\/api$/, '')}/__count`)).created;
const submissions = (runs: readonly ClientRun[]) => runs.reduce((n, r) => n + r.submissions, 0);

beforeAll(async () => {
  reportDir = mkdtempSync(join(tmpdir(), 'videotask-proxy-'));
  deployment = await startSmallDeployment('/api');
  proxy = await startProxyProcess(
    '--upstream',
    deployment.url,
    '--report-dir',
    reportDir,
    '--report-every',
    '1',
    '--unknown-for',
    '2',
    ...['rate-limit', 'lost-answer', 'query-5xx', 'unknown', 'content-redirect'].flatMap((f) => [
      '--inject',
      f,
    ]),
  );
}, 30_000);

afterAll(() => {
  stopAll();
  rmSync(reportDir, { recursive: true, force: true });
});

describe('a conforming deployment and a careful client', () => {
  it('are judged clean on both sides, and the deployment made only the tasks the client asked for', async () => {
    const before = await created();
    const runs = await Promise.all([
      carefulClient(proxy.url, ALICE, 'a lighthouse at dusk'),
      carefulClient(proxy.url, BOB, 'a red kite over hills'),
    ]);
    for (const run of runs) expect(run).toMatchObject({ status: 'completed', downloaded: 200_024 });
    expect((await created()) - before).toBe(submissions(runs));
    const contract = await json<Report>(`${proxy.url}/__proxy/contract-report`);
    const failed = contract.results.filter((r) => r.outcome === 'fail');
    expect(failed, JSON.stringify(failed, null, 1)).toEqual([]);
    expect(contract.counts.pass).toBeGreaterThan(20);
    expect(contract.coverage.observed).toBeGreaterThanOrEqual(3);
    const clients = await json<ClientReport>(`${proxy.url}/__proxy/client-report`);
    const violations = clients.verdicts.filter((v) => v.outcome === 'violation');
    expect(violations, JSON.stringify(violations, null, 1)).toEqual([]);
    expect(JSON.stringify(clients)).not.toContain(ALICE.slice(3, 15));
    // --report-every 1: the reports are on disk while the proxy runs.
    await eventually(
      () => existsSync(join(reportDir, 'client-report.json')),
      'the periodic report write',
    );
  }, 40_000);
});

describe('the documented faults, injected by prompt tag', () => {
  it('reach a careful client, which survives them, and are judged and recorded in both reports', async () => {
    const before = await created();
    const tags = ['rate-limit', 'query-5xx', 'unknown', 'content-redirect'];
    const runs = await Promise.all(
      tags.map((tag) => carefulClient(proxy.url, ALICE, `a harbour [proxy:${tag}]`)),
    );
    for (const run of runs) expect(run).toMatchObject({ status: 'completed', downloaded: 200_024 });
    const lost = await carefulClient(proxy.url, ALICE, 'a storm [proxy:lost-answer]');
    expect(lost.submissions).toBe(1);
    expect(lost.unconfirmed).toBeDefined();
    // The 429 was the proxy's (nothing forwarded); the lost answer's task exists: the client asked for it.
    expect((await created()) - before).toBe(submissions(runs) - 1 + 1);
    const clients = await json<ClientReport>(`${proxy.url}/__proxy/client-report`);
    expect(clients.proxy.injected).toMatchObject({ 'rate-limit': 1, 'lost-answer': 1, unknown: 1 });
    expect(clients.proxy.injected['query-5xx']).toBeGreaterThanOrEqual(1);
    expect(clients.proxy.injected['content-redirect']).toBeGreaterThanOrEqual(1);
    const met = new Set(clients.coverage.situations.filter((s) => s.met).map((s) => s.id));
    for (const s of [
      'submission-429',
      'query-5xx',
      'lost-answer',
      'openai:unknown',
      'content-redirect',
    ])
      expect(met, s).toContain(s);
    const violations = clients.verdicts.filter((v) => v.outcome === 'violation');
    expect(violations, JSON.stringify(violations, null, 1)).toEqual([]);
    const contract = await json<Report>(`${proxy.url}/__proxy/contract-report`);
    expect(contract.results.filter((r) => r.outcome === 'fail')).toEqual([]);
    expect(contract.notes.join('\n')).toMatch(/the proxy injected \d+ fault\(s\): rate-limit ×1/);
  }, 60_000);

  it('a sloppy client resubmitting a lost answer at once is judged, saying the proxy lost it', async () => {
    const before = await created();
    const run = await sloppyClient(proxy.url, BOB, 'a quay [proxy:lost-answer]');
    expect((await created()) - before).toBe(run.submissions);
    const clients = await json<ClientReport>(`${proxy.url}/__proxy/client-report`);
    const bob = clients.verdicts.filter((v) => v.caller === 'sk-…89ab');
    const rules = bob.map((v) => v.rule);
    expect(rules).toEqual(
      expect.arrayContaining([
        'lost-answer-idempotency-records',
        'no-resubmission',
        'stop-polling-when-finished',
      ]),
    );
    const lost = bob.find((v) => v.rule === 'lost-answer-idempotency-records')!;
    expect(lost.section).toBe('§7');
    expect(bob.find((v) => v.rule === 'no-resubmission')).toMatchObject({ outcome: 'violation' });
    expect(lost.message).toMatch(/\[the proxy injected: lost-answer \(§7\) at /);
  }, 40_000);

  it('a sloppy client that does not slow down on an injected unknown is failed by §3, saying so', async () => {
    await sloppyClient(proxy.url, ALICE, 'a lagoon [proxy:unknown]');
    const clients = await json<ClientReport>(`${proxy.url}/__proxy/client-report`);
    const slow = clients.verdicts.find((v) => v.rule === 'unknown-slows-polling')!;
    expect(slow).toMatchObject({ outcome: 'violation', section: '§3', caller: 'sk-…6789' });
    expect(slow.message).toMatch(/\[the proxy injected: unknown \(§3\) at /);
  }, 40_000);
});

describe('forwarding', () => {
  it('keeps the base path, drops hop-by-hop fields both ways, adds Via, and streams Range', async () => {
    const answer = await exchange(`${proxy.url}/__echo?x=1`, {
      headers: {
        connection: 'keep-alive, x-client-private',
        'x-client-private': 'secret',
        'keep-alive': 'timeout=5',
        'x-kept': 'yes',
      },
    });
    const echoed = answer.json as { path: string; headers: string[] };
    expect(echoed.path).toBe('/api/__echo?x=1');
    const sent = echoed.headers.filter((_, i) => i % 2 === 0).map((h) => h.toLowerCase());
    expect(sent).toContain('x-kept');
    expect(sent).not.toContain('x-client-private');
    expect(sent).not.toContain('keep-alive');
    expect(sent).toContain('via');
    expect(answer.headers['x-upstream-private']).toBeUndefined();
    expect(answer.headers['via']).toBe('1.1 videotask-proxy');
    const run = await carefulClient(proxy.url, ALICE, 'a ranged download');
    const part = await fetch(`${proxy.url}/v1/videos/${run.taskId}/content`, {
      headers: { authorization: `Bearer ${ALICE}`, range: 'bytes=4-11' },
    });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).toString('latin1')).toBe('ftypisom');
  }, 40_000);

  it('streams a 32 MiB video, and a download the client breaks off is not held against the deployment', async () => {
    const run = await carefulClient(proxy.url, ALICE, 'a long film');
    expect(run.downloaded).toBe(200_024 + (32 << 20));
    const broken = await new Promise<number>((resolve, reject) => {
      const out = httpGet(`${proxy.url}/v1/videos/${run.taskId}/content`, {
        headers: { authorization: `Bearer ${ALICE}` },
      });
      out.on('response', (res) =>
        res.once('data', (chunk: Buffer) => {
          out.destroy();
          resolve(chunk.length);
        }),
      );
      out.on('error', () => undefined);
      setTimeout(() => reject(new Error('no first chunk')), 10_000).unref();
    });
    expect(broken).toBeGreaterThan(0);
    await eventually(async () => {
      const status = await json<{ forwarded: number }>(`${proxy.url}/__proxy/status`);
      return status.forwarded > 0;
    }, 'the proxy to answer after the broken-off download');
    const contract = await json<Report>(`${proxy.url}/__proxy/contract-report`);
    const length = contract.results.find((r) => r.id === 'content.length-matches')!;
    expect(length.violations, JSON.stringify(length.violations)).toEqual([]);
  }, 40_000);

  it('answers as a gateway when the upstream is down: a 502 in JSON, and keeps serving', async () => {
    const down = await startProxyProcess('--upstream', 'http://127.0.0.1:1/base');
    const answer = await fetch(`${down.url}/v1/models`, {
      headers: { authorization: `Bearer ${ALICE}` },
    });
    expect(answer.status).toBe(502);
    expect(await answer.json()).toMatchObject({ error: { code: 'upstream_unreachable' } });
    expect((await fetch(`${down.url}/__proxy/status`)).status).toBe(200);
    expect(await down.stop()).toBe(0);
  }, 30_000);

  it('survives a silent upstream (504), a broken answer and bad requests, and keeps serving', async () => {
    const impatient = await startProxyProcess(
      '--upstream',
      deployment.url,
      '--upstream-timeout',
      '1',
    );
    const silent = await fetch(`${impatient.url}/__hang`);
    expect(silent.status).toBe(504);
    expect(await silent.json()).toMatchObject({ error: { code: 'upstream_timeout' } });
    await expect(fetch(`${impatient.url}/__break`).then((r) => r.arrayBuffer())).rejects.toThrow();
    const garbage = await rawRequest(impatient.url, 'NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 [^]*"code":"bad_request"/);
    const proxyForm = await rawRequest(
      impatient.url,
      'GET http://elsewhere.example/v1/models HTTP/1.1\r\nHost: x\r\n\r\n',
    );
    expect(proxyForm).toMatch(/^HTTP\/1\.1 400 [^]*must be a path/);
    const status = await json<{ forwarded: number; failures: number }>(
      `${impatient.url}/__proxy/status`,
    );
    expect(status).toMatchObject({ failures: 0 });
    expect(await impatient.stop()).toBe(0);
  }, 30_000);
});

describe('the control routes', () => {
  it("have the mock's protections: Host checked, JSON writes, no CORS", async () => {
    const foreign = await exchange(`${proxy.url}/__proxy/contract-report`, {
      headers: { host: 'evil.example' },
    });
    expect(foreign.status).toBe(403);
    const form = await fetch(`${proxy.url}/__proxy/reports`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
    });
    expect(form.status).toBe(415);
    const page = await exchange(`${proxy.url}/__proxy/client-report`, {
      headers: { origin: 'http://evil.example' },
    });
    expect(page.status).toBe(403);
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await exchange(`${proxy.url}/__proxy/reports`, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect((await fetch(`${proxy.url}/__proxy/nothing`)).status).toBe(404);
    const written = await fetch(`${proxy.url}/__proxy/reports`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(written.status).toBe(200);
  });
});

describe('stopping', () => {
  it('writes both reports to --report-dir on SIGTERM, whole, owner-only, with no key, and exits 0', async () => {
    expect(await proxy.stop('SIGTERM')).toBe(0);
    const files = readdirSync(reportDir).sort();
    expect(files).toEqual([
      'client-report.json',
      'client-report.junit.xml',
      'client-report.txt',
      'contract-junit.xml',
      'contract-report.json',
      'proxy-status.json',
    ]);
    const contract = JSON.parse(
      readFileSync(join(reportDir, 'contract-report.json'), 'utf8'),
    ) as Report;
    expect(contract.counts.pass).toBeGreaterThan(0);
    // The contract report in the suite's schema, the client report in the mock's shape.
    const schema = JSON.parse(readFileSync('spec/contract-report.schema.json', 'utf8')) as object;
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const valid = ajv.compile(schema);
    expect(valid(contract), JSON.stringify(valid.errors)).toBe(true);
    const clients: unknown = JSON.parse(
      readFileSync(join(reportDir, 'client-report.json'), 'utf8'),
    );
    expectControlConformant('getMockClientReport', {
      status: 200,
      contentType: 'application/json',
      body: clients,
    });
    for (const file of files) {
      expect(statSync(join(reportDir, file)).mode & 0o777, file).toBe(0o600);
      const text = readFileSync(join(reportDir, file), 'utf8');
      expect(text, file).not.toContain(ALICE.slice(3, 15));
      expect(text, file).not.toContain(BOB.slice(3, 15));
    }
  });
});

/** What a server answers to `text` sent as is over a fresh connection, until it closes it. */
function rawRequest(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(text));
    let answer = '';
    socket.setEncoding('utf8').on('data', (c: string) => (answer += c));
    socket.on('close', () => resolve(answer)).on('error', reject);
  });
}
