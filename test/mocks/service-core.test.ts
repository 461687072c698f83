import { describe, expect, it } from 'vitest';
import { TASK_ID_PATTERN } from '../../mocks/core/task-id-codec.ts';
import {
  missingFields,
  requiredFields,
  serviceContract,
  toWrapperStatus,
  type VideoStatus,
} from '../../src/spec/index.ts';
import { expectConformant, expectJsonError } from '../helpers/conformance.ts';
import { coreClient, ORIGIN } from '../helpers/core-client.ts';

const { lifecycle } = serviceContract();
type Task = {
  id: string;
  task_id?: string;
  status: VideoStatus;
  progress: number;
  model: string;
  created_at?: number;
  completed_at?: number;
  metadata?: { url: string };
  error?: { code: string; message: string };
};
type Wrapper = {
  code: string;
  message: string;
  data: {
    task_id: string;
    status: string;
    progress: string;
    result_url?: string;
    fail_reason: string;
    platform: string;
    created_at: number;
    updated_at: number;
  };
};

describe('submission', () => {
  it.each(['createVideoGeneration', 'createVideo'] as const)(
    '%s answers 200 at once with the queued task of §4.1',
    (operationId) => {
      const { call, service } = coreClient();
      const path = operationId === 'createVideo' ? '/v1/videos' : '/v1/video/generations';
      const response = call('POST', path, {
        body: {
          model: 'video-lite-v1',
          prompt: 'waves',
          metadata: { duration: 5, ratio: '16:9', custom_key: 1 },
        },
      });
      expectConformant(operationId, response);
      const task = response.body as Task;
      expect(task).toMatchObject({
        object: 'video',
        model: 'video-lite-v1',
        status: 'queued',
        progress: 0,
        created_at: Math.floor(service.clock.now() / 1000),
      });
      expect(task.id).toMatch(TASK_ID_PATTERN);
      expect(task.task_id).toBe(task.id);
      expect(missingFields(task, lifecycle.presence.onSubmission.fields)).toEqual([]);
      expect(service.store.size).toBe(1);
    },
  );

  it('exposes no identifier but the public task ID (§1)', () => {
    const { call, submit, service } = coreClient({ failureRate: 1 });
    const id = submit();
    service.clock.advance(120_000);
    const bodies = [
      call('GET', `/v1/videos/${id}`),
      call('GET', `/v1/video/generations/${id}`),
    ].map((r) => JSON.stringify(r.body));
    for (const body of bodies) {
      const ids = body.match(/task_[0-9A-Za-z]{32}|cgt-[0-9a-z-]+/g) ?? [];
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.every((m) => m === id)).toBe(true);
    }
  });

  it('reproduces IDs and plans from a seed', () => {
    const a = coreClient({ seed: 42 });
    const b = coreClient({ seed: 42 });
    const c = coreClient({ seed: 43 });
    const ids = [a, b, c].map((client) => client.submit());
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).not.toBe(ids[0]);
    expect(a.service.store.get(ids[0]!)!.plan).toEqual(b.service.store.get(ids[1]!)!.plan);
  });
});

