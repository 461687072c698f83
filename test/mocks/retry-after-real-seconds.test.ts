import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockService, type MockOptions } from '../../mocks/index.ts';
import { coreRequest } from '../helpers/core-client.ts';
import { firstSubmissionsRateLimited } from '../contracts/support/deployments.ts';
import { checkInProcess } from '../contracts/support/in-process.ts';

/**
 * Issue 22 ("Day-one friction"): the mock's `Retry-After` was in simulated seconds, so at `--speed N`
 * a 429 said 49 s while the key was served again after 3 s, misleading every client. It is now real
 * seconds (the simulated wait ÷ the speed, rounded up, at least 1), on a manual clock the simulated
 * seconds a test must advance; and the contract suite no longer counts its own Retry-After waits as the
 * deployment's slowness.
 */
function mock(options: MockOptions) {
  const service = createMockService(options);
  const call = (path: string, init: { body?: unknown; scenario?: string } = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (init.scenario !== undefined) headers['x-mock-scenario'] = init.scenario;
    const method = init.body === undefined ? 'GET' : 'POST';
    const answer = service.handle(coreRequest(method, path, { headers, body: init.body }));
    return { status: answer.status, retryAfter: answer.headers['retry-after'], body: answer.body };
  };
  return { service, call };
}

const TASK = { model: 'video-pro-v1', prompt: 'a red kite' };

describe("the rate limiter's Retry-After", () => {
  afterEach(() => void vi.useRealTimers());

  it('is real seconds at --speed N: sleeping it is enough, and not 60× too long', () => {
    // A real clock at speed 60 reads the machine's monotonic time (performance.now), here faked: the
    // test moves it by what a client would sleep instead of sleeping (a unit test sleeps for no one).
    // 59 simulated seconds at speed 60: the window lasts 0.98 real seconds.
    vi.useFakeTimers({ toFake: ['performance'] });
    const { call } = mock({ speed: 60, rateLimit: { requests: 2, windowMs: 59_000 } });
    expect(call('/v1/models').status).toBe(200);
    expect(call('/v1/models').status).toBe(200);
    const refused = call('/v1/models');
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('1');
    expect(String(refused.body)).toMatch(
      /2 requests per 59 s of the mock's clock \(60× real time\) for this key; retry after 1 s/,
    );
    // A client that sleeps a little less is still refused; once the real seconds told have passed,
    // the window is over.
    vi.advanceTimersByTime(900);
    expect(call('/v1/models').status).toBe(429);
    vi.advanceTimersByTime(Number(refused.retryAfter) * 1000 - 900);
    expect(call('/v1/models').status).toBe(200);
  });

  it('is the simulated seconds left on a manual clock: what the test must advance it by', () => {
    const { service, call } = mock({
      clock: { mode: 'manual' },
      rateLimit: { requests: 1, windowMs: 60_000 },
    });
    expect(call('/v1/models').status).toBe(200);
    service.clock.advance(10_500);
    const refused = call('/v1/models');
    expect(refused.retryAfter).toBe('50');
    service.clock.advance(49_000);
    expect(call('/v1/models').status).toBe(429);
    service.clock.advance(500);
    expect(call('/v1/models').status).toBe(200);
  });
});

describe("the rate-limit scenario's Retry-After", () => {
  it.each([
    [{ speed: 10 }, 'rate-limit:30', '3'],
    [{ speed: 100 }, 'rate-limit:30', '1'],
    [{ speed: 100 }, 'rate-limit', '1'],
    [{ speed: 0.5 }, 'rate-limit:2.5', '5'],
    [{ clock: { mode: 'manual' as const } }, 'rate-limit:30', '30'],
    [{ speed: 100 }, 'rate-limit:0', '0'],
  ])('with %o, %s says %s s', (options, scenario, expected) => {
    const { call, service } = mock(options);
    const refused = call('/v1/videos', { body: TASK, scenario });
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe(expected);
    expect(String(refused.body)).toContain(`retry after ${expected} s`);
    expect(service.store.size).toBe(0);
  });
});

describe('the contract suite', () => {
  it("does not count its own wait for a 429's Retry-After as the submission's time (§1: at once)", async () => {
    const { report } = await checkInProcess(
      { defects: [firstSubmissionsRateLimited(1, 11)] },
      { budget: 2 },
    );
    const atOnce = report.results.find((r) => r.id === 'submission.at-once')!;
    expect(atOnce.violations).toEqual([]);
    expect(atOnce.passes).toBeGreaterThan(0);
    expect(report.ok).toBe(true);
  });
});
