import { beforeAll, describe, expect, it } from 'vitest';
import { readProfile, type LearnedProfile } from '../../src/profile/index.ts';
import { createMockService } from '../../mocks/index.ts';
import { learnInProcess } from '../contracts/support/learn-in-process.ts';
import { OWN_WAY } from '../contracts/support/own-way.ts';
import { OLDER_CONTENT_ROUTE } from '../contracts/support/deployments.ts';
import { coreClient, coreRequest } from '../helpers/core-client.ts';

// What a client team's tests rely on keeps working on a learned profile: the manual clock, scenarios,
// the control API, defects; and the profile decides how each answer reads, never what happens.

const own = (name: string) => OWN_WAY.find((d) => d.name === name)!;

/** A deployment with IDs, error bodies and wrapper words of its own, learned once. */
let vendor: LearnedProfile;
beforeAll(async () => {
  const mock = { defects: [own('own-way-task-ids'), own('own-way-error-bodies')] };
  vendor = (await learnInProcess({ mock, target: { budget: 3 } })).profile;
});

type Task = { id: string; status: string; error?: { code: string } };

describe('a mock serving a learned profile', () => {
  it("names tasks in the deployment's form and finds them by it, on every route and the control API", () => {
    const { call, submit, service } = coreClient({ profile: vendor });
    const id = submit();
    expect(id).toMatch(/^vtsk-[0-9A-Za-z]{32}$/);
    expect(call('GET', `/v1/videos/${id}`).body).toMatchObject({ id, status: 'queued' });
    const forced = call('POST', `/__mock/tasks/${id}/outcome`, {
      key: null,
      body: { outcome: 'fail', code: 'ContentPolicy' },
    });
    expect(forced.status).toBe(200);
    service.clock.advance(60_000);
    const failed = call('GET', `/v1/videos/${id}`).body as Task;
    expect(failed).toMatchObject({ id, status: 'failed', error: { code: 'ContentPolicy' } });
    const wrapper = call('GET', `/v1/video/generations/${id}`).body as { data: { status: string } };
    expect(wrapper.data.status).toBe('FAILURE');
  });

  it('words refusals as the deployment did', () => {
    const { call, submit } = coreClient({ profile: vendor });
    const id = submit();
    const foreign = call('GET', `/v1/videos/${id}`, { key: 'sk-mock-bob' });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ failure: { reason: expect.any(String) as unknown } });
  });

  it("words the wrapper's states as the deployment did (SUBMITTED, RUNNING)", async () => {
    const mock = { defects: [own('own-way-wrapper-statuses')] };
    const words = (await learnInProcess({ mock })).profile;
    expect(words.lifecycle.wrapperStatuses).toMatchObject({ queued: 'SUBMITTED' });
    const { call, submit, service } = coreClient({ profile: words });
    const id = submit();
    const status = () =>
      (call('GET', `/v1/video/generations/${id}`).body as { data: { status: string } }).data.status;
    expect(status()).toBe('SUBMITTED');
    service.clock.advance(service.store.get(id)!.plan.queueMs + 1);
    expect(status()).toBe('RUNNING');
  });

  it('moves on the manual clock within the learned timing, and scenarios still decide the outcome', () => {
    const { call, submit, service } = coreClient({ profile: vendor });
    const id = submit({ model: 'video-pro-v1', prompt: 'a kite [mock:fail]' });
    const plan = service.store.get(service.store.ids()[0]!)!.plan;
    const { queued, running } = vendor.lifecycle.phases;
    expect(plan.queueMs).toBeGreaterThanOrEqual(queued[0]);
    expect(plan.queueMs).toBeLessThanOrEqual(queued[1]);
    expect(plan.outcome).toBe('fail');
    service.clock.advance(plan.queueMs + Math.min(plan.runMs, running[1]) + 1);
    expect((call('GET', `/v1/videos/${id}`).body as Task).status).toBe('failed');
  });

  it("keeps the core's temporary failures (a flaky upstream answers 503, §7) in its own words", () => {
    const { call, submit } = coreClient({ profile: vendor });
    const id = submit({ model: 'video-pro-v1', prompt: 'a kite [mock:flaky:2]' });
    const answers = [1, 2, 3, 4].map(() => call('GET', `/v1/videos/${id}`).status);
    expect(answers).toContain(503);
    expect(answers).toContain(200);
  });

  it('plays defects on top of the learned answers', () => {
    const { call, submit } = coreClient({
      profile: vendor,
      defects: ['gateway-drops-task-id'],
    });
    const id = submit();
    expect(call('GET', `/v1/videos/${id}`).body).not.toHaveProperty('task_id');
  });

  it('answers HEAD and Range as the deployment did (a mid-2026 gateway: neither)', async () => {
    const older = (await learnInProcess({ mock: { defects: [OLDER_CONTENT_ROUTE] } })).profile;
    expect(older.content).toMatchObject({ range: false, head: false });
    const { call, submit, service } = coreClient({ profile: older });
    const id = submit();
    service.clock.advance(10 * 60_000);
    expect(call('HEAD', `/v1/videos/${id}/content`).status).toBe(405);
    const ranged = call('GET', `/v1/videos/${id}/content`, { headers: { range: 'bytes=0-9' } });
    expect(ranged.status).toBe(200);
  });

  it("gives unseen errors the deployment's request-ID habit: the header's name and the message's ending", () => {
    const { service } = coreClient({
      profile: 'observed',
      rateLimit: { requests: 1, windowMs: 60_000 },
    });
    const ask = () => service.handle(coreRequest('GET', '/v1/models'));
    ask();
    const limited = ask();
    expect(limited.status).toBe(429);
    const requestId = limited.headers['x-oneapi-request-id']!;
    expect(requestId).toMatch(/^[0-9A-Za-z]{31}$/);
    const body = JSON.parse(limited.body as string) as { error: { message: string } };
    expect(body.error.message.endsWith(` (request id: ${requestId})`)).toBe(true);
  });

  it('carries task IDs too small a form cannot hold in a table of this process (a UUID)', () => {
    const uuid = readProfile({
      ...vendor,
      taskId: { form: '{hex:8}-{hex:4}-{hex:4}-{hex:4}-{hex:12}' },
    });
    const { call, submit } = coreClient({ profile: uuid });
    const id = submit();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(call('GET', `/v1/videos/${id}`).status).toBe(200);
    expect(call('GET', `/v1/videos/00000000-0000-0000-0000-000000000000`).status).toBe(404);
  });

  it('refuses a profile that is no profile with an error naming the field, and an unknown name', () => {
    expect(() => createMockService({ profile: { ...vendor, version: 7 } as never })).toThrow(
      /\/version: is 7, this videotask reads version 1/,
    );
    expect(() => createMockService({ profile: 'staging' as never })).toThrow(
      /Unknown profile "staging": use documented, observed, or a learned profile/,
    );
  });
});