describe('every task endpoint in every state', () => {
  // One task per outcome, sampled at instants chosen from its own plan.
  const states: [
    VideoStatus,
    'succeed' | 'fail',
    (plan: { queueMs: number; runMs: number }) => number,
  ][] = [
    ['queued', 'succeed', (p) => p.queueMs / 2],
    ['in_progress', 'succeed', (p) => p.queueMs + p.runMs / 2],
    ['completed', 'succeed', (p) => p.queueMs + p.runMs + 1],
    ['in_progress', 'fail', (p) => p.queueMs + 1],
    ['failed', 'fail', (p) => p.queueMs + p.runMs + 1],
  ];

  it.each(states)(
    '%s (%s plan): both forms conform, agree, and content answers as §4.4 says',
    (status, outcome, at) => {
      const { call, submit, service } = coreClient({ failureRate: outcome === 'fail' ? 1 : 0 });
      const id = submit();
      service.clock.advance(Math.ceil(at(service.store.get(id)!.plan)));

      const video = call('GET', `/v1/videos/${id}`);
      const wrapper = call('GET', `/v1/video/generations/${id}`);
      expectConformant('getVideo', video);
      expectConformant('getVideoGeneration', wrapper);
      const task = video.body as Task;
      const wrapped = wrapper.body as Wrapper;
      expect(task.status).toBe(status);
      for (const rule of requiredFields(lifecycle, status, 'query'))
        expect(missingFields(task, rule.fields), status).toEqual([]);

      // The same story in both forms (x-lifecycle mapping; rule forms-agree).
      expect(wrapped).toMatchObject({
        code: 'success',
        message: '',
        data: {
          task_id: id,
          status: toWrapperStatus(lifecycle, status),
          progress: `${task.progress}%`,
          platform: '54',
        },
      });
      expect(wrapped.data.result_url).toBe(task.metadata?.url);
      expect(wrapped.data.fail_reason).toBe(task.error?.message ?? '');
      expect(wrapped.data.created_at).toBe(task.created_at);
      if (status === 'completed') expect(task.completed_at).toBe(wrapped.data.updated_at);

      const content = call('GET', `/v1/videos/${id}/content`);
      expectConformant('getVideoContent', content);
      if (status === 'completed') {
        expect(content.status).toBe(200);
        expect(content.contentType).toBe('video/mp4');
        expect(new TextDecoder().decode((content.body as Uint8Array).subarray(4, 8))).toBe('ftyp');
      } else {
        expectJsonError(
          content,
          400,
          new RegExp(`not completed yet, current status: ${toWrapperStatus(lifecycle, status)}`),
        );
      }
    },
  );

  it('gives a completed task a temporary address served by the mock, stable across polls', () => {
    const { call, submit, service } = coreClient();
    const id = submit();
    service.clock.advance(120_000);
    const first = (call('GET', `/v1/videos/${id}`).body as Task).metadata!.url;
    service.clock.advance(60_000);
    expect((call('GET', `/v1/videos/${id}`).body as Task).metadata!.url).toBe(first);
    const url = new URL(first);
    expect(url.origin).toBe(ORIGIN);
    const artifact = call('GET', url.pathname, { key: null, query: url.search.slice(1) });
    expect(artifact.status).toBe(200);
    expect(artifact.contentType).toBe('video/mp4');
  });

  it('redirects content to a fresh temporary address with contentRedirect', () => {
    const { call, submit, service } = coreClient({ contentRedirect: true });
    const id = submit();
    service.clock.advance(120_000);
    const response = call('GET', `/v1/videos/${id}/content`);
    expectConformant('getVideoContent', response);
    expect(response.status).toBe(302);
  });
});

describe('ownership (§5)', () => {
  const routes = [
    ['getVideo', (id: string) => `/v1/videos/${id}`],
    ['getVideoGeneration', (id: string) => `/v1/video/generations/${id}`],
    ['getVideoContent', (id: string) => `/v1/videos/${id}/content`],
  ] as const;
  it.each(routes)(
    "%s answers another user's task exactly as a missing one",
    (operationId, path) => {
      const { call, submit, service } = coreClient();
      const id = submit();
      service.clock.advance(120_000);
      const foreign = call('GET', path(id), { key: 'sk-mock-bob' });
      const missing = call('GET', path('task_00000000000000000000000000000000'), {
        key: 'sk-mock-bob',
      });
      expectConformant(operationId, foreign);
      expect(foreign.status).toBe(missing.status);
      expect(JSON.stringify(foreign.body).replace(id, 'ID')).toBe(
        JSON.stringify(missing.body).replace('task_00000000000000000000000000000000', 'ID'),
      );
      expect(call('GET', path(id)).status).toBe(200);
    },
  );
});

