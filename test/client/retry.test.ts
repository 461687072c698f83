import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestTimeoutError,
  ServerError,
  SubmissionUnconfirmedError,
} from '../../src/client/errors.ts';
import { submitWithRetry, type Submit } from '../../src/client/retry.ts';
import type { VideoTask } from '../../src/spec/index.ts';
import { fakeTime } from './fake-time.ts';

const TASK: VideoTask = {
  id: 'task_1',
  task_id: 'task_1',
  object: 'video',
  model: 'video-pro-v1',
  status: 'queued',
  progress: 0,
  created_at: 1,
};
const REQUEST_ID = 'req-7f3a';
const rateLimited = (retryAfterMs?: number): RateLimitError =>
  new RateLimitError(
    'Failed to submit: too many requests (HTTP 429)',
    429,
    undefined,
    undefined,
    undefined,
    retryAfterMs,
  );
const socketError = (code: string): Error => Object.assign(new Error(`connect ${code}`), { code });
/** fetch's shape: TypeError('fetch failed') whose cause is the socket error. */
const connection = (code: string): ConnectionError =>
  new ConnectionError(
    `Failed to submit: ${code}`,
    new TypeError('fetch failed', { cause: socketError(code) }),
  );

/** A fake submission: throws the answers in order, then returns the task; logs the request IDs it got. */
function script(answers: readonly Error[]): { submit: Submit; ids: string[] } {
  const ids: string[] = [];
  const submit: Submit = async (requestId) => {
    const answer = answers[ids.length];
    ids.push(requestId);
    if (answer !== undefined) throw answer;
    return TASK;
  };
  return { submit, ids };
}

describe('submitWithRetry: the §7 table', () => {
  it.each([
    [
      '400',
      new BadRequestError(
        'Failed to submit: prompt is empty (HTTP 400)',
        400,
        undefined,
        undefined,
        'invalid_request',
      ),
    ],
    [
      '401',
      new AuthenticationError(
        'Failed to submit: invalid key (HTTP 401)',
        401,
        undefined,
        undefined,
        undefined,
      ),
    ],
    [
      '403',
      new PermissionDeniedError(
        'Failed to submit: model not allowed (HTTP 403)',
        403,
        undefined,
        undefined,
        undefined,
      ),
    ],
    [
      '404',
      new NotFoundError(
        'Failed to submit: no such model (HTTP 404)',
        404,
        undefined,
        undefined,
        undefined,
      ),
    ],
    [
      '503 model_not_found (a routing refusal before any task exists)',
      new ServerError(
        'Failed to submit: No available channel for model x (HTTP 503, model_not_found)',
        503,
        undefined,
        undefined,
        'model_not_found',
      ),
    ],
  ])('a %s is not retried: rethrown at once, 1 call', async (_status, error) => {
    const time = fakeTime();
    const { submit, ids } = script([error]);
    await expect(
      submitWithRetry(submit, { requestId: REQUEST_ID, sleep: time.sleep }),
    ).rejects.toBe(error);
    expect(ids).toEqual([REQUEST_ID]);
    expect(time.sleeps).toEqual([]);
  });

  it.each([
    ['a request timeout', new RequestTimeoutError('Failed to submit: no answer within 30 s')],
    ['ECONNRESET after the request was sent', connection('ECONNRESET')],
    ['EPIPE', connection('EPIPE')],
    [
      'a connection error with no cause (unknown: assume sent)',
      new ConnectionError('socket closed'),
    ],
    ['a 500', new ServerError('Failed to submit: HTTP 500', 500, undefined, undefined, undefined)],
    ['a 503', new ServerError('Failed to submit: HTTP 503', 503, undefined, undefined, undefined)],
  ])(
    '%s leaves the outcome unknown: SubmissionUnconfirmedError with the request ID, 1 call, no resubmission',
    async (_name, error) => {
      const time = fakeTime();
      const { submit, ids } = script([error]);
      const thrown = await submitWithRetry(submit, {
        requestId: REQUEST_ID,
        sleep: time.sleep,
      }).catch((e: unknown) => e);
      expect(thrown).toBeInstanceOf(SubmissionUnconfirmedError);
      expect(thrown).toMatchObject({ requestId: REQUEST_ID, cause: error });
      expect((thrown as Error).message).toMatch(/req-7f3a.*may exist.*not resubmitted/);
      expect(ids).toEqual([REQUEST_ID]);
    },
  );

  it.each(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'])(
    '%s (nothing was sent) rethrows the ConnectionError unchanged, 1 call',
    async (code) => {
      const time = fakeTime();
      const error = connection(code);
      const { submit, ids } = script([error]);
      await expect(
        submitWithRetry(submit, { requestId: REQUEST_ID, sleep: time.sleep }),
      ).rejects.toBe(error);
      expect(ids).toHaveLength(1);
    },
  );

  it('an AggregateError of refusals (one per address) counts as not sent', async () => {
    const error = new ConnectionError(
      'refused',
      new AggregateError([socketError('ECONNREFUSED'), socketError('ECONNREFUSED')]),
    );
    await expect(
      submitWithRetry(script([error]).submit, { requestId: REQUEST_ID, sleep: fakeTime().sleep }),
    ).rejects.toBe(error);
  });
});

