import { describe, expect, it } from 'vitest';
import {
  canTransition,
  serviceContract,
  toWrapperStatus,
  type VideoStatus,
} from '../../src/spec/index.ts';
import { expectConformant, expectJsonError } from '../helpers/conformance.ts';
import { coreClient } from '../helpers/core-client.ts';

const { lifecycle } = serviceContract();
type Task = {
  id: string;
  status: VideoStatus;
  progress: number;
  error?: { code: string; message: string };
};
type Wrapper = { data: { status: string; progress: string; fail_reason: string } };

/** Submits with a scenario and polls both forms every `stepMs` for `totalMs`, returning what each form saw. */
function run(scenario: { header?: string; prompt?: string }, totalMs: number, stepMs = 1_000) {
  const client = coreClient();
  const headers = scenario.header === undefined ? {} : { 'x-mock-scenario': scenario.header };
  const submitted = client.call('POST', '/v1/videos', {
    body: { model: 'video-pro-v1', prompt: scenario.prompt ?? 'a kite' },
    headers,
  });
  const id = (submitted.body as Task).id;
  const seen: {
    t: number;
    video: ReturnType<typeof client.call>;
    wrapper: ReturnType<typeof client.call>;
  }[] = [];
  for (let t = 0; t <= totalMs; t += stepMs) {
    seen.push({
      t,
      video: client.call('GET', `/v1/videos/${id}`),
      wrapper: client.call('GET', `/v1/video/generations/${id}`),
    });
    client.service.clock.advance(stepMs);
  }
  return { ...client, submitted, id, seen };
}

function statuses(seen: ReturnType<typeof run>['seen']): VideoStatus[] {
  return seen.filter((s) => s.video.status === 200).map((s) => (s.video.body as Task).status);
}

function expectLegalAndAgreeing(seen: ReturnType<typeof run>['seen']): void {
  let previous: Task | undefined;
  for (const { video, wrapper } of seen) {
    if (video.status !== 200 || wrapper.status !== 200) continue;
    expectConformant('getVideo', video);
    expectConformant('getVideoGeneration', wrapper);
    const task = video.body as Task;
    expect((wrapper.body as Wrapper).data.status).toBe(toWrapperStatus(lifecycle, task.status));
    if (previous !== undefined) {
      expect(canTransition(lifecycle, previous.status, task.status)).toBe(true);
      expect(task.progress).toBeGreaterThanOrEqual(previous.progress);
    }
    previous = task;
  }
}