describe('authentication (§5)', () => {
  const endpoints = [
    ['createVideoGeneration', 'POST', '/v1/video/generations'],
    ['createVideo', 'POST', '/v1/videos'],
    ['getVideo', 'GET', '/v1/videos/task_x'],
    ['getVideoGeneration', 'GET', '/v1/video/generations/task_x'],
    ['getVideoContent', 'GET', '/v1/videos/task_x/content'],
    ['listModels', 'GET', '/v1/models'],
    ['createPluginTask', 'POST', '/alt-video/api/v3/contents/generations/tasks'],
    ['getPluginTask', 'GET', '/alt-video/api/v3/contents/generations/tasks/task_x'],
  ] as const;
  it.each(endpoints)(
    '%s refuses a missing and an invalid key with a JSON 401 and creates nothing',
    (operationId, method, path) => {
      const { call, service } = coreClient();
      const body = { model: 'video-pro-v1', prompt: 'p' };
      for (const key of [null, 'sk-not-a-key']) {
        const response = call(method, path, { key, body: method === 'POST' ? body : undefined });
        expectConformant(operationId, response);
        expectJsonError(response, 401, /API key/);
        expect(JSON.stringify(response.body)).not.toContain('sk-not-a-key');
      }
      expect(service.store.size).toBe(0);
    },
  );
});

