import { describe, expect, it } from 'vitest';
import { TASK_ID_PATTERN } from '../../mocks/core/task-id/task-id-codec.ts';
import {
  missingFields,
  requiredFields,
  serviceContract,
  toWrapperStatus,
  type VideoStatus,
} from '../../src/spec/index.ts';
import { expectConformant, expectJsonError } from '../helpers/conformance.ts';
import { coreClient, ORIGIN } from '../helpers/core-client.ts';
import type { TaskBody as Task, WrapperBody as Wrapper } from '../helpers/task-bodies.ts';

const { lifecycle } = serviceContract();

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
