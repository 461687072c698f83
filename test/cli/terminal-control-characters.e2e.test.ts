import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { printable } from '../../src/text/printable.ts';
import { runVideotask, type CliRun } from '../helpers/cli.ts';
import { rawServer, type RawServer } from '../helpers/raw-server.ts';

// Issue 14 item 8: task IDs, messages and codes a server or a journal supplied reached the terminal
// raw, so a hostile answer could clear the screen, retitle the window or hide text (ANSI escapes, C1
// controls, bidi overrides).
const HOSTILE_ID = 'task_\u001b]0;pwned\u0007\u001b[2J';
const ACTING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let server: RawServer;
let dir: string;
beforeAll(async () => {
  server = await rawServer((req, res) => {
    if (req.url?.includes('refused')) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ code: 'task\u009b2J', message: 'gone\u001b[31m \u202eevil', data: null }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: HOSTILE_ID,
        object: 'video',
        model: 'video-pro-v1\u001b[8m',
        status: 'failed',
        progress: 100,
        error: { code: 'E\u009b31m', message: 'bad\r\u001b[1A\u001b[2Kall fine \u202etxt.exe' },
      }),
    );
  });
  dir = mkdtempSync(join(tmpdir(), 'videotask-controls-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const videotask = (...args: string[]): Promise<CliRun> =>
  runVideotask(args, {
    env: { ...process.env, VIDEOTASK_BASE_URL: server.url, VIDEOTASK_API_KEY: 'sk-mock-alice' },
  });

it('escapes control characters in every rendering', () => {
  expect(printable(HOSTILE_ID)).toBe('task_\\u001b]0;pwned\\u0007\\u001b[2J');
  expect(printable('a\tb\nc\u202ed\u009b')).toBe('a\tb\nc\\u202ed\\u009b');
  const json = JSON.stringify({ id: 'x\u0085\u2066' });
  expect(JSON.parse(printable(json))).toEqual({ id: 'x\u0085\u2066' });
});

it.each([
  ['status', ['status', 'task_1']],
  ['status --json', ['status', 'task_1', '--json']],
  ['wait', ['wait', 'task_1', '--poll-initial', '0.01']],
  ['a refused status query', ['status', 'task_refused']],
])('%s prints what the server sent with its controls escaped', async (_name, args) => {
  const run = await videotask(...args);
  expect(run.stdout + run.stderr).not.toMatch(ACTING);
  expect(run.stdout + run.stderr).toMatch(/\\u001b|\\u009b/);
});

it('wait --journal prints request IDs from the file with their controls escaped', async () => {
  const journal = join(dir, 'tasks.jsonl');
  const line = {
    type: 'submitting',
    at: '2026-11-22T00:00:01.000Z',
    clientRequestId: 'vt-\u001b[2Jx',
    model: 'video-pro-v1\u009b',
    endpoint: 'generations',
  };
  writeFileSync(journal, `${JSON.stringify(line)}\n`);
  const run = await videotask('wait', '--journal', journal);
  expect(run.code).toBe(4);
  expect(run.stderr).toMatch(/check by hand: Request vt-\\u001b\[2Jx/);
  expect(run.stdout + run.stderr).not.toMatch(ACTING);
});
