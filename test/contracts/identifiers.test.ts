import { describe, expect, it } from 'vitest';
import { foreignIdentifiers, isResultAddress } from '../../contracts/checks/identifiers.ts';

const ID = 'task_Q2x7rB0pV4mN8sK1dF6hJ3gL9tY5wE2a';

describe('task identifiers other than the public one (§1)', () => {
  it("finds none in the gateway's wrapper, whose row number, user and channel are numbers", () => {
    const wrapper = {
      code: 'success',
      data: { id: 1042, task_id: ID, user_id: 7, channel_id: 3, group: 'default', data: {} },
    };
    expect(foreignIdentifiers(wrapper, ID)).toEqual([]);
  });

  it('finds an upstream number in the raw upstream body, at any depth', () => {
    const wrapper = {
      data: { task_id: ID, data: { id: 'cgt-20261122-0a1b2c3d4e5f', status: 'running' } },
    };
    expect(foreignIdentifiers(wrapper, ID)).toEqual([
      { path: 'data.data.id', value: 'cgt-20261122-0a1b2c3d4e5f' },
    ]);
  });

  it('finds another ID of the public form, or an opaque one, under a task-named field', () => {
    const other = 'task_Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp';
    const uuid = '3f2b9c4e-8d1a-4b7e-9f6c-2a5d8e1b7c40';
    expect(
      foreignIdentifiers({ id: ID, task_id: other, meta: { upstream_task_id: uuid } }, ID),
    ).toEqual([
      { path: 'task_id', value: other },
      { path: 'meta.upstream_task_id', value: uuid },
    ]);
  });

  it('leaves request IDs, model names and short values alone', () => {
    const body = {
      id: ID,
      error: { request_id: '20261122104512000001', code: 'task_not_exist' },
      model: { id: 'video-pro-v1' },
      items: [{ id: 'img-1' }],
    };
    expect(foreignIdentifiers(body, ID)).toEqual([]);
  });
});

describe('result addresses (§2.2, §2.3)', () => {
  it.each([
    ['', true],
    [null, true],
    ['https://cdn.example.com/v/abc.mp4?sig=1', true],
    ['http://127.0.0.1:4010/__artifacts/x.mp4', true],
    ['videos/task_x.mp4', false],
    ['ftp://files.example.com/x.mp4', false],
    ['The generated video may contain sensitive content.', false],
    [42, false],
  ])('%j is allowed: %s', (value, allowed) => {
    expect(isResultAddress(value)).toBe(allowed);
  });
});
