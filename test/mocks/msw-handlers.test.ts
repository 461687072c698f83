import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHandlers, createMockService } from '../../mocks/index.ts';
import { sampleVideo } from '../../mocks/core/http/media.ts';
import {
  expectConformant,
  expectJsonError,
  seenBytes,
  type SeenResponse,
} from '../helpers/conformance.ts';

const BASE = 'http://api.video.test';
const ALICE = { authorization: 'Bearer sk-mock-alice' };
const VIDEO = sampleVideo().bytes;

const service = createMockService({ clock: { mode: 'manual' }, seed: 1 });
const server = setupServer(...createHandlers(service));

/** A fetch response as a test sees it (JSON parsed, bytes otherwise). */
async function seenFetch(response: Response): Promise<SeenResponse> {
  const contentType = response.headers.get('content-type') ?? '';
  const bytes = new Uint8Array(await response.arrayBuffer());
  return seenBytes(response.status, contentType, bytes);
}

async function call(
  path: string,
  init: RequestInit = {},
): Promise<{ response: Response; seen: SeenResponse }> {
  const response = await fetch(`${BASE}${path}`, {
    ...init,
    headers: { ...ALICE, ...(init.headers as Record<string, string> | undefined) },
  });
  return { response, seen: await seenFetch(response.clone()) };
}

async function submit(): Promise<string> {
  const { seen } = await call('/v1/video/generations', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'video-pro-v1', prompt: 'a red kite' }),
  });
  expectConformant('createVideoGeneration', seen);
  expect(seen.status).toBe(200);
  return (seen.body as { id: string }).id;
}

