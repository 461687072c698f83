import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVideotask, type CliRun } from '../helpers/cli.ts';
import {
  sendJson,
  startHostileServer,
  type HostileServer,
} from '../contracts/support/hostile-server.ts';

// Issue 14 item 12: the contract CLI masked a key only where it appeared exactly as given. A server
// that echoes it URL-encoded, upper-cased, in base64 or JSON-escaped got it into stdout, the JSON
// report and JUnit. Every output now goes through one redaction that knows those forms.
const KEY = 'sk-Secret+Key/9f8e7d6c5b4a';
const base64 = (text: string) => Buffer.from(text).toString('base64');
const unicodeEscaped = (text: string) =>
  [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
const ECHOES: Record<string, (key: string) => string> = {
  'URL-encoded': (k) => encodeURIComponent(k),
  'URL-encoded twice': (k) => encodeURIComponent(encodeURIComponent(k)),
  'URL-encoded, lower-case hex': (k) => encodeURIComponent(k).toLowerCase(),
  'upper-cased': (k) => k.toUpperCase(),
  'lower-cased': (k) => k.toLowerCase(),
  base64: (k) => base64(k),
  'base64 of the header, URL-safe': (k) =>
    base64(`Bearer ${k}`).replace(/\+/g, '-').replace(/\//g, '_'),
  'JSON \\u-escaped': (k) => unicodeEscaped(k),
};

let server: HostileServer;
let dir: string;
let run: CliRun;
beforeAll(async () => {
  const echoes = Object.values(ECHOES);
  server = await startHostileServer((request, response) => {
    const key = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (key !== KEY)
      return sendJson(response, 401, { error: { message: 'Invalid token', code: '' } });
    // The catalog lists the key's echoes as model IDs; each missing-task probe answers one as a task.
    if (request.url === '/v1/models')
      return sendJson(response, 200, { object: 'list', data: echoes.map((e) => ({ id: e(key) })) });
    const echo = echoes[server.requests.length % echoes.length]!;
    sendJson(response, 200, { id: echo(key), message: `you sent ${echo(key)}` });
  });
  dir = mkdtempSync(join(tmpdir(), 'videotask-echo-'));
  run = await runVideotask(
    ['contract', '--base-url', server.url, '--api-key', KEY, '--tier', 'free', '--report-dir', dir],
    { timeoutMs: 60_000 },
  );
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a server echoing the key in any encoding', () => {
  it('gets the run to report it, failing', () => {
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/FAIL {2}unknown-task\.error/);
  });

  it.each(Object.entries(ECHOES))(
    'never sees the key %s in stdout, stderr, JSON or JUnit',
    (_name, echo) => {
      const outputs = {
        stdout: run.stdout,
        stderr: run.stderr,
        json: readFileSync(join(dir, 'contract-report.json'), 'utf8'),
        junit: readFileSync(join(dir, 'contract-junit.xml'), 'utf8'),
      };
      for (const [where, text] of Object.entries(outputs)) {
        expect(text.toLowerCase(), where).not.toContain(echo(KEY).toLowerCase());
        expect(text, where).not.toContain(KEY);
      }
      expect(outputs.stdout).toContain('sk-…5b4a');
    },
  );

  it('writes both reports readable by their owner only', () => {
    for (const name of ['contract-report.json', 'contract-junit.xml'])
      expect(statSync(join(dir, name)).mode & 0o777, name).toBe(0o600);
  });
});
