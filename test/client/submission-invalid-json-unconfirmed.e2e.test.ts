import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  SubmissionUnconfirmedError,
  VideoTaskClient,
  submitWithRetry,
} from '../../src/client/index.ts';
import { runVideotask } from '../helpers/cli.ts';
import { rawServer, type RawServer } from '../helpers/raw-server.ts';

// Issue 14 item 7: a submission answered 200 with a body that is not JSON was reported as an
// unexpected answer and not journaled: the task may exist (§7), so it must be recorded as unconfirmed.
let server: RawServer;
let dir: string;
beforeAll(async () => {
  server = await rawServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-oneapi-request-id': '4242' });
    res.end('{"id":"task_abc","status":');
  });
  dir = mkdtempSync(join(tmpdir(), 'videotask-unconfirmed-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

it('submitWithRetry reports a 200 with invalid JSON as unconfirmed, never resubmitting', async () => {
  const client = new VideoTaskClient({ baseUrl: server.url, apiKey: 'sk-mock-alice' });
  let attempts = 0;
  const error = await submitWithRetry(
    (clientRequestId, signal) => {
      attempts++;
      const body = { model: 'video-pro-v1', prompt: 'a kite' };
      return client.submit(body, { clientRequestId, signal });
    },
    { clientRequestId: 'req-1' },
  ).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SubmissionUnconfirmedError);
  expect((error as SubmissionUnconfirmedError).message).toMatch(/not valid JSON/);
  expect(attempts).toBe(1);
});

it('videotask submit journals it as unconfirmed and says so, with the service request ID', async () => {
  const journal = join(dir, 'tasks.jsonl');
  const run = await runVideotask(
    ['submit', '--model', 'video-pro-v1', '--prompt', 'a kite', '--journal', journal],
    { env: { ...process.env, VIDEOTASK_BASE_URL: server.url, VIDEOTASK_API_KEY: 'sk-mock-alice' } },
  );
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(/could not be confirmed .*not valid JSON/);
  expect(run.stderr).toMatch(/Do NOT resubmit blindly .*the service's request ID: 4242/);
  expect(run.stderr).toMatch(/marks client request vt-[\w-]+ as unconfirmed/);
  const entries = readFileSync(journal, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string });
  expect(entries.map((e) => e.type)).toEqual(['submitting', 'unconfirmed']);
});
