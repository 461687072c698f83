import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/index.ts';
import {
  BadRequestError,
  VideoTaskClient,
  type ApiError,
  type VideoTaskClientOptions,
} from '../../src/client/index.ts';
import { downloadContent } from '../../src/node/index.ts';
import { SECRET, TOKENS, VIDEO, expectNoKey, rejection, scratchDir } from './client-fixture.ts';

const { fresh } = scratchDir();
let mock: RunningMockServer;
let redirecting: RunningMockServer;

beforeAll(async () => {
  mock = await startMockServer({
    port: 0,
    clock: { mode: 'manual' },
    seed: 'http',
    tokens: TOKENS,
  });
  redirecting = await startMockServer({
    port: 0,
    clock: { mode: 'manual' },
    seed: 'http-redirect',
    tokens: TOKENS,
    contentRedirect: true,
  });
});
afterAll(() => Promise.all([mock.close(), redirecting.close()]));

const over = (url: string, options: Partial<VideoTaskClientOptions> = {}) =>
  new VideoTaskClient({ baseUrl: url, apiKey: SECRET, ...options });

describe('VideoTaskClient over real HTTP', () => {
  it('submits, queries and downloads a task', async () => {
    const client = over(mock.url);
    const task = await client.submit(
      { model: 'video-pro-v1', prompt: 'a red kite' },
      { endpoint: 'videos' },
    );
    mock.service.clock.advance(120_000);
    expect(await client.getVideo(task.id)).toMatchObject({ status: 'completed' });
    const target = join(await fresh(), 'kite.mp4');
    const result = await downloadContent(client, task.id, { to: target });
    expect(result.sha256).toBe(VIDEO.sha256);
    expect(new Uint8Array(await readFile(target))).toEqual(VIDEO.bytes);
  });

  it('follows the content redirect', async () => {
    const client = over(redirecting.url);
    const task = await client.submit({ model: 'video-pro-v1', prompt: 'a red kite' });
    redirecting.service.clock.advance(120_000);
    const sink: Buffer[] = [];
    const to = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        sink.push(chunk);
        callback();
      },
    });
    const result = await downloadContent(client, task.id, { to });
    expect(result).toMatchObject({
      bytes: VIDEO.bytes.byteLength,
      sha256: VIDEO.sha256,
      contentType: 'video/mp4',
    });
    expect(new Uint8Array(Buffer.concat(sink))).toEqual(VIDEO.bytes);
  });

  it('throws a typed error with the request id over HTTP', async () => {
    const error = await rejection(
      over(mock.url, { headers: {} }).submit({ model: 'video-pro-v1', prompt: '   ' }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as ApiError).serviceRequestId).toMatch(/^\d+$/);
    expect(error.message).toMatch(/prompt/);
    expectNoKey(error);
  });
});
