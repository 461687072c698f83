import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConnectionError,
  RequestTimeoutError,
  VideoTaskClient,
  type VideoTaskClientOptions,
} from '../../src/client/index.ts';
import { downloadContent } from '../../src/node/index.ts';
import { rawServer, type RawServer } from '../helpers/raw-server.ts';
import { SECRET, VIDEO, expectNoKey, rejection, scratchDir } from './client-fixture.ts';

const { path, fresh } = scratchDir();
const half = VIDEO.bytes.subarray(0, VIDEO.bytes.byteLength / 2);
const videoHeaders = {
  'content-type': 'video/mp4',
  'content-length': String(VIDEO.bytes.byteLength),
};
let silent: RawServer;
let breaking: RawServer;
let stalling: RawServer;

beforeAll(async () => {
  silent = await rawServer(() => undefined);
  // Headers and half the bytes, then the socket is destroyed.
  breaking = await rawServer((_req, res) => {
    res.writeHead(200, videoHeaders);
    res.write(half, () => setTimeout(() => res.socket?.destroy(), 20));
  });
  // Headers and half the bytes, then nothing.
  stalling = await rawServer((_req, res) => {
    res.writeHead(200, videoHeaders);
    res.write(half);
  });
});
afterAll(() => Promise.all([silent.close(), breaking.close(), stalling.close()]));

const over = (url: string, options: Partial<VideoTaskClientOptions> = {}) =>
  new VideoTaskClient({ baseUrl: url, apiKey: SECRET, ...options });

describe('VideoTaskClient over real HTTP: a silent, broken or stalled service', () => {
  it.each([
    ['submit', (c: VideoTaskClient) => c.submit({ model: 'video-pro-v1', prompt: 'x' })],
    ['getVideo', (c: VideoTaskClient) => c.getVideo('task_x')],
    ['listModels', (c: VideoTaskClient) => c.listModels()],
    [
      'downloadContent',
      (c: VideoTaskClient) => downloadContent(c, 'task_x', { to: join(path(), 'never.mp4') }),
    ],
  ])('throws RequestTimeoutError when the server never answers (%s)', async (_name, call) => {
    const started = Date.now();
    const error = await rejection(call(over(silent.url, { requestTimeoutMs: 200 })));
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error.message).toMatch(/within 200 ms|for 200 ms/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expectNoKey(error);
  });

  it("rejects with the caller's abort reason, not a timeout", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await rejection(
      over(silent.url, { requestTimeoutMs: 10_000 }).getVideo('task_x', {
        signal: controller.signal,
      }),
    );
    expect(error.name).toBe('AbortError');
    expect(error).toBe(controller.signal.reason);
  });

  it('throws ConnectionError for a closed port', async () => {
    const closed = await rawServer(() => undefined);
    await closed.close();
    const error = await rejection(over(closed.url).getVideo('task_x'));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).cause).toBeDefined();
    expect(error.message).toMatch(/ECONNREFUSED/);
    expectNoKey(error);
  });

  it(
    'throws ConnectionError when the connection breaks ' +
      'mid-download, leaving the target and no temp file',
    async () => {
      const folder = await fresh();
      const target = join(folder, 'kite.mp4');
      await writeFile(target, 'the old video');
      const progress: number[] = [];
      const error = await rejection(
        downloadContent(over(breaking.url), 'task_x', {
          to: target,
          onProgress: (received) => progress.push(received),
        }),
      );
      expect(error).toBeInstanceOf(ConnectionError);
      // How many bytes the client read before the break depends on timing (a stream that errors drops
      // what it queued): the message and the progress agree, and never claim more than was sent.
      const received = Number(
        /connection broke after (\d+) of 6592 bytes/.exec(error.message)?.[1],
      );
      expect(received).toBeLessThanOrEqual(half.byteLength);
      expect(progress.at(-1) ?? 0).toBe(received);
      expect(await readdir(folder)).toEqual(['kite.mp4']);
      expect(await readFile(target, 'utf8')).toBe('the old video');
      expectNoKey(error);
    },
  );

  it('throws RequestTimeoutError when the download stalls, leaving no file', async () => {
    const folder = await fresh();
    const error = await rejection(
      downloadContent(over(stalling.url, { requestTimeoutMs: 200 }), 'task_x', {
        to: join(folder, 'kite.mp4'),
      }),
    );
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error.message).toMatch(/no data .* for 200 ms/);
    expect(await readdir(folder)).toEqual([]);
  });

  it("rejects with the caller's reason when aborted mid-download, leaving no file", async () => {
    const folder = await fresh();
    const controller = new AbortController();
    const error = await rejection(
      downloadContent(over(stalling.url), 'task_x', {
        to: join(folder, 'kite.mp4'),
        signal: controller.signal,
        onProgress: () => controller.abort(new Error('user cancelled')),
      }),
    );
    expect(error.message).toBe('user cancelled');
    expect(await readdir(folder)).toEqual([]);
  });

  it('destroys a stream destination when the connection breaks', async () => {
    const sink = new Writable({ write: (_chunk, _e, cb) => cb() });
    const error = await rejection(downloadContent(over(breaking.url), 'task_x', { to: sink }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(sink.destroyed).toBe(true);
  });
});
