import { describe, expect, it } from 'vitest';
import { ServerError, SubmissionUnconfirmedError } from '../../src/client/errors.ts';
import { submitWithRetry } from '../../src/client/retry.ts';
import { fakeTime } from './fake-time.ts';
import { REQUEST_ID, TASK, rateLimited, refusal, script } from './submit-script.ts';

describe('submitWithRetry: 429 backoff', () => {
  it('retries a 429 with exponential backoff and returns the task, same request ID every time', async () => {
    const time = fakeTime();
    const { submit, ids } = script([rateLimited(), rateLimited(), rateLimited()]);
    const task = await submitWithRetry(submit, {
      clientRequestId: REQUEST_ID,
      sleep: time.sleep,
      jitter: 0,
    });
    expect(task).toBe(TASK);
    expect(time.sleeps).toEqual([1000, 2000, 4000]);
    expect(ids).toEqual([REQUEST_ID, REQUEST_ID, REQUEST_ID, REQUEST_ID]);
  });

  it('waits at least Retry-After when the server gives one', async () => {
    const time = fakeTime();
    const { submit } = script(Array.from({ length: 4 }, () => rateLimited(5000)));
    await submitWithRetry(submit, {
      clientRequestId: REQUEST_ID,
      sleep: time.sleep,
      random: () => 0.5,
    });
    // Exponential 1000, 2000, 4000, 8000 (random 0.5: no jitter); Retry-After raises the first
    // three to 5000.
    expect(time.sleeps).toEqual([5000, 5000, 5000, 8000]);
  });

  it('keeps the jitter within ±20 % and the ceiling at maxDelayMs', async () => {
    for (const r of [0, 0.25, 0.999999]) {
      const time = fakeTime();
      await submitWithRetry(script(Array.from({ length: 6 }, () => rateLimited())).submit, {
        clientRequestId: REQUEST_ID,
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
        clientRequestId: REQUEST_ID,
        sleep: time.sleep,
        onRetry: (info) => retries.push(info.retry),
      }),
    ).rejects.toBe(errors[4]);
    expect(ids).toEqual(Array(5).fill(REQUEST_ID));
    expect(retries).toEqual([1, 2, 3, 4]);
  });

  it('a 5xx after a 429 is still unconfirmed (never resubmitted)', async () => {
    const { submit, ids } = script([rateLimited(), refusal(ServerError, 'HTTP 502', 502)]);
    await expect(
      submitWithRetry(submit, { clientRequestId: REQUEST_ID, sleep: fakeTime().sleep }),
    ).rejects.toBeInstanceOf(SubmissionUnconfirmedError);
    expect(ids).toHaveLength(2);
  });

  it('an abort during the backoff rejects at once with the reason', async () => {
    const controller = new AbortController();
    const { submit, ids } = script([rateLimited(60_000), rateLimited()]);
    const pending = submitWithRetry(submit, {
      clientRequestId: REQUEST_ID,
      signal: controller.signal,
    });
    setImmediate(() => controller.abort('cancelled'));
    await expect(pending).rejects.toBe('cancelled');
    expect(ids).toHaveLength(1);
  });

  it.each([
    [{ clientRequestId: '' }, /clientRequestId/],
    [{ clientRequestId: REQUEST_ID, maxRetries: -1 }, /maxRetries/],
    [{ clientRequestId: REQUEST_ID, baseDelayMs: Number.NaN }, /baseDelayMs/],
    [{ clientRequestId: REQUEST_ID, maxDelayMs: 10 }, /maxDelayMs/],
    [{ clientRequestId: REQUEST_ID, jitter: 1.5 }, /jitter/],
  ])('refuses %o up front with a RangeError naming it', async (options, name) => {
    const { submit, ids } = script([]);
    await expect(submitWithRetry(submit, options)).rejects.toThrow(name);
    await expect(submitWithRetry(submit, options)).rejects.toBeInstanceOf(RangeError);
    expect(ids).toEqual([]);
  });
});
