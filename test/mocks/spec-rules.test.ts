import { describe, expect, it } from 'vitest';
import { BUILT_IN_MODELS } from '../../mocks/core/keys/catalog.ts';
import { SECOND_FAMILY, serviceContract, type VideoStatus } from '../../src/spec/index.ts';
import { expectConformant, expectJsonError } from '../helpers/conformance.ts';
import { coreClient } from '../helpers/core-client.ts';

// Rules the spec states that the mock once kept only in its own code: the mock reads them from the spec.
const { validators } = serviceContract();
const NATIVE = '/alt-video/api/v3/contents/generations/tasks';
const bound = () => coreClient({ familyBound: true });

describe("the second family's assumed ranges and prices (x-second-family.assumed)", () => {
  it.each(SECOND_FAMILY.models)('%s in the catalog is what the spec assumes', (id) => {
    const { groups, ownedBy, models } = SECOND_FAMILY.assumed;
    expect(BUILT_IN_MODELS.find((m) => m.id === id)).toEqual({
      id,
      family: 'second',
      groups,
      ownedBy,
      ...models[id],
    });
  });

  it.each(SECOND_FAMILY.models)(
    '%s takes the durations and charges the price the spec states, and refuses one outside',
    (id) => {
      const { duration, pricePerSecond } = SECOND_FAMILY.assumed.models[id]!;
      const { call, service } = bound();
      const submit = (seconds: number) =>
        call('POST', '/v1/videos', {
          key: 'sk-mock-vip',
          body: { model: id, prompt: 'a boat', metadata: { duration: seconds } },
        });
      for (const outside of [duration.min - 1, duration.max + 1]) {
        const refused = submit(outside);
        expectConformant('createVideo', refused);
        expectJsonError(refused, 400, new RegExp(`between ${duration.min} and ${duration.max}`));
      }
      const accepted = submit(duration.max);
      expectConformant('createVideo', accepted);
      const taskId = (accepted.body as { id: string }).id;
      const inspected = call('GET', `/__mock/tasks/${taskId}`).body as {
        charge: { quota: number };
      };
      expect(inspected.charge.quota).toBeCloseTo(duration.max * pricePerSecond, 3);
      expect(service.store.size).toBe(1);
    },
  );
});

describe('§4.5: the two formats are not mixed in one request (NativeFormatOnly)', () => {
  const native = { model: 'alt-video-v2', content: [{ type: 'text', text: 'a boat' }] };
  it.each([
    ['prompt', 'a boat'],
    ['image', 'https://x.test/a.png'],
    ['images', ['https://x.test/a.png']],
    ['seconds', '5'],
    ['size', '1280x720'],
    ['metadata', { duration: 5 }],
  ])('refuses a native body carrying the OpenAI field %s, as the spec does', (field, value) => {
    const mixed = { ...native, [field]: value };
    expect(validators.request('createPluginTask')!.validate(mixed).valid).toBe(false);
    const { call, service } = bound();
    const response = call('POST', NATIVE, { key: 'sk-mock-vip', body: mixed });
    expectConformant('createPluginTask', response);
    expectJsonError(response, 400, new RegExp(`not the OpenAI form \\(${field}\\).*§4\\.5`));
    expect(service.store.size).toBe(0);
  });

  it('accepts the native body alone', () => {
    expect(validators.request('createPluginTask')!.validate(native).valid).toBe(true);
    const response = bound().call('POST', NATIVE, { key: 'sk-mock-vip', body: native });
    expectConformant('createPluginTask', response);
    expect(response.status).toBe(200);
  });
});

describe('§2.3: data.fail_reason is empty if there is none (TaskWrapperData if/then)', () => {
  const data = validators.schema('TaskWrapperData');
  const base = { task_id: 't', platform: '54', progress: '50%', created_at: 1, updated_at: 2 };
  it('is what the schema says, in the documented reading', () => {
    const reason = 'The upstream reported QuotaExceeded.';
    const running = data.validate({ ...base, status: 'IN_PROGRESS', fail_reason: reason });
    expect(running.valid).toBe(false);
    expect(running.errors).toContain('/fail_reason must be ""');
    expect(data.validate({ ...base, status: 'FAILURE', fail_reason: reason }).valid).toBe(true);
    expect(data.validate({ ...base, status: 'SUCCESS', fail_reason: '' }).valid).toBe(true);
  });

  it.each([
    ['queued', 'succeed', 1_000],
    ['in_progress', 'succeed', 30_000],
    ['completed', 'succeed', 120_000],
    ['in_progress', 'fail', 15_000],
    ['failed', 'fail', 120_000],
  ] as [VideoStatus, string, number][])('%s (%s plan)', (status, outcome, afterMs) => {
    const { call, service } = coreClient({ failureRate: outcome === 'fail' ? 1 : 0 });
    const id = call('POST', '/v1/videos', { body: { model: 'video-pro-v1', prompt: 'p' } })
      .body as {
      id: string;
    };
    service.clock.advance(afterMs);
    const video = call('GET', `/v1/videos/${id.id}`).body as { status: string };
    const wrapper = call('GET', `/v1/video/generations/${id.id}`).body as {
      data: { fail_reason: string };
    };
    expect(video.status).toBe(status);
    if (status === 'failed') expect(wrapper.data.fail_reason).not.toBe('');
    else expect(wrapper.data.fail_reason).toBe('');
  });
});
