import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../../src/client/client-types.ts';
import { ResponseTooLargeError, ServerError, VideoTaskClient } from '../../src/client/index.ts';
import { runVideotask } from '../helpers/cli.ts';
import { rawServer, writeEndlessly, type RawServer } from '../helpers/raw-server.ts';

// Issue 14 item 7: the client read a JSON answer to its end, however long: `videotask status` against
// a server streaming an endless JSON body grew to 5 GB (wait, monitor and verify-family share it).
const PAD = new TextEncoder().encode('x'.repeat(64 * 1024));
let server: RawServer;
const sent = { bytes: 0 };

beforeAll(async () => {
  server = await rawServer((req, res) => {
    const status = req.url?.includes('task_error') ? 500 : 200;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.write('{"id":"task_x","status":"queued","pad":"');
    writeEndlessly(res, PAD, sent);
  });
});
afterAll(() => server.close());

it('stops reading an endless JSON answer at 4 MiB with ResponseTooLargeError', async () => {
  const client = new VideoTaskClient({
    baseUrl: server.url,
    apiKey: 'sk-mock-alice',
    requestTimeoutMs: 20_000,
  });
  const started = Date.now();
  sent.bytes = 0;
  const error = await client.getVideo('task_x').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ResponseTooLargeError);
  expect((error as ResponseTooLargeError).limit).toBe(DEFAULT_MAX_RESPONSE_BYTES);
  expect((error as Error).message).toMatch(
    /^Failed to query task_x: the answer is larger than 4194304 bytes/,
  );
  expect(Date.now() - started).toBeLessThan(10_000);
  // What the server got out before the client hung up: the cap plus what the sockets buffer.
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(sent.bytes).toBeLessThan(64 * 1024 * 1024);
});

it('reads only the start of an endless error answer and still throws the typed error', async () => {
  const client = new VideoTaskClient({
    baseUrl: server.url,
    apiKey: 'sk-mock-alice',
    requestTimeoutMs: 20_000,
  });
  const error = await client.getVideo('task_error').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ServerError);
  expect((error as ServerError).status).toBe(500);
});

it('videotask status says the answer is too large and exits 1, instead of growing', async () => {
  sent.bytes = 0;
  const run = await runVideotask(['status', 'task_x'], {
    env: { ...process.env, VIDEOTASK_BASE_URL: server.url, VIDEOTASK_API_KEY: 'sk-mock-alice' },
    timeoutMs: 25_000,
  });
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/larger than 4194304 bytes/);
  expect(run.stderr).toMatch(/→ no answer of the service is that large: check that the base URL/);
  // Issue 36 item 6: the hint's GET /v1/models (cli/service-here.ts) read its endless answer to the
  // end, for its whole 10 s timeout (gigabytes at loopback speed), before the command could exit.
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(sent.bytes).toBeLessThan(64 * 1024 * 1024);
});