describe('scenarios', () => {
  it('succeed (the default) queues for seconds, runs for tens of seconds, completes', () => {
    const { seen, submitted } = run({}, 90_000);
    expectConformant('createVideo', submitted);
    const s = statuses(seen);
    expect(s[0]).toBe('queued');
    expect(s.indexOf('in_progress')).toBeGreaterThanOrEqual(2);
    expect(s.indexOf('completed') - s.indexOf('in_progress')).toBeGreaterThanOrEqual(20);
    expect(s.at(-1)).toBe('completed');
    expectLegalAndAgreeing(seen);
  });

  it.each([
    ['the header', { header: 'fail:QuotaExceeded' }],
    ['a prompt tag', { prompt: 'a kite [mock:fail:QuotaExceeded]' }],
  ])('fail:CODE chosen by %s runs a while, then fails with that error.code', (_how, scenario) => {
    const { seen } = run(scenario, 90_000);
    const s = statuses(seen);
    expect(s).toContain('in_progress');
    expect(s.at(-1)).toBe('failed');
    const last = seen.at(-1)!;
    expect((last.video.body as Task).error).toEqual({
      code: 'QuotaExceeded',
      message: 'The upstream reported QuotaExceeded.',
    });
    expect((last.wrapper.body as Wrapper).data).toMatchObject({
      status: 'FAILURE',
      fail_reason: 'The upstream reported QuotaExceeded.',
    });
    expectLegalAndAgreeing(seen);
  });

  it('fail without a code uses an upstream-like code and message', () => {
    const { seen } = run({ header: 'fail' }, 90_000);
    expect((seen.at(-1)!.video.body as Task).error).toEqual({
      code: 'OutputVideoSensitiveContentDetected',
      message: 'The generated video may contain sensitive content.',
    });
  });

  it('slow stays queued past 30 s and is still running after 3 min', () => {
    const { seen } = run({ header: 'slow' }, 400_000, 10_000);
    const at = (ms: number) => (seen.find((x) => x.t === ms)!.video.body as Task).status;
    expect(at(20_000)).toBe('queued');
    expect(at(200_000)).toBe('in_progress');
    expect(at(400_000)).toBe('completed');
    expectLegalAndAgreeing(seen);
  });

  it('stuck never finishes', () => {
    const { seen } = run({ header: 'stuck' }, 6 * 3_600_000, 600_000);
    expect(statuses(seen).at(-1)).toBe('in_progress');
    expect((seen.at(-1)!.video.body as Task).progress).toBeLessThan(100);
    expectLegalAndAgreeing(seen);
  });

  it('unknown:SECONDS reports unknown for that long, then goes on', () => {
    const { seen, submitted } = run({ header: 'unknown:10' }, 90_000);
    expect((submitted.body as Task).status).toBe('queued');
    const s = statuses(seen);
    expect(s.slice(0, 10).every((x) => x === 'unknown')).toBe(true);
    expect(s[10]).toBe('queued');
    expect(s.at(-1)).toBe('completed');
    expect((seen[0]!.wrapper.body as Wrapper).data.status).toBe('UNKNOWN');
    expectLegalAndAgreeing(seen);
  });

  it('flaky answers every second status query with a temporary 503 (§7) and still completes', () => {
    const { seen } = run({ header: 'flaky' }, 90_000);
    const answers = seen.flatMap((s) => [s.video, s.wrapper]);
    expect(answers.filter((a) => a.status === 503).length).toBe(Math.ceil(answers.length / 2));
    for (const a of answers.filter((x) => x.status === 503)) {
      expectConformant('getVideo', a);
      expectJsonError(a, 503, /retry the same query/);
    }
    expect(
      answers.at(-1)!.status === 200
        ? (answers.at(-1)!.body as Wrapper).data.status
        : (answers.at(-2)!.body as Task).status,
    ).toMatch(/SUCCESS|completed/);
  });

  it('rate-limit answers the submission 429 with Retry-After and creates no task', () => {
    const { call, service } = coreClient();
    const response = call('POST', '/v1/video/generations', {
      body: { model: 'video-pro-v1', prompt: 'p' },
      headers: { 'x-mock-scenario': 'rate-limit:7' },
    });
    expectConformant('createVideoGeneration', response);
    expectJsonError(response, 429, /retry after 7 s/);
    expect(service.store.size).toBe(0);
  });

  it('fail-at-submit refuses the submission as the upstream would, with the status asked for', () => {
    const { call, service } = coreClient();
    const refused = call('POST', '/v1/videos', {
      body: { model: 'video-pro-v1', prompt: 'p [mock:fail-at-submit]' },
    });
    expectConformant('createVideo', refused);
    expect(refused.status).toBe(400);
    expect((refused.body as { code: string }).code).toBe('fail_to_fetch_task');
    expect(
      call('POST', '/v1/videos', {
        body: { model: 'video-pro-v1', prompt: 'p' },
        headers: { 'x-mock-scenario': 'fail-at-submit:502' },
      }).status,
    ).toBe(502);
    expect(service.store.size).toBe(0);
  });

  it('lets the header win over a prompt tag', () => {
    const { seen } = run({ header: 'succeed', prompt: '[mock:fail]' }, 90_000);
    expect(statuses(seen).at(-1)).toBe('completed');
  });

  it.each([
    [
      'an unknown name in the header',
      { 'x-mock-scenario': 'explode' },
      'p',
      new RegExp(
        String.raw`Unknown mock scenario "explode": use one of succeed, fail, fail-at-submit, slow, stuck, ` +
          String.raw`unknown, flaky, rate-limit, lost-answer`,
      ),
    ],
    ['an unknown name in the prompt', {}, 'p [mock:explode]', /Unknown mock scenario "explode"/],
    ['a bad argument', { 'x-mock-scenario': 'fail-at-submit:200' }, 'p', /HTTP status 400–599/],
    ['a bad error code', { 'x-mock-scenario': 'fail:no spaces' }, 'p', /error code/],
    ['a bad flaky period', { 'x-mock-scenario': 'flaky:0' }, 'p', /whole number/],
  ])('refuses %s with a clear 400 and no task', (_name, headers, prompt, message) => {
    const { call, service } = coreClient();
    const response = call('POST', '/v1/videos', {
      body: { model: 'video-pro-v1', prompt },
      headers,
    });
    expectJsonError(response, 400, message);
    expect(service.store.size).toBe(0);
  });

  it('fails about the configured share of tasks with failureRate', () => {
    const { submit, service } = coreClient({ failureRate: 0.5, seed: 9 });
    for (let i = 0; i < 200; i++) submit();
    const failed = [...service.store.values()].filter((t) => t.plan.outcome === 'fail').length;
    expect(failed).toBeGreaterThan(70);
    expect(failed).toBeLessThan(130);
  });
});

describe('rate limiting', () => {
  it('answers 429 with Retry-After and a JSON body once a key spends its budget, per key, on the clock', () => {
    const { call, service } = coreClient({ rateLimit: { requests: 3, windowMs: 10_000 } });
    for (let i = 0; i < 3; i++) expect(call('GET', '/v1/models').status).toBe(200);
    const limited = call('GET', '/v1/models');
    expectConformant('listModels', limited);
    expectJsonError(limited, 429, /3 requests per 10 s/);
    expect(call('GET', '/v1/models', { key: 'sk-mock-bob' }).status).toBe(200);
    service.clock.advance(10_000);
    expect(call('GET', '/v1/models').status).toBe(200);
  });

  it('is off by default', () => {
    const { call } = coreClient();
    for (let i = 0; i < 500; i++) expect(call('GET', '/v1/models').status).toBe(200);
  });
});