function expectMp4(bytes: Uint8Array): void {
  expect(new TextDecoder().decode(bytes.subarray(4, 8))).toBe('ftyp');
}

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('msw handlers over a shared service', () => {
  it('carries a task from submission to download, in both query forms', async () => {
    const id = await submit();

    const queued = await call(`/v1/videos/${id}`);
    expectConformant('getVideo', queued.seen);
    expect(queued.seen.body).toMatchObject({ id, status: 'queued', progress: 0 });
    const wrapper = await call(`/v1/video/generations/${id}`);
    expectConformant('getVideoGeneration', wrapper.seen);
    expect(wrapper.seen.body).toMatchObject({
      code: 'success',
      data: { task_id: id, status: 'QUEUED' },
    });

    const early = await call(`/v1/videos/${id}/content`);
    expectConformant('getVideoContent', early.seen);
    expectJsonError(early.seen, 400, /not completed/);

    service.clock.advance(120_000);

    const done = await call(`/v1/videos/${id}`);
    expectConformant('getVideo', done.seen);
    const task = done.seen.body as {
      status: string;
      metadata: { url: string };
      completed_at: number;
    };
    expect(task.status).toBe('completed');
    expect(task.metadata.url.startsWith(`${BASE}/__artifacts/${id}.mp4?`)).toBe(true);
    const doneWrapper = await call(`/v1/video/generations/${id}`);
    expectConformant('getVideoGeneration', doneWrapper.seen);
    expect(doneWrapper.seen.body).toMatchObject({
      data: { status: 'SUCCESS', progress: '100%', result_url: task.metadata.url },
    });

    const content = await call(`/v1/videos/${id}/content`);
    expectConformant('getVideoContent', content.seen);
    expect(content.response.status).toBe(200);
    expect(content.response.headers.get('content-type')).toBe('video/mp4');
    const bytes = content.seen.body as Uint8Array;
    expectMp4(bytes);
    expect(Number(content.response.headers.get('content-length'))).toBe(bytes.byteLength);
    expect(bytes).toEqual(VIDEO);

    const artifact = await fetch(task.metadata.url);
    expect(artifact.status).toBe(200);
    expect(artifact.headers.get('content-type')).toBe('video/mp4');
    expect(new Uint8Array(await artifact.arrayBuffer())).toEqual(VIDEO);
  });

  it('answers HEAD on content with the headers and no body', async () => {
    const id = await submit();
    service.clock.advance(120_000);
    const response = await fetch(`${BASE}/v1/videos/${id}/content`, {
      method: 'HEAD',
      headers: ALICE,
    });
    expectConformant('headVideoContent', await seenFetch(response.clone()));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(Number(response.headers.get('content-length'))).toBe(VIDEO.byteLength);
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers a Range request with 206 and the slice', async () => {
    const id = await submit();
    service.clock.advance(120_000);
    const { response, seen } = await call(`/v1/videos/${id}/content`, {
      headers: { range: 'bytes=0-99' },
    });
    expectConformant('getVideoContent', seen);
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 0-99/${VIDEO.byteLength}`);
    expect(seen.body).toEqual(VIDEO.subarray(0, 100));
  });

  it('returns 404 JSON for another user’s task', async () => {
    const id = await submit();
    service.clock.advance(120_000);
    const { seen } = await call(`/v1/videos/${id}/content`, {
      headers: { authorization: 'Bearer sk-mock-bob' },
    });
    expectConformant('getVideoContent', seen);
    expectJsonError(seen, 404);
  });

  it('leaves a /v1 path the service does not declare to onUnhandledRequest (another API may own it)', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(call('/v1/nothing/here')).rejects.toThrow(/Cannot bypass a request/);
    expect(printed.mock.calls.flat().join(' ')).toMatch(
      /GET http:\/\/api\.video\.test\/v1\/nothing\/here/,
    );
    printed.mockRestore();
  });

  it('answers a path the service declares, asked with another method, with JSON 405', async () => {
    const { response, seen } = await call('/v1/models', { method: 'DELETE' });
    expectJsonError(seen, 405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers malformed percent-encoding in a task ID with the service’s JSON 404, as over HTTP', async () => {
    const before = service.store.size;
    for (const path of [
      '/v1/videos/%E0%A4%A',
      '/v1/video/generations/%E0%A4%A',
      '/v1/videos/%E0%A4%A/content',
    ]) {
      const { seen } = await call(path);
      expectJsonError(seen, 404, /No route for GET/);
    }
    expect(service.store.size).toBe(before);
  });

  it.each([
    { path: '/v1/models', status: 200 },
    { path: '/v1/videos/task_missing', status: 404 },
    { path: '/__mock/nothing', status: 404 },
  ])('answers HEAD $path with $status and no body, as over HTTP', async ({ path, status }) => {
    const response = await fetch(`${BASE}${path}`, { method: 'HEAD', headers: ALICE });
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers a missing key with JSON 401', async () => {
    const response = await fetch(`${BASE}/v1/models`);
    const seen = await seenFetch(response);
    expectConformant('listModels', seen);
    expectJsonError(seen, 401, /Authorization: Bearer/);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('lets a test override one route and restores it on reset', async () => {
    server.use(
      http.get('*/v1/models', () =>
        HttpResponse.json(
          { error: { message: 'overloaded', type: 'server_error', code: 'busy' } },
          { status: 503 },
        ),
      ),
    );
    const overridden = await call('/v1/models');
    expectJsonError(overridden.seen, 503, /overloaded/);
    const untouched = await call('/v1/videos/task_missing');
    expectJsonError(untouched.seen, 404);

    server.resetHandlers();
    const restored = await call('/v1/models');
    expectConformant('listModels', restored.seen);
    expect(restored.seen.status).toBe(200);
    expect((restored.seen.body as { data: { id: string }[] }).data.map((m) => m.id)).toEqual([
      'video-pro-v1',
      'video-lite-v1',
    ]);
  });
});

describe('msw handlers with contentRedirect', () => {
  it('answers /content with a 302 that fetch follows to the video', async () => {
    const redirecting = createMockService({
      clock: { mode: 'manual' },
      seed: 2,
      contentRedirect: true,
    });
    server.use(...createHandlers(redirecting));
    const id = await submit();
    expect(redirecting.store.get(id)).toBeDefined();
    redirecting.clock.advance(120_000);

    const manual = await fetch(`${BASE}/v1/videos/${id}/content`, {
      headers: ALICE,
      redirect: 'manual',
    });
    expectConformant('getVideoContent', await seenFetch(manual.clone()));
    expect(manual.status).toBe(302);
    expect(manual.headers.get('location')).toMatch(
      new RegExp(`^${BASE}/__artifacts/${id}\\.mp4\\?expires=\\d+&sig=[0-9a-f]+$`),
    );

    const followed = await fetch(`${BASE}/v1/videos/${id}/content`, { headers: ALICE });
    expect(followed.status).toBe(200);
    expect(followed.redirected).toBe(true);
    expect(followed.headers.get('content-type')).toBe('video/mp4');
    const bytes = new Uint8Array(await followed.arrayBuffer());
    expectMp4(bytes);
    expect(bytes).toEqual(VIDEO);
  });
});
