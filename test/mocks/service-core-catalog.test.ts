import { describe, expect, it } from 'vitest';
import { expectConformant, expectJsonError } from '../helpers/conformance.ts';
import { coreClient } from '../helpers/core-client.ts';

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
