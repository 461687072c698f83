import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ResponseTooLargeError, VideoTaskClient } from '../../src/client/index.ts';
import { downloadContent } from '../../src/node/index.ts';
import { runVideotask, type CliRun } from '../helpers/cli.ts';
import { rawServer, writeEndlessly, type RawServer } from '../helpers/raw-server.ts';

// Issue 14 item 9: `download` had no size limit: an endless body filled the disk.
let server: RawServer;
let dir: string;

beforeAll(async () => {
  server = await rawServer((req, res) => {
    if (req.url?.includes('task_announced')) {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '5000000000' });
      res.write(new Uint8Array(1024));
      return;
    }
    res.writeHead(200, { 'content-type': 'video/mp4' });
    writeEndlessly(res, new Uint8Array(64 * 1024));
  });
  dir = mkdtempSync(join(tmpdir(), 'videotask-max-bytes-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const download = (...args: string[]): Promise<CliRun> =>
  runVideotask(['download', ...args], {
    env: { ...process.env, VIDEOTASK_BASE_URL: server.url, VIDEOTASK_API_KEY: 'sk-mock-alice' },
  });

it('stops at --max-bytes with a clear error and leaves no file', async () => {
  const folder = mkdtempSync(join(dir, 'cli-'));
  const run = await download('task_x', '-o', join(folder, 'v.mp4'), '--max-bytes', '1000000');
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/the video is larger than 1000000 bytes, the most this client reads/);
  expect(run.stderr).toMatch(/→ raise --max-bytes if the video really is that large/);
  expect(readdirSync(folder)).toEqual([]);
});

it('refuses an announced size over the limit before writing anything', async () => {
  const folder = mkdtempSync(join(dir, 'announced-'));
  const run = await download('task_announced', '-o', join(folder, 'v.mp4'));
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(
    /the video \(5000000000 bytes announced\) is larger than 2147483648 bytes/,
  );
  expect(readdirSync(folder)).toEqual([]);
});

it('takes maxBytes in the library, for a file or a stream', async () => {
  const client = new VideoTaskClient({ baseUrl: server.url, apiKey: 'sk-mock-alice' });
  const folder = mkdtempSync(join(dir, 'lib-'));
  const error = await downloadContent(client, 'task_x', {
    to: join(folder, 'v.mp4'),
    maxBytes: 200_000,
  }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ResponseTooLargeError);
  expect((error as ResponseTooLargeError).limit).toBe(200_000);
  expect(readdirSync(folder)).toEqual([]);
});

it('refuses a --max-bytes that is not a positive whole number as usage', async () => {
  const run = await download('task_x', '-o', join(dir, 'never.mp4'), '--max-bytes', '1.5');
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/--max-bytes must be an integer/);
});