describe('submitWithRetry: 429 backoff', () => {
  it('retries a 429 with exponential backoff and returns the task, same request ID every time', async () => {
    const time = fakeTime();
    const { submit, ids } = script([rateLimited(), rateLimited(), rateLimited()]);
    const task = await submitWithRetry(submit, {
      requestId: REQUEST_ID,
      sleep: time.sleep,
      jitter: 0,
    });
    expect(task).toBe(TASK);
    expect(time.sleeps).toEqual([1000, 2000, 4000]);
    expect(ids).toEqual([REQUEST_ID, REQUEST_ID, REQUEST_ID, REQUEST_ID]);
  });

  it('waits at least Retry-After when the server gives one', async () => {
    const time = fakeTime();
    const { submit } = script([
      rateLimited(5000),
      rateLimited(5000),
      rateLimited(5000),
      rateLimited(5000),
    ]);
    await submitWithRetry(submit, { requestId: REQUEST_ID, sleep: time.sleep, random: () => 0.5 });
    // Exponential 1000, 2000, 4000, 8000 (random 0.5: no jitter); Retry-After raises the first three to 5000.
    expect(time.sleeps).toEqual([5000, 5000, 5000, 8000]);
  });

  it('keeps the jitter within ±20 % and the ceiling at maxDelayMs', async () => {
    for (const r of [0, 0.25, 0.999999]) {
      const time = fakeTime();
      await submitWithRetry(script(Array.from({ length: 6 }, () => rateLimited())).submit, {
        requestId: REQUEST_ID,
        sleep: time.sleep,
        random: () => r,
        maxRetries: 6,
        maxDelayMs: 20_000,
      });
      time.sleeps.forEach((delay, i) => {
        const exponential = 1000 * 2 ** i;
        expect(delay).toBeGreaterThanOrEqual(Math.min(exponential * 0.8, 20_000));
        expect(delay).toBeLessThanOrEqual(Math.min(exponential * 1.2, 20_000));
      });
    }
  });

  it('gives up after maxRetries: rethrows the last RateLimitError (1 + 4 calls by default)', async () => {
    const time = fakeTime();
    const errors = Array.from({ length: 6 }, () => rateLimited());
    const { submit, ids } = script(errors);
    const retries: number[] = [];
    await expect(
      submitWithRetry(submit, {
        requestId: REQUEST_ID,
        sleep: time.sleep,
        onRetry: (info) => retries.push(info.retry),
      }),
    ).rejects.toBe(errors[4]);
    expect(ids).toEqual(Array(5).fill(REQUEST_ID));
    expect(retries).toEqual([1, 2, 3, 4]);
  });

  it('a 5xx after a 429 is still unconfirmed (never resubmitted)', async () => {
    const { submit, ids } = script([
      rateLimited(),
      new ServerError('HTTP 502', 502, undefined, undefined, undefined),
    ]);
    await expect(
      submitWithRetry(submit, { requestId: REQUEST_ID, sleep: fakeTime().sleep }),
    ).rejects.toBeInstanceOf(SubmissionUnconfirmedError);
    expect(ids).toHaveLength(2);
  });

  it('an abort during the backoff rejects at once with the reason', async () => {
    const controller = new AbortController();
    const { submit, ids } = script([rateLimited(60_000), rateLimited()]);
    const pending = submitWithRetry(submit, { requestId: REQUEST_ID, signal: controller.signal });
    setImmediate(() => controller.abort('cancelled'));
    await expect(pending).rejects.toBe('cancelled');
    expect(ids).toHaveLength(1);
  });

  it.each([
    [{ requestId: '' }, /requestId/],
    [{ requestId: REQUEST_ID, maxRetries: -1 }, /maxRetries/],
    [{ requestId: REQUEST_ID, baseDelayMs: Number.NaN }, /baseDelayMs/],
    [{ requestId: REQUEST_ID, maxDelayMs: 10 }, /maxDelayMs/],
    [{ requestId: REQUEST_ID, jitter: 1.5 }, /jitter/],
  ])('refuses %o up front with a RangeError naming it', async (options, name) => {
    const { submit, ids } = script([]);
    await expect(submitWithRetry(submit, options)).rejects.toThrow(name);
    await expect(submitWithRetry(submit, options)).rejects.toBeInstanceOf(RangeError);
    expect(ids).toEqual([]);
  });
});
