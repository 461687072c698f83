import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVideotask, type CliRun } from '../helpers/cli.ts';
import {
  CATALOG,
  sendJson,
  startHostileServer,
  type HostileServer,
} from '../contracts/support/hostile-server.ts';

// Issue 14 item 13: a server whose text held characters XML 1.0 forbids (U+FFFE, U+FFFF, C0 controls,
// lone surrogates) made contract-junit.xml unreadable for CI. They are escaped now, and the report is
// checked by a real XML parser.
const FORBIDDEN = [
  '\u0000',
  '\u0001',
  '\u0008',
  '\u000b',
  '\u000c',
  '\u000e',
  '\u001f',
  '\ufffe',
  '\uffff',
];
const LONE_SURROGATES = ['\\ud800', '\\udfff'];

let server: HostileServer;
let dir: string;
let run: CliRun;
beforeAll(async () => {
  server = await startHostileServer((request, response) => {
    if (request.headers.authorization !== 'Bearer sk-qa-junit-0123456789')
      return sendJson(response, 401, { error: { message: 'Invalid token' } });
    if (request.url === '/v1/models') return sendJson(response, 200, CATALOG);
    const hostile = FORBIDDEN.join('');
    if (request.url?.endsWith('/content')) {
      // Plain text (without the controls that make it read as binary), so they arrive raw in the excerpt.
      response.writeHead(200, { 'content-type': 'text/plain' });
      return response.end('done \u000b\u000c\ufffe\uffff ok');
    }
    // JSON with the characters as they can travel in JSON: raw U+FFFE/U+FFFF, escaped lone surrogates.
    const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    const id = `task_x${hostile.replace(/[\u0000-\u001f]/g, escape)}${LONE_SURROGATES.join('')}`;
    const text = `{"id":"${id}","status":"queued"}`;
    sendJson(response, 200, text);
  });
  dir = mkdtempSync(join(tmpdir(), 'videotask-junit-'));
  run = await runVideotask(
    [
      'contract',
      ...['--base-url', server.url, '--api-key', 'sk-qa-junit-0123456789'],
      ...['--tier', 'free', '--report-dir', dir],
    ],
    { timeoutMs: 60_000 },
  );
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('JUnit over hostile server text', () => {
  it('reports the failures the text came with', () => {
    expect(run.code).toBe(1);
  });

  it('is well-formed XML 1.0 that a real parser reads', () => {
    const xml = readFileSync(join(dir, 'contract-junit.xml'), 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml) as {
      testsuites: { testsuite: { '@_tests': string; testcase: unknown[] } };
    };
    const suite = parsed.testsuites.testsuite;
    expect(suite.testcase).toHaveLength(Number(suite['@_tests']));
    // Independently of the parser: no character XML 1.0 forbids is left.
    expect(xml).not.toMatch(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u);
  });

  it('keeps what the server said, escaped', () => {
    const xml = readFileSync(join(dir, 'contract-junit.xml'), 'utf8');
    expect(xml).toMatch(/\\u000b\\u000c/);
    expect(xml).toMatch(/\\ufffe\\uffff/);
  });
});
