import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_ARTIFACT_TTL_MS,
  sampleVideo,
  startMockServer,
  type RunningMockServer,
} from '../../mocks/index.ts';
import { expectConformant, expectJsonError, type SeenResponse } from '../helpers/conformance.ts';

const VIDEO = sampleVideo().bytes;
const SIZE = VIDEO.byteLength;
const MAX_BODY = 1024;
const JSON_HEADERS = { 'content-type': 'application/json' };
const AFTER_COMPLETION = 120_000;

let server: RunningMockServer;

beforeAll(async () => {
  server = await startMockServer({
    port: 0,
    clock: { mode: 'manual' },
    seed: 1,
    maxBodyBytes: MAX_BODY,
  });
});
afterAll(() => server.close());

interface Answer extends SeenResponse {
  readonly headers: IncomingHttpHeaders | Headers;
  header(name: string): string | null;
  readonly bytes: Uint8Array;
}

function seenOf(status: number, contentType: string, bytes: Uint8Array): SeenResponse {
  const body: unknown =
    bytes.byteLength === 0
      ? undefined
      : contentType.startsWith('application/json')
        ? JSON.parse(new TextDecoder().decode(bytes))
        : bytes;
  return { status, contentType, body };
}

/** fetch with alice's key unless `key` says otherwise (`null`: no key). */
async function call(
  path: string,
  init: RequestInit & { key?: string | null } = {},
): Promise<Answer> {
  const { key = 'sk-mock-alice', ...rest } = init;
  const headers = new Headers(rest.headers);
  if (key !== null) headers.set('authorization', `Bearer ${key}`);
  const response = await fetch(path.startsWith('http') ? path : `${server.url}${path}`, {
    ...rest,
    headers,
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const seen = seenOf(response.status, response.headers.get('content-type') ?? '', bytes);
  return {
    ...seen,
    headers: response.headers,
    header: (name) => response.headers.get(name),
    bytes,
  };
}

/** node:http, for what fetch will not send as is (raw paths, chunked bodies without a length). */
function raw(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; chunks?: readonly Uint8Array[] } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${server.url}${path}`,
      {
        method,
        agent: false,
        headers: { authorization: 'Bearer sk-mock-alice', ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = new Uint8Array(Buffer.concat(chunks));
          const seen = seenOf(res.statusCode ?? 0, res.headers['content-type'] ?? '', bytes);
          resolve({
            ...seen,
            headers: res.headers,
            header: (name) => String(res.headers[name.toLowerCase()] ?? '') || null,
            bytes,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    for (const chunk of options.chunks ?? []) req.write(chunk);
    req.end();
  });
}

/** Writes raw bytes on a TCP connection and returns everything the server sends back before closing. */
function rawSocket(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

const submitBody = (body: unknown) => ({
  method: 'POST',
  headers: JSON_HEADERS,
  body: JSON.stringify(body),
});

async function submit(): Promise<string> {
  const answer = await call(
    '/v1/video/generations',
    submitBody({ model: 'video-pro-v1', prompt: 'a red kite' }),
  );
  expectConformant('createVideoGeneration', answer);
  expect(answer.status).toBe(200);
  return (answer.body as { id: string }).id;
}

async function completedTask(): Promise<{ id: string; url: string }> {
  const id = await submit();
  server.service.clock.advance(AFTER_COMPLETION);
  const task = await call(`/v1/videos/${id}`);
  expectConformant('getVideo', task);
  const body = task.body as { status: string; metadata: { url: string } };
  expect(body.status).toBe('completed');
  return { id, url: body.metadata.url };
}

describe('startMockServer over HTTP', () => {
  it('carries a task from submission to download, in both query forms', async () => {
    const id = await submit();

    const queued = await call(`/v1/videos/${id}`);
    expectConformant('getVideo', queued);
    expect(queued.body).toMatchObject({
      id,
      task_id: id,
      object: 'video',
      model: 'video-pro-v1',
      status: 'queued',
      progress: 0,
    });
    expect(queued.header('x-oneapi-request-id')).toMatch(/^\d+$/);
    const wrapper = await call(`/v1/video/generations/${id}`);
    expectConformant('getVideoGeneration', wrapper);
    expect(wrapper.body).toMatchObject({
      code: 'success',
      message: '',
      data: { task_id: id, status: 'QUEUED', progress: '0%' },
    });

    const early = await call(`/v1/videos/${id}/content`);
    expectConformant('getVideoContent', early);
    expectJsonError(early, 400, /not completed/);

    server.service.clock.advance(AFTER_COMPLETION);

    const done = await call(`/v1/videos/${id}`);
    expectConformant('getVideo', done);
    const task = done.body as {
      status: string;
      progress: number;
      completed_at: number;
      metadata: { url: string };
    };
    expect(task).toMatchObject({ status: 'completed', progress: 100 });
    expect(task.metadata.url.startsWith(`${server.url}/__artifacts/${id}.mp4?`)).toBe(true);
    const doneWrapper = await call(`/v1/video/generations/${id}`);
    expectConformant('getVideoGeneration', doneWrapper);
    expect(doneWrapper.body).toMatchObject({
      data: { status: 'SUCCESS', progress: '100%', result_url: task.metadata.url },
    });

    const content = await call(`/v1/videos/${id}/content`);
    expectConformant('getVideoContent', content);
    expect(content.status).toBe(200);
    expect(content.contentType).toBe('video/mp4');
    expect(new TextDecoder().decode(content.bytes.subarray(4, 8))).toBe('ftyp');
    expect(Number(content.header('content-length'))).toBe(content.bytes.byteLength);
    expect(content.bytes).toEqual(VIDEO);

    const artifact = await call(task.metadata.url, { key: null });
    expect(artifact.status).toBe(200);
    expect(artifact.contentType).toBe('video/mp4');
    expect(artifact.bytes).toEqual(VIDEO);
  });

  it('answers HEAD on content with the headers and no body', async () => {
    const { id } = await completedTask();
    const head = await call(`/v1/videos/${id}/content`, { method: 'HEAD' });
    expectConformant('headVideoContent', head);
    expect(head.status).toBe(200);
    expect(head.contentType).toBe('video/mp4');
    expect(head.header('content-length')).toBe(String(SIZE));
    expect(head.header('accept-ranges')).toBe('bytes');
    expect(head.bytes.byteLength).toBe(0);
  });

  it.each([
    { path: '/v1/models', status: 200 },
    { path: '/v1/videos/task_missing', status: 404 },
    { path: '/v1/videos/task_missing/content', status: 404 },
    { path: '/v1/nothing', status: 404 },
  ])('answers HEAD $path with $status and no body', async ({ path, status }) => {
    const head = await call(path, { method: 'HEAD' });
    expect(head.status).toBe(status);
    expect(head.contentType).toMatch(/^application\/json/);
    expect(head.bytes.byteLength).toBe(0);
  });

  describe('Range on /content', () => {
    let id: string;
    beforeAll(async () => {
      ({ id } = await completedTask());
    });

    it.each([
      { range: 'bytes=0-99', start: 0, end: 99 },
      { range: 'bytes=-16', start: SIZE - 16, end: SIZE - 1 },
      { range: 'bytes=100-', start: 100, end: SIZE - 1 },
    ])('answers $range with 206 and exactly those bytes', async ({ range, start, end }) => {
      const answer = await call(`/v1/videos/${id}/content`, { headers: { range } });
      expectConformant('getVideoContent', answer);
      expect(answer.status).toBe(206);
      expect(answer.header('content-range')).toBe(`bytes ${start}-${end}/${SIZE}`);
      expect(answer.header('content-length')).toBe(String(end - start + 1));
      expect(answer.bytes).toEqual(VIDEO.subarray(start, end + 1));
    });

    it('answers a range starting past the end with 416 JSON and the size', async () => {
      const answer = await call(`/v1/videos/${id}/content`, {
        headers: { range: `bytes=${SIZE}-` },
      });
      expectConformant('getVideoContent', answer);
      expectJsonError(answer, 416, new RegExp(`${SIZE} bytes`));
      expect(answer.header('content-range')).toBe(`bytes */${SIZE}`);
    });

    it.each(['bytes=abc', 'items=0-99', 'bytes=0-9,20-29', 'bytes=50-10'])(
      'ignores the malformed range %s and sends the whole video',
      async (range) => {
        const answer = await call(`/v1/videos/${id}/content`, { headers: { range } });
        expectConformant('getVideoContent', answer);
        expect(answer.status).toBe(200);
        expect(answer.bytes).toEqual(VIDEO);
      },
    );
  });

  describe('temporary result address', () => {
    it('works until its time to live runs out, then answers 410 while /content still works', async () => {
      const { id, url } = await completedTask();
      expect((await call(url, { key: null })).status).toBe(200);

      server.service.clock.advance(DEFAULT_ARTIFACT_TTL_MS);

      const expired = await call(url, { key: null });
      expectJsonError(expired, 410, new RegExp(`/v1/videos/${id}/content`));
      const again = await call(`/v1/videos/${id}`);
      expect((again.body as { metadata: { url: string } }).metadata.url).toBe(url);
      const content = await call(`/v1/videos/${id}/content`);
      expect(content.status).toBe(200);
      expect(content.bytes).toEqual(VIDEO);
    });

    it('refuses a tampered signature with 403 JSON', async () => {
      const { url } = await completedTask();
      const tampered = new URL(url);
      const sig = tampered.searchParams.get('sig')!;
      tampered.searchParams.set('sig', `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`);
      expectJsonError(await call(tampered.href, { key: null }), 403, /signature/);
    });

    it('refuses a later expiry with the original signature', async () => {
      const { url } = await completedTask();
      const extended = new URL(url);
      extended.searchParams.set(
        'expires',
        String(Number(extended.searchParams.get('expires')) + 86_400),
      );
      expectJsonError(await call(extended.href, { key: null }), 403, /signature/);
    });
  });

  describe('ownership', () => {
    let id: string;
    beforeAll(async () => {
      ({ id } = await completedTask());
    });

    it.each([
      { operationId: 'getVideo', path: (t: string) => `/v1/videos/${t}` },
      { operationId: 'getVideoGeneration', path: (t: string) => `/v1/video/generations/${t}` },
      { operationId: 'getVideoContent', path: (t: string) => `/v1/videos/${t}/content` },
    ])(
      'answers bob on alice’s task exactly as on a missing one ($operationId)',
      async ({ operationId, path }) => {
        const missingId = 'task_doesnotexist0000000000';
        const foreign = await call(path(id), { key: 'sk-mock-bob' });
        const missing = await call(path(missingId), { key: 'sk-mock-bob' });
        expectConformant(operationId, foreign);
        expectJsonError(foreign, 404);
        expect(foreign.status).toBe(missing.status);
        expect(JSON.stringify(foreign.body).replaceAll(id, '<id>')).toBe(
          JSON.stringify(missing.body).replaceAll(missingId, '<id>'),
        );
        expect((await call(path(id))).status).toBe(200);
      },
    );
  });

  describe('bad input', () => {
    const big = new Uint8Array(5000).fill(0x20);
    const cases: {
      name: string;
      send: () => Promise<Answer>;
      status: number;
      message?: RegExp;
      operationId?: string;
      check?: (a: Answer) => void;
    }[] = [
      {
        name: 'invalid JSON',
        send: () =>
          call('/v1/video/generations', {
            method: 'POST',
            headers: JSON_HEADERS,
            body: '{"model": "video-pro-v1", ',
          }),
        status: 400,
        message: /not valid JSON/,
        operationId: 'createVideoGeneration',
      },
      {
        name: 'an empty prompt',
        send: () =>
          call('/v1/video/generations', submitBody({ model: 'video-pro-v1', prompt: '' })),
        status: 400,
        message: /prompt/,
        operationId: 'createVideoGeneration',
      },
      {
        name: 'a blank prompt',
        send: () => call('/v1/videos', submitBody({ model: 'video-pro-v1', prompt: '  \n' })),
        status: 400,
        message: /prompt/,
        operationId: 'createVideo',
      },
      {
        name: 'a missing prompt',
        send: () => call('/v1/video/generations', submitBody({ model: 'video-pro-v1' })),
        status: 400,
        message: /prompt/,
        operationId: 'createVideoGeneration',
      },
      {
        name: 'a wrong field type',
        send: () =>
          call(
            '/v1/video/generations',
            submitBody({ model: 'video-pro-v1', prompt: 'a kite', metadata: { duration: 'five' } }),
          ),
        status: 400,
        message: /metadata\.duration/,
        operationId: 'createVideoGeneration',
      },
      {
        name: 'an unknown model',
        send: () =>
          call('/v1/video/generations', submitBody({ model: 'video-nope-v9', prompt: 'a kite' })),
        status: 503,
        message: /video-nope-v9/,
        operationId: 'createVideoGeneration',
      },
      {
        name: 'a model the token may not use',
        send: () =>
          call('/v1/video/generations', {
            ...submitBody({ model: 'video-pro-v1', prompt: 'a kite' }),
            key: 'sk-mock-limited',
          }),
        status: 403,
        message: /video-pro-v1/,
        operationId: 'createVideoGeneration',
      },
      {
        name: 'an exhausted quota',
        send: () =>
          call('/v1/video/generations', {
            ...submitBody({ model: 'video-lite-v1', prompt: 'a kite' }),
            key: 'sk-mock-broke',
          }),
        status: 403,
        message: /quota/,
        operationId: 'createVideoGeneration',
      },
      {
        name: 'the unbound second family',
        send: () =>
          call('/v1/videos', {
            ...submitBody({ model: 'alt-video-v2', prompt: 'a kite' }),
            key: 'sk-mock-vip',
          }),
        status: 400,
        message: /alt-video-v2/,
        operationId: 'createVideo',
      },
      {
        name: 'a missing key',
        send: () =>
          call('/v1/video/generations', {
            ...submitBody({ model: 'video-pro-v1', prompt: 'a kite' }),
            key: null,
          }),
        status: 401,
        message: /Authorization/,
        operationId: 'createVideoGeneration',
      },
      {
        name: 'a multipart body',
        send: () => {
          const form = new FormData();
          form.set('model', 'video-pro-v1');
          form.set('prompt', 'a kite');
          return call('/v1/videos', { method: 'POST', body: form });
        },
        status: 415,
        message: /JSON/,
        operationId: 'createVideo',
      },
      {
        name: 'a body over the size limit',
        send: () =>
          raw('POST', '/v1/video/generations', {
            headers: { ...JSON_HEADERS, 'content-length': String(big.byteLength) },
            chunks: [big],
          }),
        status: 413,
        message: new RegExp(`${MAX_BODY} bytes`),
        operationId: 'createVideoGeneration',
      },
      {
        name: 'a chunked body over the size limit',
        // No content-length and two writes: node:http sends the body chunked.
        send: () =>
          raw('POST', '/v1/video/generations', {
            headers: JSON_HEADERS,
            chunks: [big.subarray(0, 800), big.subarray(800)],
          }),
        status: 413,
        message: new RegExp(`${MAX_BODY} bytes`),
        operationId: 'createVideoGeneration',
      },
      {
        name: 'an unknown route',
        send: () => call('/v1/nothing/here'),
        status: 404,
        message: /No route for GET \/v1\/nothing\/here/,
      },
      {
        name: 'a wrong method',
        send: () => call('/v1/models', { method: 'DELETE' }),
        status: 405,
        message: /DELETE/,
        check: (a) => expect(a.header('allow')).toBe('GET, HEAD'),
      },
      {
        name: 'malformed percent-encoding in the path',
        send: () => raw('GET', '/v1/videos/%E0%A4%A'),
        status: 404,
      },
    ];

    it.each(cases)(
      'refuses $name with a 4xx JSON error and creates no task',
      async ({ send, status, message, operationId, check }) => {
        const before = server.service.store.size;
        const answer = await send();
        // Exact statuses: all 4xx but the unknown model's 503, the gateway's "no available channel" (spec: ModelNotFound).
        expectJsonError(answer, status, message);
        if (operationId !== undefined) expectConformant(operationId, answer);
        check?.(answer);
        expect(server.service.store.size).toBe(before);
        // The server still serves.
        expect((await call('/v1/models')).status).toBe(200);
      },
    );

    it('answers GETs that carry a body and reads the next request on the same connection', async () => {
      const get = (extra: string, body = '') =>
        `GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer sk-mock-alice\r\n${extra}\r\n${body}`;
      const text = await rawSocket(
        get('Content-Length: 5\r\n', 'hello') +
          get('Transfer-Encoding: chunked\r\n', '2\r\n{}\r\n0\r\n\r\n') +
          get('Connection: close\r\n'),
      );
      expect(text.match(/HTTP\/1\.1 \d+/g)).toEqual([
        'HTTP/1.1 200',
        'HTTP/1.1 200',
        'HTTP/1.1 200',
      ]);
    });

    it('answers a malformed request line with JSON 400 and keeps serving', async () => {
      const before = server.service.store.size;
      const text = await rawSocket('GARBAGE\r\n\r\n');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 400 /);
      expect(head).toMatch(/content-type: application\/json/i);
      expect(JSON.parse(body)).toMatchObject({
        error: { message: expect.stringMatching(/Malformed/) as unknown },
      });
      expect(server.service.store.size).toBe(before);
      expect((await call('/v1/models')).status).toBe(200);
    });
  });

  describe('CORS', () => {
    it('allows any origin on an ordinary request', async () => {
      const answer = await call('/v1/models', { headers: { origin: 'http://app.example' } });
      expect(answer.status).toBe(200);
      expect(answer.header('access-control-allow-origin')).toBe('*');
      expect(answer.header('access-control-expose-headers')).toMatch(/x-oneapi-request-id/);
    });

    it('answers a preflight with 204 and the methods and headers a browser client needs', async () => {
      const answer = await call('/v1/video/generations', {
        method: 'OPTIONS',
        key: null,
        headers: {
          origin: 'http://app.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(answer.status).toBe(204);
      expect(answer.header('access-control-allow-origin')).toBe('*');
      expect(answer.header('access-control-allow-methods')).toMatch(/POST/);
      expect(answer.header('access-control-allow-headers')).toMatch(/authorization/);
    });
  });
});
