import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redactor } from '../../src/redaction/redactor.ts';
import { startHostileServer, type HostileServer } from '../contracts/support/hostile-server.ts';
import { runVideotask } from '../helpers/cli.ts';

// Issue 24 item 8: an answer of 100,000 nested arrays crashed the contract runner (RangeError in the
// code that cut an excerpt from it: no reports, exit 1), and `videotask status --json` alike. Bodies
// nesting deeper than 64 levels are now refused before anything walks them (client and runner), and
// every walk of a body or report (the redacted copy, excerpts) is bounded.
const DEPTH = 100_000;
const DEEP = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
const DEEP_OBJECT = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;
const KEY = 'sk-deep-0123456789abcdef';
const NO_STACK = /RangeError|Maximum call stack|\n\s+at /;

let server: HostileServer;
let dir: string;
beforeAll(async () => {
  server = await startHostileServer((request, response) => {
    const status = (request.url ?? '').includes('refused') ? 400 : 200;
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end((request.url ?? '').includes('object') ? DEEP_OBJECT : DEEP);
  });
  dir = mkdtempSync(join(tmpdir(), 'videotask-deep-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('an answer nested 100,000 levels deep', () => {
  it('is judged by the contract runner, which writes both reports', async () => {
    const run = await runVideotask(
      ['contract', '--base-url', server.url, '--api-key', KEY, '--tier', 'free'].concat([
        '--report-dir',
        dir,
      ]),
      { timeoutMs: 60_000 },
    );
    expect(run.stderr).not.toMatch(NO_STACK);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/FAIL/);
    const report = JSON.parse(readFileSync(join(dir, 'contract-report.json'), 'utf8')) as {
      ok: boolean;
    };
    expect(report.ok).toBe(false);
    expect(existsSync(join(dir, 'contract-junit.xml'))).toBe(true);
  });

  it.each([
    ['status', ['status', 'task_deep']],
    ['status --json', ['status', 'task_deep', '--json']],
    ['status (a deep object)', ['status', 'task_object']],
    ['status (a deep error answer)', ['status', 'task_refused']],
  ])('gets videotask %s to say so, exit 1, without a stack trace', async (_name, args) => {
    const run = await runVideotask(args, {
      env: { ...process.env, VIDEOTASK_BASE_URL: server.url, VIDEOTASK_API_KEY: KEY },
      timeoutMs: 30_000,
    });
    expect(run.stderr).not.toMatch(NO_STACK);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^videotask status: /);
  });

  it('names the depth when it refuses a successful answer', async () => {
    const run = await runVideotask(['status', 'task_deep'], {
      env: { ...process.env, VIDEOTASK_BASE_URL: server.url, VIDEOTASK_API_KEY: KEY },
      timeoutMs: 30_000,
    });
    expect(run.stderr).toMatch(/the answer nests deeper than 64 levels/);
  });

  it('is copied by the redaction down to 64 levels, the rest left out', () => {
    const deep = JSON.parse(DEEP_OBJECT) as unknown;
    const copy = new Redactor([KEY]).redactDeep(deep);
    const text = JSON.stringify(copy);
    expect(text).toContain('[nested deeper than 64 levels: left out]');
    expect(text.length).toBeLessThan(1000);
  });
});
