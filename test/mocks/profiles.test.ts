import { describe, expect, it } from 'vitest';
import { expectConformant, expectJsonError } from '../helpers/conformance.ts';
import { coreClient, coreRequest } from '../helpers/core-client.ts';
import OBSERVED from '../../mocks/profiles/observed.json' with { type: 'json' };

type Task = {
  id: string;
  status: string;
  progress: number;
  completed_at?: number;
  metadata?: { url: string };
  task_id?: string;
};

// The observed profile reproduces the deployed gateway's habits (spec/reference-gateway-facts.md), as
// learned from a deployment with those habits (mocks/profiles/observed.json, scripts/learn-observed.ts),
// one quirk per test. Every answer still conforms to the spec: these are silences the document leaves.
describe('observed profile', () => {
  const observed = () => coreClient({ profile: 'observed' });

  it('may say unknown on the first query although the submission said queued', () => {
    const { call, service } = observed();
    const submitted = call('POST', '/v1/videos', { body: { model: 'video-pro-v1', prompt: 'p' } });
    expectConformant('createVideo', submitted);
    expect(submitted.body).toMatchObject({ status: 'queued', progress: 0 });
    const id = (submitted.body as Task).id;
    const first = call('GET', `/v1/videos/${id}`);
    expectConformant('getVideo', first);
    expect(first.body).toMatchObject({ status: 'unknown' });
    // The gateway stores a new task as NOT_START (reference-gateway-facts.md).
    expect(
      (call('GET', `/v1/video/generations/${id}`).body as { data: { status: string } }).data.status,
    ).toBe('NOT_START');
    const { unknownMs, queueMs } = service.store.get(id)!.plan;
    const [low, high] = OBSERVED.lifecycle.phases.unknown as [number, number];
    expect(unknownMs).toBeGreaterThanOrEqual(low);
    expect(unknownMs).toBeLessThanOrEqual(high);
    service.clock.advance(unknownMs);
    expect((call('GET', `/v1/videos/${id}`).body as Task).status).toBe(
      queueMs > unknownMs ? 'queued' : 'in_progress',
    );
  });

  it('shows progress in steps: 0 → 10 queued → 50 running → 100', () => {
    const { call, submit, service } = observed();
    const id = submit();
    const plan = service.store.get(id)!.plan;
    const at = (ms: number) => {
      service.clock.advance(ms);
      return (call('GET', `/v1/videos/${id}`).body as Task).progress;
    };
    expect(at(plan.unknownMs)).toBe(10);
    expect(at(plan.queueMs - plan.unknownMs + 1)).toBe(50);
    expect(at(plan.runMs)).toBe(100);
  });

  it('sends completed_at while running and metadata.url "" until done', () => {
    const { call, submit, service } = observed();
    const id = submit();
    const plan = service.store.get(id)!.plan;
    service.clock.advance(plan.queueMs + 1_000);
    const running = call('GET', `/v1/videos/${id}`);
    expectConformant('getVideo', running);
    expect(running.body).toMatchObject({ status: 'in_progress', metadata: { url: '' } });
    expect((running.body as Task).completed_at).toBe(Math.floor(service.clock.now() / 1000));
    service.clock.advance(plan.runMs);
    expect((call('GET', `/v1/videos/${id}`).body as Task).metadata!.url).toMatch(
      /^http:\/\/mock\.test\/__artifacts\//,
    );
  });

  it('answers a missing or foreign task on the status routes with 400 task_not_exist, and on content with 404', () => {
    const { call, submit } = observed();
    const id = submit();
    for (const [operationId, path] of [
      ['getVideo', `/v1/videos/${id}`],
      ['getVideoGeneration', `/v1/video/generations/${id}`],
    ] as const) {
      const foreign = call('GET', path, { key: 'sk-mock-bob' });
      expectConformant(operationId, foreign);
      expect(foreign).toMatchObject({ status: 400, body: { code: 'task_not_exist', data: null } });
    }
    const content = call('GET', `/v1/videos/${id}/content`, { key: 'sk-mock-bob' });
    expectConformant('getVideoContent', content);
    expectJsonError(content, 404, /not found \(request id: [0-9A-Za-z]+\)$/);
  });

  it('ends OpenAI-style error messages with the request id of the x-oneapi-request-id header', () => {
    const { service } = observed();
    const response = service.handle(coreRequest('GET', '/v1/models', { key: null }));
    const body = JSON.parse(response.body as string) as {
      error: { message: string; code: string };
    };
    expect(body.error).toMatchObject({
      message: `Invalid token (request id: ${response.headers['x-oneapi-request-id']})`,
      code: '',
    });
    expect(response.status).toBe(401);
  });

  it('answers a missing and an invalid key alike: 401 "Invalid token"', () => {
    const { call } = observed();
    const missing = call('GET', '/v1/models', { key: null });
    const invalid = call('GET', '/v1/models', { key: 'sk-wrong' });
    expectConformant('listModels', missing);
    for (const r of [missing, invalid]) expectJsonError(r, 401, /^Invalid token \(request id/);
  });

  it("carries the gateway's row fields in the wrapper and X-New-Api-Other-Ratios on submission", () => {
    const { call, service } = observed();
    const raw = service.handle(
      coreRequest('POST', '/v1/video/generations', {
        body: { model: 'video-pro-v1', prompt: 'p' },
      }),
    );
    expect(raw.headers['x-new-api-other-ratios']).toBeDefined();
    const id = (JSON.parse(raw.body as string) as Task).id;
    const wrapper = call('GET', `/v1/video/generations/${id}`);
    expectConformant('getVideoGeneration', wrapper);
    const data = (wrapper.body as { data: Record<string, unknown> }).data;
    // The row number comes from the task's ID (decisions/010): a positive integer, stable across replicas.
    expect(Number.isInteger(data['id']) && (data['id'] as number) > 0).toBe(true);
    // Values the core decides (the group, the charge, the channel) with the gateway's own wording.
    expect(data).toMatchObject({
      group: 'default',
      quota: 2.5,
      action: 'textGenerate',
      platform: '54',
    });
  });

  it('keeps the documented profile free of these quirks', () => {
    const { call, submit, service } = coreClient();
    const id = submit();
    const plan = service.store.get(id)!.plan;
    expect(plan.unknownMs).toBe(0);
    service.clock.advance(plan.queueMs + 1_000);
    const task = call('GET', `/v1/videos/${id}`).body as Task;
    expect(task.completed_at).toBeUndefined();
    expect(task.metadata).toBeUndefined();
    expect(task.progress).not.toBe(50);
    expect(call('GET', `/v1/videos/${id}`, { key: 'sk-mock-bob' }).status).toBe(404);
  });
});
