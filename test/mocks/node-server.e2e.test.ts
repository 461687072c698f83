import { beforeAll, describe, expect, it } from 'vitest';
import { expectConformant, expectJsonError } from '../helpers/conformance.ts';
import {
  AFTER_COMPLETION,
  call,
  completedTask,
  server,
  SIZE,
  submit,
  useNodeServer,
  VIDEO,
} from './node-server/fixture.ts';

useNodeServer();

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
