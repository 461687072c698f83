import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { inspect } from 'node:util';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createHandlers,
  createMockService,
  sampleVideo,
  startMockServer,
  type MockService,
  type RunningMockServer,
} from '../../mocks/index.ts';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestTimeoutError,
  ServerError,
  UnexpectedResponseError,
  UnsupportedRequestError,
  VideoTaskClient,
  type VideoTaskClientOptions,
} from '../../src/client/index.ts';

const SECRET = 'sk-secret-1234567890wxyz';
const MASKED = 'sk-…wxyz';
const ORIGIN = 'http://video.test';
const VIDEO = sampleVideo();
const TOKENS = [{ key: SECRET, user: 'alice', group: 'default' }];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'videotask-client-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A fresh empty directory under the test's temp dir. */
async function freshDir(): Promise<string> {
  return mkdtemp(join(dir, 'dl-'));
}

/** Asserts that no rendering of an error shows the key (masked is fine). */
function expectNoKey(error: unknown, key = SECRET): void {
  const e = error as Error & { body?: unknown };
  for (const text of [
    e.message,
    String(e),
    inspect(e, { depth: 10 }),
    e.stack ?? '',
    JSON.stringify(e.body ?? null),
  ])
    expect(text).not.toContain(key);
}

/** The rejection of a promise (fails the test if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('VideoTaskClient in-process (msw)', () => {
  let service: MockService;
  const msw = setupServer();
  const seen: Request[] = [];
  const client = (apiKey = SECRET, options: Partial<VideoTaskClientOptions> = {}) =>
    new VideoTaskClient({ baseUrl: ORIGIN, apiKey, ...options });

  beforeAll(() => {
    service = createMockService({ clock: { mode: 'manual' }, seed: 'client-test', tokens: TOKENS });
    msw.resetHandlers(...createHandlers(service));
    msw.events.on('request:start', ({ request }) => void seen.push(request.clone()));
    msw.listen({ onUnhandledRequest: 'error' });
  });
  afterEach(() => {
    msw.resetHandlers();
    seen.length = 0;
  });
  afterAll(() => msw.close());

  const submitFresh = (key = SECRET) =>
    client(key).submit({ model: 'video-pro-v1', prompt: 'a red kite' });

  it.each([
    ['generations', '/v1/video/generations'],
    ['videos', '/v1/videos'],
  ] as const)('submits a task through the %s endpoint', async (endpoint, path) => {
    const task = await client().submit(
      { model: 'video-lite-v1', prompt: 'a red kite' },
      { endpoint, requestId: `req-${endpoint}` },
    );
    expect(task).toMatchObject({
      object: 'video',
      model: 'video-lite-v1',
      status: 'queued',
      progress: 0,
    });
    expect(task.id).toMatch(/^task_[A-Za-z0-9]{32}$/);
    expect(task.task_id).toBe(task.id);
    expect(seen.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([`POST ${path}`]);
    expect(service.submissionsByRequestId.get(`req-${endpoint}`)).toBe(1);
  });

  it('submits to the generations endpoint by default', async () => {
    await submitFresh();
    expect(new URL(seen[0]!.url).pathname).toBe('/v1/video/generations');
  });

  it('sends the key only in the Authorization header, and JSON', async () => {
    await client(SECRET, { headers: { 'x-team': 'kites', authorization: 'Bearer other' } }).submit(
      { model: 'video-pro-v1', prompt: 'x' },
      { requestId: 'req-h', headers: { 'content-type': 'text/plain' } },
    );
    const request = seen[0]!;
    expect(request.headers.get('authorization')).toBe(`Bearer ${SECRET}`);
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(request.headers.get('x-request-id')).toBe('req-h');
    expect(request.headers.get('x-team')).toBe('kites');
    expect(request.url).not.toContain(SECRET);
    expect(await request.text()).toBe(JSON.stringify({ model: 'video-pro-v1', prompt: 'x' }));
    for (const [name, value] of request.headers)
      if (name !== 'authorization') expect(value).not.toContain(SECRET);
  });

  it('refuses a body that is not a plain object', async () => {
    const form = new FormData();
    await expect(client().submit(form as never)).rejects.toThrow(/JSON only/);
    expect(seen).toEqual([]);
  });

  /** Rewrites the JSON submission as multipart/form-data, as the openai SDK's videos.create sends it. */
  const asForm: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const form = new FormData();
    for (const [name, value] of Object.entries((await request.json()) as Record<string, unknown>))
      form.set(name, String(value));
    const headers = new Headers(request.headers);
    headers.delete('content-type');
    return fetch(request.url, { method: request.method, headers, body: form });
  };

  type Call = (c: VideoTaskClient) => Promise<unknown>;
  type ErrorClass = new (...args: never[]) => ApiError;
  it.each<[string, number, string, ErrorClass, string, RegExp, Call]>([
    [
      'AuthenticationError',
      401,
      'a bad key',
      AuthenticationError,
      'sk-wrong-key-000000',
      /Invalid API key/,
      (c) => c.submit({ model: 'video-pro-v1', prompt: 'x' }),
    ],
    [
      'PermissionDeniedError',
      403,
      'sk-mock-limited with video-pro-v1',
      PermissionDeniedError,
      'sk-mock-limited',
      /no access to model video-pro-v1/,
      (c) => c.submit({ model: 'video-pro-v1', prompt: 'x' }),
    ],
    [
      'BadRequestError',
      400,
      'an empty prompt',
      BadRequestError,
      SECRET,
      /prompt/,
      (c) => c.submit({ model: 'video-pro-v1', prompt: '' }),
    ],
    [
      'ServerError',
      503,
      'an unknown model',
      ServerError,
      SECRET,
      /No available channel for model no-such-model/,
      (c) => c.submit({ model: 'no-such-model', prompt: 'x' }),
    ],
    [
      'RateLimitError',
      429,
      'a rate-limited submission',
      RateLimitError,
      SECRET,
      /rate limit/,
      (c) =>
        c.submit(
          { model: 'video-pro-v1', prompt: 'x' },
          { headers: { 'X-Mock-Scenario': 'rate-limit:3' } },
        ),
    ],
    [
      'NotFoundError',
      404,
      "another user's task",
      NotFoundError,
      SECRET,
      /Failed to query task_\w+: Task task_\w+ not found/,
      async (c) => c.getVideo((await submitFresh('sk-mock-bob')).id),
    ],
    [
      'NotFoundError',
      404,
      "another user's task (wrapper)",
      NotFoundError,
      SECRET,
      /not found/,
      async (c) => c.getWrapper((await submitFresh('sk-mock-bob')).id),
    ],
    [
      'NotFoundError',
      404,
      "another user's video",
      NotFoundError,
      SECRET,
      /not found/,
      async (c) =>
        c.downloadContent((await submitFresh('sk-mock-bob')).id, {
          to: new Writable({ write: (_c, _e, cb) => cb() }),
        }),
    ],
    [
      'UnsupportedRequestError',
      415,
      'a form body',
      UnsupportedRequestError,
      SECRET,
      /accepts JSON only/,
      (c) =>
        new VideoTaskClient({ baseUrl: ORIGIN, apiKey: SECRET, fetch: asForm }).submit({
          model: 'video-pro-v1',
          prompt: 'x',
        }),
    ],
    [
      'AuthenticationError',
      401,
      'a bad key on the catalog',
      AuthenticationError,
      'sk-wrong-key-000000',
      /Failed to list models/,
      (c) => c.listModels(),
    ],
  ])('throws %s (%i) for %s', async (_name, status, _case, type, key, message, call) => {
    const error = await rejection(call(client(key)));
    expect(error).toBeInstanceOf(type);
    expect(error).toBeInstanceOf(ApiError);
    const api = error as ApiError;
    expect(api.status).toBe(status);
    expect(api.message).toMatch(message);
    expect(api.message).toMatch(new RegExp(`^Failed to .*\\(HTTP ${status}`));
    expect(api.body).toBeTypeOf('object');
    expect(api.requestId).toMatch(/^\d{14,}$/);
    expectNoKey(error, key);
  });

  it('reads Retry-After into retryAfterMs', async () => {
    const error = await rejection(
      client().submit(
        { model: 'video-pro-v1', prompt: 'x' },
        { headers: { 'X-Mock-Scenario': 'rate-limit:3' } },
      ),
    );
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(3000);
  });

  it('redacts a key the server echoes back', async () => {
    msw.use(
      http.get('*/v1/models', ({ request }) =>
        HttpResponse.json(
          {
            error: {
              message: `Invalid token ${request.headers.get('authorization')?.slice(7)}`,
              code: 'bad',
            },
          },
          { status: 401 },
        ),
      ),
    );
    const error = await rejection(client().listModels());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toContain(MASKED);
    expect(JSON.stringify((error as ApiError).body)).toContain(MASKED);
    expectNoKey(error);
  });

  it('never shows the key in String, util.inspect or JSON of the client', () => {
    const c = client();
    for (const text of [
      String(c),
      `${c}`,
      inspect(c),
      inspect(c, { showHidden: true, depth: 10 }),
      JSON.stringify(c),
      JSON.stringify({ c }),
    ]) {
      expect(text).not.toContain(SECRET);
      expect(text).toContain(MASKED);
    }
  });

  it('follows a task through both query forms', async () => {
    const c = client();
    const { id } = await submitFresh();
    expect(await c.getVideo(id)).toMatchObject({ id, status: 'queued' });
    expect(await c.getWrapper(id)).toMatchObject({
      code: 'success',
      data: { task_id: id, status: 'QUEUED' },
    });
    service.clock.advance(120_000);
    expect(await c.getVideo(id)).toMatchObject({
      id,
      status: 'completed',
      progress: 100,
      metadata: { url: expect.any(String) },
    });
    expect(await c.getWrapper(id)).toMatchObject({ data: { task_id: id, status: 'SUCCESS' } });
  });

  it('path-encodes task IDs', async () => {
    const error = await rejection(client().getVideo('task_a/../b?c=d#e'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(new URL(seen[0]!.url).pathname).toBe('/v1/videos/task_a%2F..%2Fb%3Fc%3Dd%23e');
  });

  it.each(['', '.', '..'])('refuses the task ID %j without a request', async (id) => {
    await expect(client().getVideo(id)).rejects.toThrow(TypeError);
    expect(seen).toEqual([]);
  });

  it('lists the models the key may use', async () => {
    const { data } = await client().listModels();
    expect(data.map((m) => m.id)).toEqual(
      expect.arrayContaining(['video-pro-v1', 'video-lite-v1']),
    );
  });

  it('throws UnexpectedResponseError for a 200 that is not JSON', async () => {
    msw.use(
      http.get('*/v1/videos/:id', () =>
        HttpResponse.text('<html>login</html>', { headers: { 'content-type': 'text/html' } }),
      ),
    );
    await expect(client().getVideo('task_x')).rejects.toBeInstanceOf(UnexpectedResponseError);
  });

  describe('downloadContent', () => {
    it('downloads a completed video to a file', async () => {
      const { id } = await submitFresh();
      service.clock.advance(120_000);
      const target = join(await freshDir(), 'kite.mp4');
      const progress: [number, number | undefined][] = [];
      const result = await client().downloadContent(id, {
        to: target,
        onProgress: (received, total) => progress.push([received, total]),
      });
      const written = await readFile(target);
      expect(new Uint8Array(written)).toEqual(VIDEO.bytes);
      expect(result).toEqual({
        bytes: VIDEO.bytes.byteLength,
        sha256: VIDEO.sha256,
        contentType: 'video/mp4',
        path: target,
      });
      expect(createHash('sha256').update(written).digest('hex')).toBe(result.sha256);
      expect(progress.at(-1)).toEqual([VIDEO.bytes.byteLength, VIDEO.bytes.byteLength]);
      expect(await readdir(join(target, '..'))).toEqual(['kite.mp4']);
    });

    it('follows a redirect to the temporary address', async () => {
      const redirecting = createMockService({
        clock: { mode: 'manual' },
        seed: 'redirect',
        tokens: TOKENS,
        contentRedirect: true,
      });
      msw.use(...createHandlers(redirecting));
      const { id } = await submitFresh();
      redirecting.clock.advance(120_000);
      const target = join(await freshDir(), 'kite.mp4');
      const result = await client().downloadContent(id, { to: target });
      expect(result.sha256).toBe(VIDEO.sha256);
      expect(new Uint8Array(await readFile(target))).toEqual(VIDEO.bytes);
      expect(seen.map((r) => new URL(r.url).pathname)).toEqual([
        `/v1/video/generations`,
        `/v1/videos/${id}/content`,
        `/__artifacts/${id}.mp4`,
      ]);
    });

    it('throws BadRequestError before completion and writes no file', async () => {
      const { id } = await submitFresh();
      const folder = await freshDir();
      const error = await rejection(client().downloadContent(id, { to: join(folder, 'kite.mp4') }));
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error.message).toMatch(
        /^Failed to download the video of task_\w+: Task is not completed yet, current status: QUEUED \(HTTP 400, task_not_completed\)$/,
      );
      expect((error as ApiError).requestId).toBeDefined();
      expect(await readdir(folder)).toEqual([]);
    });

    it('keeps an existing target when the download is refused', async () => {
      const { id } = await submitFresh();
      const target = join(await freshDir(), 'kite.mp4');
      await writeFile(target, 'the old video');
      await expect(client().downloadContent(id, { to: target })).rejects.toBeInstanceOf(
        BadRequestError,
      );
      expect(await readFile(target, 'utf8')).toBe('the old video');
      expect(await readdir(join(target, '..'))).toEqual(['kite.mp4']);
    });

    it('throws UnexpectedResponseError for a 200 JSON answer and writes no file', async () => {
      msw.use(
        http.get('*/v1/videos/:id/content', () =>
          HttpResponse.json({ error: { message: 'use the url instead' } }),
        ),
      );
      const folder = await freshDir();
      const error = await rejection(
        client().downloadContent('task_x', { to: join(folder, 'kite.mp4') }),
      );
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      expect(error.message).toMatch(
        /answered 200 with application\/json instead of a video stream \(§4\.4\): use the url instead/,
      );
      expect(await readdir(folder)).toEqual([]);
    });

    it('downloads to a writable stream and ends it', async () => {
      const { id } = await submitFresh();
      service.clock.advance(120_000);
      const chunks: Buffer[] = [];
      let finished = false;
      const sink = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          chunks.push(chunk);
          callback();
        },
        final(callback) {
          finished = true;
          callback();
        },
      });
      const result = await client().downloadContent(id, { to: sink });
      expect(new Uint8Array(Buffer.concat(chunks))).toEqual(VIDEO.bytes);
      expect(result).toEqual({
        bytes: VIDEO.bytes.byteLength,
        sha256: VIDEO.sha256,
        contentType: 'video/mp4',
      });
      expect(finished).toBe(true);
    });

    it("throws the file system's error for a missing directory", async () => {
      const { id } = await submitFresh();
      service.clock.advance(120_000);
      const error = await rejection(
        client().downloadContent(id, { to: join(dir, 'no-such-dir', 'kite.mp4') }),
      );
      expect((error as NodeJS.ErrnoException).code).toBe('ENOENT');
    });

    it('removes the temporary file when onProgress throws', async () => {
      const { id } = await submitFresh();
      service.clock.advance(120_000);
      const folder = await freshDir();
      const error = await rejection(
        client().downloadContent(id, {
          to: join(folder, 'kite.mp4'),
          onProgress: () => {
            throw new Error('stop');
          },
        }),
      );
      expect(error.message).toBe('stop');
      expect(await readdir(folder)).toEqual([]);
    });
  });
});

