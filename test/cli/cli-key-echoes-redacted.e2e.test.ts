import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  sendJson,
  startHostileServer,
  type HostileServer,
} from '../contracts/support/hostile-server.ts';
import { runVideotask, type CliRun } from '../helpers/cli.ts';
import { allEchoes, KEY_ECHOES, leaks } from '../helpers/key-echoes.ts';

// Issue 24 item 2: `status`, `submit`, `monitor --once` and `verify-family` printed the API key when a
// server echoed it percent-encoded, in base64, upper-cased or in hex; `verify-family` wrote it into its
// record files, created world-readable. Every line these commands print and every record now goes
// through the project's one redaction (src/redaction), and records are created 0600.
const KEY = 'sk-Rq7vX2mPz9LkT4wYc8NbH3sJ';
const ECHOED = allEchoes(KEY);
const FAILED_TASK = {
  id: 'task_echo',
  object: 'video',
  model: 'video-pro-v1',
  status: 'failed',
  progress: 0,
  created_at: 1_790_000_000,
  error: { code: 'echo', message: `refused key ${ECHOED}` },
};

let server: HostileServer;
let dir: string;
const runs: Record<string, CliRun> = {};

beforeAll(async () => {
  server = await startHostileServer((request, response) => {
    const url = request.url ?? '';
    if (url === '/v1/models')
      return sendJson(response, 200, {
        object: 'list',
        data: [{ id: 'alt-video-v2' }, { id: `echo ${ECHOED}` }],
      });
    if (request.method === 'POST')
      return sendJson(response, 400, { error: { message: `bad key ${ECHOED}`, code: 'echo' } });
    if (url.startsWith('/v1/video/generations/'))
      return sendJson(response, 200, {
        code: 'success',
        data: { task_id: 'task_echo', status: 'FAILURE', fail_reason: ECHOED },
      });
    sendJson(response, 200, FAILED_TASK);
  });
  dir = mkdtempSync(join(tmpdir(), 'videotask-cli-echo-'));
  const env = { ...process.env, VIDEOTASK_BASE_URL: server.url, VIDEOTASK_API_KEY: KEY };
  const commands: Record<string, string[]> = {
    status: ['status', 'task_echo'],
    'status --json': ['status', 'task_echo', '--json'],
    'status --wrapper': ['status', 'task_echo', '--wrapper'],
    submit: ['submit', '--model', 'video-pro-v1', '--prompt', 'a kite'],
    'monitor --once': ['monitor', '--once', '--expect-model', 'alt-video-v2'],
    'verify-family': ['verify-family', '--model', 'alt-video-v2', '--report-dir', dir],
  };
  await Promise.all(
    Object.entries(commands).map(async ([name, args]) => {
      runs[name] = await runVideotask(args, { env, timeoutMs: 60_000 });
    }),
  );
}, 120_000);
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const records = () => readdirSync(dir).filter((name) => /^verification-.*\.(json|md)$/.test(name));

describe('a server echoing the key in any encoding, to the task and admin commands', () => {
  it('gets each command to show what it answered, the key masked', () => {
    expect(runs['status']!.stdout).toMatch(
      /task_echo failed 0% .*error echo: refused key sk-…H3sJ/,
    );
    expect(runs['submit']!.stderr).toMatch(/bad key sk-…H3sJ/);
    expect(runs['monitor --once']!.stdout).toMatch(/OK catalog 2 model\(s\) listed/);
    expect(runs['verify-family']!.code).toBe(1);
    expect(records()).toHaveLength(2);
  });

  it.each(Object.keys(KEY_ECHOES))('never prints or records the key %s', (name) => {
    const echo = KEY_ECHOES[name]!(KEY).toLowerCase();
    for (const [command, run] of Object.entries(runs))
      for (const [stream, text] of [
        ['stdout', run.stdout],
        ['stderr', run.stderr],
      ] as const)
        expect(text.toLowerCase(), `${command} ${stream}`).not.toContain(echo);
    for (const record of records())
      expect(readFileSync(join(dir, record), 'utf8').toLowerCase(), record).not.toContain(echo);
  });

  it('never shows 12 characters of the key in a row, in any output', () => {
    for (const [command, run] of Object.entries(runs))
      expect(leaks(run.stdout + run.stderr, KEY), command).toEqual([]);
    for (const record of records())
      expect(leaks(readFileSync(join(dir, record), 'utf8'), KEY), record).toEqual([]);
  });

  it('writes the verification records readable by their owner only', () => {
    for (const record of records())
      expect(statSync(join(dir, record)).mode & 0o777, record).toBe(0o600);
  });
});
