import { describe, expect, it } from 'vitest';
import { createMockService } from '../../mocks/index.ts';
import { coreClient, coreRequest } from '../helpers/core-client.ts';
import { expectControlConformant } from '../helpers/conformance.ts';

describe('control API (spec/mock-control.yaml)', () => {
  it('shows and advances the clock; everything time-based follows it', () => {
    const { call, submit } = coreClient();
    const id = submit();
    const before = call('GET', '/__mock/clock', { key: null });
    expectControlConformant('getMockClock', before);
    expect(before.body).toMatchObject({ mode: 'manual', speed: 1 });
    const advanced = call('POST', '/__mock/clock/advance', { key: null, body: { ms: 600_000 } });
    expectControlConformant('advanceMockClock', advanced);
    expect((advanced.body as { now: number }).now).toBe(
      (before.body as { now: number }).now + 600_000,
    );
    expect((call('GET', `/v1/videos/${id}`).body as { status: string }).status).toBe('completed');
  });

  it.each([
    { ms: -1 },
    { ms: 1.5 },
    { ms: '10' },
    {},
    { ms: 10, extra: true },
    { ms: 1e308 },
    { ms: 315_360_000_001 },
  ])('refuses a bad advance %j with a 400 naming ms', (body) => {
    const { call } = coreClient();
    const response = call('POST', '/__mock/clock/advance', { key: null, body });
    expectControlConformant('advanceMockClock', response);
    expect(response.status).toBe(400);
  });

  it('lists and inspects tasks with owner, plan and current state, never keys', () => {
    const { call, submit, service } = coreClient();
    const a = submit();
    submit({ model: 'video-lite-v1', prompt: 'x' }, 'sk-mock-bob');
    service.clock.advance(1_000); // queues last at least 2 s
    const list = call('GET', '/__mock/tasks', { key: null });
    expectControlConformant('listMockTasks', list);
    const tasks = (
      list.body as {
        tasks: { id: string; owner: string; status: string; plan: { queueMs: number } }[];
      }
    ).tasks;
    expect(tasks.map((t) => t.owner)).toEqual(['alice', 'bob']);
    expect(JSON.stringify(list.body)).not.toMatch(/sk-mock/);
    const onlyBob = call('GET', '/__mock/tasks', { key: null, query: 'owner=bob' });
    expect((onlyBob.body as { tasks: unknown[] }).tasks).toHaveLength(1);
    const one = call('GET', `/__mock/tasks/${a}`, { key: null });
    expectControlConformant('getMockTask', one);
    expect(one.body).toMatchObject({
      id: a,
      owner: 'alice',
      model: 'video-pro-v1',
      status: 'queued',
      charge: { seconds: 5, quota: 2.5 },
      channelType: 54,
    });
    expectControlConformant('getMockTask', call('GET', '/__mock/tasks/task_nope', { key: null }));
  });

  it('forces an outcome from now on, keeping progress monotonic, and refuses to change a finished task', () => {
    const { call, submit, service } = coreClient();
    const id = submit();
    const plan = service.store.get(id)!.plan;
    service.clock.advance(plan.queueMs + plan.runMs / 2);
    const before = (call('GET', `/v1/videos/${id}`).body as { progress: number }).progress;
    const forced = call('POST', `/__mock/tasks/${id}/outcome`, {
      key: null,
      body: { outcome: 'fail', code: 'ContentPolicy', message: 'blocked', afterMs: 5_000 },
    });
    expectControlConformant('forceMockTaskOutcome', forced);
    expect(forced.body).toMatchObject({ status: 'in_progress' });
    expect(
      (call('GET', `/v1/videos/${id}`).body as { progress: number }).progress,
    ).toBeGreaterThanOrEqual(before);
    service.clock.advance(5_000);
    expect(call('GET', `/v1/videos/${id}`).body).toMatchObject({
      status: 'failed',
      error: { code: 'ContentPolicy', message: 'blocked' },
    });
    const again = call('POST', `/__mock/tasks/${id}/outcome`, {
      key: null,
      body: { outcome: 'succeed' },
    });
    expectControlConformant('forceMockTaskOutcome', again);
    expect(again.status).toBe(409);
  });

  it('forces a queued task to complete at once, and another to be stuck', () => {
    const { call, submit, service } = coreClient();
    const done = submit();
    const stuck = submit();
    expect(
      call('POST', `/__mock/tasks/${done}/outcome`, { key: null, body: { outcome: 'succeed' } })
        .body,
    ).toMatchObject({ status: 'completed' });
    call('POST', `/__mock/tasks/${stuck}/outcome`, { key: null, body: { outcome: 'stuck' } });
    service.clock.advance(24 * 3_600_000);
    expect((call('GET', `/v1/videos/${stuck}`).body as { status: string }).status).toBe(
      'in_progress',
    );
    expect(call('GET', `/v1/videos/${done}/content`).status).toBe(200);
  });

  it.each([
    { outcome: 'explode' },
    { outcome: 'fail', code: '' },
    { outcome: 'succeed', afterMs: -5 },
    { outcome: 'succeed', when: 1 },
  ])('refuses a bad forced outcome %j', (body) => {
    const { call, submit } = coreClient();
    const id = submit();
    const response = call('POST', `/__mock/tasks/${id}/outcome`, { key: null, body });
    expectControlConformant('forceMockTaskOutcome', response);
    expect(response.status).toBe(400);
  });

  it('lists the scenarios', () => {
    const { call } = coreClient();
    const response = call('GET', '/__mock/scenarios', { key: null });
    expectControlConformant('listMockScenarios', response);
    expect(
      (response.body as { scenarios: { name: string }[] }).scenarios.map((s) => s.name),
    ).toEqual([
      'succeed',
      'fail',
      'fail-at-submit',
      'slow',
      'stuck',
      'unknown',
      'flaky',
      'rate-limit',
      'lost-answer',
    ]);
  });

  it('binds and unbinds the second family, and reset restores the start-up state', () => {
    const { call, submit, service } = coreClient();
    expect(call('GET', '/__mock/family', { key: null }).body).toMatchObject({
      bound: false,
      channelType: 54,
      pluginVersion: '1.0.5',
    });
    const bound = call('PUT', '/__mock/family', { key: null, body: { bound: true } });
    expectControlConformant('setMockFamily', bound);
    expect(bound.body).toMatchObject({ bound: true, channelType: 61 });
    expectControlConformant(
      'setMockFamily',
      call('PUT', '/__mock/family', { key: null, body: { bound: 'yes' } }),
    );
    submit();
    const health = call('GET', '/__mock/health', { key: null });
    expectControlConformant('getMockHealth', health);
    expect(health.body).toMatchObject({
      status: 'ok',
      profile: 'documented',
      tasks: 1,
      family: { bound: true },
      defects: [],
    });
    expectControlConformant('resetMock', call('POST', '/__mock/reset', { key: null }));
    expect(service.store.size).toBe(0);
    expect(service.family.bound).toBe(false);
  });

  it('is refused from a non-loopback peer, and needs the admin token when one is set', () => {
    const open = createMockService({ clock: { mode: 'manual' } });
    const ask = (service: typeof open, remoteAddress: string, authorization?: string) =>
      service.handle(
        coreRequest('GET', '/__mock/clock', {
          key: null,
          headers: authorization === undefined ? {} : { authorization },
          remoteAddress,
        }),
      ).status;
    expect(ask(open, '127.0.0.1')).toBe(200);
    expect(ask(open, '::ffff:127.0.0.1')).toBe(200);
    expect(ask(open, '::1')).toBe(200);
    expect(ask(open, '10.0.0.7')).toBe(403);
    expect(ask(open, '')).toBe(403); // a socket already gone: not taken for loopback
    const guarded = createMockService({ clock: { mode: 'manual' }, adminToken: 'admin-secret' });
    expect(ask(guarded, '127.0.0.1')).toBe(403);
    expect(ask(guarded, '10.0.0.7', 'Bearer admin-secret')).toBe(200);
    expect(ask(guarded, '10.0.0.7', 'Bearer wrong')).toBe(403);
  });

  it(
    'never lets the service routes depend on it: a service key does not open ' +
      'it, and it does not open the service',
    () => {
      const guarded = coreClient({ adminToken: 'admin-secret' });
      expect(guarded.call('GET', '/__mock/tasks', { key: 'sk-mock-alice' }).status).toBe(403);
      expect(guarded.call('GET', '/v1/models', { key: 'admin-secret' }).status).toBe(401);
    },
  );
});
