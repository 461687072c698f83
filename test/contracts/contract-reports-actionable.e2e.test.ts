import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DOCUMENTED_POLL,
  renderJUnit,
  renderSummary,
  runContract,
  type ContractReport,
  type Har,
} from '../../contracts/index.ts';
import { startMockServer, type RunningMockServer } from '../../mocks/index.ts';
import { maskKey } from '../../src/redaction/redactor.ts';
import { runVideotask } from '../helpers/cli.ts';
import { HAR_1_2 } from '../helpers/har-schema.ts';
import { checkInProcess, FULL_MOCK, FULL_TARGET } from '../contracts/support/in-process.ts';

// Issue 22, "reports a QA engineer can act on". Before: a failure showed a message, the request line
// and a body excerpt cut without a mark, nothing to replay it with or to find it in the deployment's
// logs; the summary showed check IDs without their titles; JUnit counted every coverage cell as a test
// (104 of them, failures twice: once on the check, once per cell), all under one classname, without
// times; the JSON report did not say which tool or shape wrote it; there was no HAR; and the progress
// printed `queued 0%` again on every poll.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const schema = JSON.parse(
  readFileSync(join(ROOT, 'spec/contract-report.schema.json'), 'utf8'),
) as object;
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const validReport = ajv.compile(schema);
const validHar = ajv.compile(HAR_1_2);
const reportErrors = (report: unknown) =>
  validReport(report) ? [] : validReport.errors!.map((e) => `${e.instancePath} ${e.message}`);