describe('bad input (§7) gets a JSON 4xx naming the problem and creates no task', () => {
  const rows: [
    string,
    { body?: unknown; raw?: string | Uint8Array; headers?: Record<string, string>; key?: string },
    number,
    RegExp,
  ][] = [
    ['an empty prompt', { body: { model: 'video-pro-v1', prompt: '' } }, 400, /prompt is required/],
    [
      'a blank prompt',
      { body: { model: 'video-pro-v1', prompt: ' \n\t ' } },
      400,
      /prompt is required/,
    ],
    ['no prompt', { body: { model: 'video-pro-v1' } }, 400, /prompt is required/],
    ['no model', { body: { prompt: 'p' } }, 400, /model is required/],
    ['a number as model', { body: { model: 7, prompt: 'p' } }, 400, /model must be a string/],
    [
      'a number as prompt',
      { body: { model: 'video-pro-v1', prompt: 5 } },
      400,
      /prompt must be string/,
    ],
    [
      'a string duration',
      { body: { model: 'video-pro-v1', prompt: 'p', metadata: { duration: 'five' } } },
      400,
      /metadata\.duration must be number/,
    ],
    [
      'images that are not a list',
      { body: { model: 'video-pro-v1', prompt: 'p', images: 'a.png' } },
      400,
      /images must be array/,
    ],
    [
      'a bad ratio',
      { body: { model: 'video-pro-v1', prompt: 'p', metadata: { ratio: 'wide' } } },
      400,
      /metadata\.ratio must match/,
    ],
    [
      'a duration out of range',
      { body: { model: 'video-pro-v1', prompt: 'p', metadata: { duration: 0 } } },
      400,
      /between 1 and 3600/,
    ],
    [
      'seconds that are not a number',
      { body: { model: 'video-pro-v1', prompt: 'p', seconds: 'ten' } },
      400,
      /seconds must be/,
    ],
    [
      'seconds as a number',
      { body: { model: 'video-pro-v1', prompt: 'p', seconds: 5 } },
      400,
      /seconds must be string/,
    ],
    [
      'invalid JSON',
      { raw: '{"model": "video-pro-v1",', headers: { 'content-type': 'application/json' } },
      400,
      /not valid JSON/,
    ],
    [
      'an empty body',
      { raw: '', headers: { 'content-type': 'application/json' } },
      400,
      /body is empty/,
    ],
    [
      'a JSON array',
      { raw: '[1,2]', headers: { 'content-type': 'application/json' } },
      400,
      /JSON object/,
    ],
    [
      'bytes that are not UTF-8',
      { raw: new Uint8Array([0x7b, 0xff, 0x7d]), headers: { 'content-type': 'application/json' } },
      400,
      /not UTF-8/,
    ],
    [
      'a form body',
      { raw: 'model=x&prompt=y', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      415,
      /accepts JSON only/,
    ],
    [
      'a multipart body',
      { raw: '--b\r\n', headers: { 'content-type': 'multipart/form-data; boundary=b' } },
      415,
      /multipart\/form-data .* not accepted/,
    ],
    ['no content type', { raw: '{}' }, 415, /\(none\)/],
    [
      'an unknown model',
      { body: { model: 'video-ultra', prompt: 'p' } },
      503,
      /No available channel for model video-ultra under group default/,
    ],
    [
      'a model the token may not use',
      { body: { model: 'video-pro-v1', prompt: 'p' }, key: 'sk-mock-limited' },
      403,
      /no access to model video-pro-v1/,
    ],
    [
      'an exhausted quota',
      { body: { model: 'video-pro-v1', prompt: 'p' }, key: 'sk-mock-broke' },
      403,
      /quota is exhausted/,
    ],
  ];
  it.each(rows)('%s', (_name, input, status, message) => {
    const { call, service } = coreClient();
    const response = call('POST', '/v1/video/generations', input);
    expectConformant('createVideoGeneration', response);
    expectJsonError(response, status, message);
    expect(service.store.size).toBe(0);
  });

  it('answers a body over the size limit with 413', () => {
    const { call, service } = coreClient({ maxBodyBytes: 100 });
    const response = call('POST', '/v1/videos', {
      body: { model: 'video-pro-v1', prompt: 'x'.repeat(200) },
    });
    expectConformant('createVideo', response);
    expectJsonError(response, 413, /larger than 100 bytes/);
    expect(service.store.size).toBe(0);
  });

  it.each([
    ['an unknown route', 'GET', '/v1/videos/a/b/c', 404, /No route for GET/],
    ['an unknown method', 'DELETE', '/v1/videos/task_x', 405, /DELETE is not allowed/],
    ['a malformed escape in a path', 'GET', '/v1/videos/%E0%A4%A', 404, /No route/],
    [
      'another plugin name',
      'POST',
      '/other-plugin/api/v3/contents/generations/tasks',
      404,
      /No route/,
    ],
  ] as const)('answers %s with a JSON error', (_name, method, path, status, message) => {
    const { call } = coreClient();
    expectJsonError(call(method, path), status, message);
  });
});

describe('catalog and the second family (§1, §4, §5)', () => {
  it.each([
    ['sk-mock-alice', ['video-pro-v1', 'video-lite-v1']],
    ['sk-mock-vip', ['video-pro-v1', 'video-lite-v1']],
    ['sk-mock-limited', ['video-lite-v1']],
    ['sk-mock-broke', ['video-pro-v1', 'video-lite-v1']],
  ])('lists exactly the models %s may use', (key, models) => {
    const { call } = coreClient();
    const response = call('GET', '/v1/models', { key });
    expectConformant('listModels', response);
    expect((response.body as { data: { id: string }[] }).data.map((m) => m.id)).toEqual(models);
  });

  it('keeps the unbound second family unlisted and fails its submissions as a type-54 channel does', () => {
    const { call, service } = coreClient();
    const vip = call('POST', '/v1/videos', {
      key: 'sk-mock-vip',
      body: { model: 'alt-video-v2', prompt: 'boat' },
    });
    expectConformant('createVideo', vip);
    expectJsonError(vip, 400, /alt-video-v2 does not exist or you do not have access/);
    expect((vip.body as { code: string }).code).toBe('fail_to_fetch_task');
    const ordinary = call('POST', '/v1/videos', {
      body: { model: 'alt-video-v2.5', prompt: 'boat' },
    });
    expectJsonError(
      ordinary,
      503,
      /No available channel for model alt-video-v2.5 under group default/,
    );
    const native = call('POST', '/alt-video/api/v3/contents/generations/tasks', {
      key: 'sk-mock-vip',
      body: { model: 'alt-video-v2', content: [{ type: 'text', text: 'boat' }] },
    });
    expectJsonError(native, 503, /No available channel for model alt-video-v2/);
    expect(service.store.size).toBe(0);
  });

  it('lists the bound second family for vip tokens only', () => {
    const { call } = coreClient({ familyBound: true });
    const ids = (key: string) =>
      (call('GET', '/v1/models', { key }).body as { data: { id: string }[] }).data.map((m) => m.id);
    expect(ids('sk-mock-vip')).toEqual([
      'video-pro-v1',
      'video-lite-v1',
      'alt-video-v2',
      'alt-video-v2-fast',
      'alt-video-v2.5',
    ]);
    expect(ids('sk-mock-alice')).toEqual(['video-pro-v1', 'video-lite-v1']);
  });
});