/** A node:http server on 127.0.0.1 port 0 with a given handler; `close` also drops open connections. */
async function rawServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('VideoTaskClient over real HTTP', () => {
  let mock: RunningMockServer;
  let redirecting: RunningMockServer;
  let silent: Awaited<ReturnType<typeof rawServer>>;
  let breaking: Awaited<ReturnType<typeof rawServer>>;
  let stalling: Awaited<ReturnType<typeof rawServer>>;
  const half = VIDEO.bytes.subarray(0, VIDEO.bytes.byteLength / 2);
  const videoHeaders = {
    'content-type': 'video/mp4',
    'content-length': String(VIDEO.bytes.byteLength),
  };

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
  afterAll(async () => {
    await Promise.all([
      mock.close(),
      redirecting.close(),
      silent.close(),
      breaking.close(),
      stalling.close(),
    ]);
  });

  const over = (url: string, options: Partial<VideoTaskClientOptions> = {}) =>
    new VideoTaskClient({ baseUrl: url, apiKey: SECRET, ...options });

  it('submits, queries and downloads a task', async () => {
    const client = over(mock.url);
    const task = await client.submit(
      { model: 'video-pro-v1', prompt: 'a red kite' },
      { endpoint: 'videos' },
    );
    mock.service.clock.advance(120_000);
    expect(await client.getVideo(task.id)).toMatchObject({ status: 'completed' });
    const target = join(await freshDir(), 'kite.mp4');
    const result = await client.downloadContent(task.id, { to: target });
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
    const result = await client.downloadContent(task.id, { to });
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
    expect((error as ApiError).requestId).toMatch(/^\d+$/);
    expect(error.message).toMatch(/prompt/);
    expectNoKey(error);
  });

  it.each([
    ['submit', (c: VideoTaskClient) => c.submit({ model: 'video-pro-v1', prompt: 'x' })],
    ['getVideo', (c: VideoTaskClient) => c.getVideo('task_x')],
    ['listModels', (c: VideoTaskClient) => c.listModels()],
    [
      'downloadContent',
      (c: VideoTaskClient) => c.downloadContent('task_x', { to: join(dir, 'never.mp4') }),
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

  it('throws ConnectionError when the connection breaks mid-download, leaving the target and no temp file', async () => {
    const folder = await freshDir();
    const target = join(folder, 'kite.mp4');
    await writeFile(target, 'the old video');
    const progress: number[] = [];
    const error = await rejection(
      over(breaking.url).downloadContent('task_x', {
        to: target,
        onProgress: (received) => progress.push(received),
      }),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toMatch(/connection broke after \d+ of 6592 bytes/);
    expect(progress.at(-1)).toBe(half.byteLength);
    expect(await readdir(folder)).toEqual(['kite.mp4']);
    expect(await readFile(target, 'utf8')).toBe('the old video');
    expectNoKey(error);
  });

  it('throws RequestTimeoutError when the download stalls, leaving no file', async () => {
    const folder = await freshDir();
    const error = await rejection(
      over(stalling.url, { requestTimeoutMs: 200 }).downloadContent('task_x', {
        to: join(folder, 'kite.mp4'),
      }),
    );
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error.message).toMatch(/no data .* for 200 ms/);
    expect(await readdir(folder)).toEqual([]);
  });

  it("rejects with the caller's reason when aborted mid-download, leaving no file", async () => {
    const folder = await freshDir();
    const controller = new AbortController();
    const error = await rejection(
      over(stalling.url).downloadContent('task_x', {
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
    const error = await rejection(over(breaking.url).downloadContent('task_x', { to: sink }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(sink.destroyed).toBe(true);
  });
});

describe('VideoTaskClient options', () => {
  it.each([
    ['', /baseUrl is required/],
    ['video.example.com', /is not a URL/],
    ['ftp://video.example.com', /http or https URL, got ftp/],
    ['https://user:pass@video.example.com', /must not contain credentials/],
    ['https://video.example.com/v1', /ends in \/v1/],
    ['https://video.example.com/?x=1', /query or fragment/],
  ])('refuses the baseUrl %j', (baseUrl, message) => {
    expect(() => new VideoTaskClient({ baseUrl, apiKey: SECRET })).toThrow(message);
  });

  it('keeps a path prefix and drops the trailing slash', () => {
    expect(
      new VideoTaskClient({ baseUrl: 'https://gw.example.com/video/', apiKey: SECRET }).baseUrl,
    ).toBe('https://gw.example.com/video');
  });

  it.each([
    ['', /apiKey is required/],
    [`${SECRET}\n`, /contains whitespace/],
    [`Bearer ${SECRET}`, /contains whitespace/],
  ])('refuses the apiKey %#, without showing it', (apiKey, message) => {
    let error: unknown;
    try {
      new VideoTaskClient({ baseUrl: ORIGIN, apiKey });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(message);
    expectNoKey(error);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses requestTimeoutMs %s',
    (requestTimeoutMs) => {
      expect(
        () => new VideoTaskClient({ baseUrl: ORIGIN, apiKey: SECRET, requestTimeoutMs }),
      ).toThrow(/requestTimeoutMs/);
    },
  );
});
