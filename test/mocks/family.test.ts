import { describe, expect, it } from 'vitest';
import { expectConformant, expectJsonError } from '../helpers/conformance.ts';
import { coreClient } from '../helpers/core-client.ts';
import { bound, NATIVE, nativeBody, openaiBody, type Native } from '../helpers/second-family.ts';
import type { TaskBody as Task } from '../helpers/task-bodies.ts';

describe('second family, unbound (the document today, §1)', () => {
  it.each(['alt-video-v2', 'alt-video-v2-fast', 'alt-video-v2.5'])(
    '%s: unlisted, and every submission route refuses it',
    (model) => {
      const { call, service } = coreClient();
      expect(JSON.stringify(call('GET', '/v1/models', { key: 'sk-mock-vip' }).body)).not.toContain(
        model,
      );
      for (const path of ['/v1/videos', '/v1/video/generations'])
        expectJsonError(
          call('POST', path, { key: 'sk-mock-vip', body: openaiBody(model) }),
          400,
          /does not exist or you do not have access/,
        );
      expectJsonError(
        call('POST', NATIVE, { key: 'sk-mock-vip', body: nativeBody(model) }),
        503,
        /No available channel/,
      );
      expect(service.store.size).toBe(0);
    },
  );
});

describe('second family, bound (type-61 plugin channel)', () => {
  it('is listed for vip tokens only, and refused to other groups on every route', () => {
    const { call, service } = bound();
    expect(JSON.stringify(call('GET', '/v1/models', { key: 'sk-mock-vip' }).body)).toContain(
      'alt-video-v2.5',
    );
    expect(JSON.stringify(call('GET', '/v1/models', { key: 'sk-mock-alice' }).body)).not.toContain(
      'alt-video',
    );
    expectJsonError(
      call('POST', '/v1/videos', { key: 'sk-mock-alice', body: openaiBody() }),
      503,
      /under group default/,
    );
    const native = call('POST', NATIVE, { key: 'sk-mock-alice', body: nativeBody() });
    expectConformant('createPluginTask', native);
    expectJsonError(native, 403, /may not use model alt-video-v2/);
    expect(service.store.size).toBe(0);
  });

  it(
    'runs a POST /v1/videos task to completion on channel 61, visible on ' +
      'both OpenAI forms and the native path',
    () => {
      const { call, service } = bound();
      const submitted = call('POST', '/v1/videos', {
        key: 'sk-mock-vip',
        body: openaiBody('alt-video-v2', {
          resolution: '1080p',
          content: [{ type: 'image_url', image_url: { url: 'https://images.example.com/a.png' } }],
        }),
      });
      expectConformant('createVideo', submitted);
      const id = (submitted.body as Task).id;
      const native = () => call('GET', `${NATIVE}/${id}`, { key: 'sk-mock-vip' });
      expectConformant('getPluginTask', native());
      expect(native().body).toMatchObject({ id, model: 'alt-video-v2', status: 'queued' });
      service.clock.advance(120_000);
      const done = native();
      expectConformant('getPluginTask', done);
      const video = call('GET', `/v1/videos/${id}`, { key: 'sk-mock-vip' }).body as Task;
      expect(done.body).toMatchObject({
        status: 'succeeded',
        content: { video_url: video.metadata!.url },
      });
      expect((done.body as Native).usage!.total_tokens).toBeGreaterThan(0);
      expect(
        (
          call('GET', `/v1/video/generations/${id}`, { key: 'sk-mock-vip' }).body as {
            data: { platform: string };
          }
        ).data.platform,
      ).toBe('61');
      expect(call('GET', `/v1/videos/${id}/content`, { key: 'sk-mock-vip' }).status).toBe(200);
      expect(call('GET', `/__mock/tasks/${id}`, { key: null }).body).toMatchObject({
        channelType: 61,
        charge: { seconds: 5, quota: 4 },
      });
    },
  );

  it('creates tasks on the native path that the OpenAI form shows, in upstream status words', () => {
    const { call, service } = bound();
    const created = call('POST', NATIVE, {
      key: 'sk-mock-vip',
      body: nativeBody('alt-video-v2-fast'),
      headers: { 'x-mock-scenario': 'fail:ContentPolicyViolation' },
    });
    expectConformant('createPluginTask', created);
    const id = (created.body as { id: string }).id;
    expect(id).toMatch(/^task_[0-9A-Za-z]{32}$/);
    service.clock.advance(9_000);
    expect((call('GET', `${NATIVE}/${id}`, { key: 'sk-mock-vip' }).body as Native).status).toBe(
      'running',
    );
    service.clock.advance(120_000);
    expect(call('GET', `${NATIVE}/${id}`, { key: 'sk-mock-vip' }).body).toMatchObject({
      status: 'failed',
      error: { code: 'ContentPolicyViolation' },
    });
    expect(call('GET', `/v1/videos/${id}`, { key: 'sk-mock-vip' }).body).toMatchObject({
      status: 'failed',
      model: 'alt-video-v2-fast',
      error: { code: 'ContentPolicyViolation' },
    });
    expectJsonError(call('GET', `${NATIVE}/${id}`, { key: 'sk-mock-alice' }), 404, /not found/);
  });

  it('refuses a multipart upload with a clear 415', () => {
    const { call } = bound();
    expectJsonError(
      call('POST', '/v1/videos', {
        key: 'sk-mock-vip',
        raw: '--x\r\n',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
      }),
      415,
      /JSON only/,
    );
  });

  it('keeps tasks in progress working after the family is unbound (§9 step 1), and refuses new ones', () => {
    const { call, service } = bound();
    const id = (call('POST', '/v1/videos', { key: 'sk-mock-vip', body: openaiBody() }).body as Task)
      .id;
    service.clock.advance(10_000);
    call('PUT', '/__mock/family', { key: null, body: { bound: false } });
    service.clock.advance(120_000);
    expect((call('GET', `/v1/videos/${id}`, { key: 'sk-mock-vip' }).body as Task).status).toBe(
      'completed',
    );
    expect((call('GET', `${NATIVE}/${id}`, { key: 'sk-mock-vip' }).body as Native).status).toBe(
      'succeeded',
    );
    expect(call('GET', `/v1/videos/${id}/content`, { key: 'sk-mock-vip' }).status).toBe(200);
    expect(call('POST', '/v1/videos', { key: 'sk-mock-vip', body: openaiBody() }).status).toBe(400);
  });
});