let server: RunningMockServer;
let dir: string;
beforeAll(async () => {
  // A real deployment that accepts an empty prompt (§7) and answers the catalog without a key (§5).
  server = await startMockServer({
    port: 0,
    speed: 100,
    defects: ['empty-prompt-accepted', 'auth-skipped'],
  });
  dir = mkdtempSync(join(tmpdir(), 'videotask-actionable-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a curl line as a shell would, with the keys in the environment as the report says. */
function replay(curl: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      'bash',
      ['-c', curl],
      { env: { ...process.env, VIDEOTASK_API_KEY: 'sk-mock-alice' }, timeout: 10_000 },
      (error, stdout) => (error === null ? resolve(stdout) : reject(new Error(error.message))),
    ),
  );
}

describe('every failure carries a reproduction', () => {
  let report: ContractReport;
  let har: Har | undefined;
  beforeAll(async () => {
    report = await runContract(
      {
        baseUrl: server.url,
        apiKey: 'sk-mock-alice',
        model: 'video-pro-v1',
        tier: 'lifecycle',
        // The refusal probes leave a lifecycle task's share (issue 31 item 4): one more for them.
        budget: 2,
        strict: false,
        poll: { ...DOCUMENTED_POLL, initialIntervalMs: 50, maxIntervalMs: 100 },
        requestTimeoutMs: 10_000,
      },
      { onTraffic: (traffic) => (har = traffic) },
    );
  });

  it('a POST: the curl line sends it again, and the deployment answers as it did', async () => {
    const result = report.results.find((r) => r.id === 'input.empty-prompt')!;
    expect(result.outcome).toBe('fail');
    expect(result.expected).toBe(
      'an empty prompt is invalid (submission answers 4xx and creates no task) (documented §7)',
    );
    const evidence = result.violations[0]!.evidence!;
    expect(evidence.curl).toMatch(
      new RegExp(
        String.raw`^curl -sS -i -X POST '${server.url}/v1/video/generations' ` +
          String.raw`-H "Authorization: Bearer \$VIDEOTASK_API_KEY" -H 'Accept: [^']+' ` +
          String.raw`-H 'Content-Type: application/json' -H 'X-Request-Id: videotask-contract-[0-9a-f-]+' ` +
          String.raw`--data-raw '\{"model":"video-pro-v1","prompt":"","metadata":\{"duration":5\}\}'$`,
      ),
    );
    expect(evidence.serviceRequestId).toMatch(/^X-Oneapi-Request-Id: \d{22}$/);
    expect(evidence).not.toHaveProperty('requestId'); // the 1.1 name, gone in 2.0.0
    expect(evidence.actual).toMatch(/^HTTP 200 · application\/json[^·]* · \d+ bytes · \d+ ms$/);
    const answer = await replay(evidence.curl!);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer).toMatch(/"status":"queued"/);
  });

  it('a GET without a key: the curl line sends none, and is answered 200 again', async () => {
    const result = report.results.find((r) => r.id === 'auth.required')!;
    const keyless = result.violations.find((v) => v.evidence?.cell?.caller === 'none')!;
    expect(keyless.evidence!.curl).toBe(
      `curl -sS -i -L '${server.url}/v1/models' -H 'Accept: application/json, video/*;q=0.9, */*;q=0.1'`,
    );
    expect(await replay(keyless.evidence!.curl!)).toMatch(/^HTTP\/1\.1 200 OK/);
  });

  it('the summary shows expected and actual, the request ID, the excerpt and the curl line', () => {
    const summary = renderSummary(report);
    expect(summary).toMatch(
      /^FAIL {2}input\.empty-prompt +documented §7 +an empty or blank prompt is rejected/m,
    );
    expect(summary).toMatch(/^ {6}expected: an empty prompt is invalid/m);
    expect(summary).toMatch(/^ {8}actual: HTTP 200 · application\/json/m);
    expect(summary).toMatch(/^ {8}request ID: X-Oneapi-Request-Id: \d+$/m);
    expect(summary).toMatch(/^ {8}excerpt: \{"id":"task_/m);
    expect(summary).toMatch(/^ {8}reproduce: curl -sS -i -X POST /m);
    // Each check with its title, passing ones too.
    expect(summary).toMatch(
      /^PASS {2}unknown-task\.error +documented §5 +an unknown task ID gets an error on every route/m,
    );
    expect(summary).not.toContain('sk-mock-alice');
  });

  it('the evidence names its entry of the HAR', () => {
    const evidence = report.results.find((r) => r.id === 'input.empty-prompt')!.violations[0]!
      .evidence!;
    const entry = har!.log.entries[evidence.exchange!]!;
    expect(entry.request.method).toBe('POST');
    expect(entry.request.url).toBe(`${server.url}/v1/video/generations`);
    expect(entry.request.postData?.text).toContain('"prompt":""');
    expect(entry.response.status).toBe(200);
  });

  it('the JSON report says which tool and shape wrote it, and validates against the shipped schema', () => {
    expect(report.tool).toEqual({ name: 'videotask', version: expect.any(String) as unknown });
    expect(report.schemaVersion).toBe('2.0.0');
    expect(reportErrors(report)).toEqual([]);
  });
});

it('an excerpt cut short ends in an ellipsis', async () => {
  const { report } = await checkInProcess({ defects: ['wrapper-disagrees'] }, { strict: true });
  const result = report.results.find((r) => r.id === 'forms.agree')!;
  const excerpt = result.violations[0]!.evidence!.excerpt!;
  expect(excerpt).toHaveLength(201);
  expect(excerpt.endsWith('…')).toBe(true);
});

describe('JUnit as CI dashboards read it', () => {
  it('one test case per check, by area, with times; the coverage as properties, not tests', async () => {
    const { report } = await checkInProcess(
      { ...FULL_MOCK, defects: ['content-before-completion'] },
      FULL_TARGET,
    );
    const xml = renderJUnit(report);
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
      xml,
    ) as {
      testsuites: Record<string, string> & {
        testsuite: Record<string, string> & {
          properties: { property: { name: string; value: string }[] };
          testcase: (Record<string, string> & { failure?: unknown; skipped?: unknown })[];
        };
      };
    };
    const { testsuites } = parsed;
    const suite = testsuites.testsuite;
    const cases = suite.testcase;
    const failing = report.results.filter((r) => r.outcome === 'fail').length;
    expect(failing).toBeGreaterThan(0);
    for (const counts of [testsuites, suite]) {
      expect(Number(counts['tests'])).toBe(report.results.length);
      expect(Number(counts['failures'])).toBe(failing);
      expect(Number(counts['skipped'])).toBe(report.counts.skip);
    }
    expect(cases).toHaveLength(report.results.length);
    expect(cases.filter((c) => c.failure !== undefined)).toHaveLength(failing);
    const areas = new Set(cases.map((c) => c['classname']));
    expect([...areas].sort()).toEqual(
      [
        'auth',
        'body',
        'catalog',
        'client',
        'content',
        'errors',
        'forms',
        'input',
        'native',
        'owner',
        'rate-limit',
        'sequence',
        'submission',
        'task',
        'unknown-task',
        'wrapper',
      ].map((area) => `videotask.contract.${area}`),
    );
    for (const c of cases) expect(c['time']).toMatch(/^\d+\.\d{3}$/);
    expect(cases.some((c) => Number(c['time']) > 0)).toBe(true);
    const content = cases.find((c) => c['name']!.startsWith('content.before-completion: '))!;
    expect(content['classname']).toBe('videotask.contract.content');
    const cells = suite.properties.property.filter((p) => p.name.startsWith('coverage: '));
    expect(cells).toHaveLength(report.coverage.total);
    expect(cells.map((p) => p.value)).toContainEqual(
      expect.stringMatching(/^FAIL: .*content-after-completion/),
    );
    expect(xml).toContain('reproduce: curl -sS -i -L ');
  });
});

describe('--har FILE', () => {
  it('writes the run’s traffic as HAR 1.2, keys masked, readable by its owner only', async () => {
    const file = join(dir, 'traffic', 'contract.har');
    const run = await runVideotask(
      [
        'contract',
        ...['--base-url', server.url, '--api-key', 'sk-mock-alice'],
        ...['--other-api-key', 'sk-mock-bob', '--tier', 'free', '--har', file],
      ],
      { timeoutMs: 60_000 },
    );
    expect(run.stdout).toContain(`wrote ${file}`);
    const text = readFileSync(file, 'utf8');
    const har = JSON.parse(text) as Har;
    expect(validHar(har), JSON.stringify(validHar.errors)).toBe(true);
    expect(har.log.creator.name).toBe('videotask contract');
    expect(har.log.entries.length).toBeGreaterThan(10);
    for (const key of ['sk-mock-alice', 'sk-mock-bob']) expect(text).not.toContain(key);
    const authorizations = har.log.entries.flatMap((e) =>
      e.request.headers.filter((h) => h.name === 'authorization').map((h) => h.value),
    );
    // The run's invalid key is new each run (sk-invalid-<32 hex>): masked like any other.
    const invalid = [...new Set(authorizations)].filter((a) => /^Bearer sk-…[0-9a-f]{4}$/.test(a));
    expect(invalid).toHaveLength(1);
    expect(new Set(authorizations)).toEqual(
      new Set([
        `Bearer ${maskKey('sk-mock-alice')}`,
        `Bearer ${maskKey('sk-mock-bob')}`,
        ...invalid,
      ]),
    );
    expect(text).not.toMatch(/sk-invalid-[0-9a-f]{32}/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses a folder before the run', async () => {
    const run = await runVideotask(['contract', '--har', dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--har .* is a folder: give a file name/);
  });
});

it('prints one progress line per state a task enters, not one per poll', async () => {
  const lines: string[] = [];
  const { report } = await checkInProcess({}, {}, { onProgress: (line) => lines.push(line) });
  expect(report.tasksCreated).toBe(2);
  const byTask = new Map<string, string[]>();
  for (const line of lines) {
    const match = /^(task_\w+) (unknown|queued|in_progress|completed|failed) \d+%$/.exec(line);
    if (match !== null) byTask.set(match[1]!, [...(byTask.get(match[1]!) ?? []), match[2]!]);
  }
  expect(byTask.size).toBe(2);
  for (const states of byTask.values()) {
    expect(states.at(-1)).toBe('completed');
    expect(states.filter((s, i) => s === states[i - 1])).toEqual([]);
  }
});
