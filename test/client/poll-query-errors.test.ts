import { describe, expect, it } from 'vitest';
import {
  ConnectionError,
  NotFoundError,
  RateLimitError,
  RequestTimeoutError,
} from '../../src/client/errors.ts';
import { pollTask } from '../../src/client/poller.ts';
import type { VideoStatus } from '../../src/client/index.ts';
import { fakeTime } from './fake-time.ts';
import { on, script, serverError, task } from './poll-script.ts';

const rateLimited = (retryAfterMs: number) =>
  new RateLimitError('slow down', { status: 429, retryAfterMs });

describe('pollTask query errors (§7)', () => {
  it.each([
    ['ServerError (5xx)', serverError()],
    [
      'ConnectionError',
      new ConnectionError(
        'socket hang up',
        Object.assign(new Error('reset'), { code: 'ECONNRESET' }),
      ),
    ],
    ['RequestTimeoutError', new RequestTimeoutError('query timed out')],
  ])(
    'retries the same query after a %s, up to 3 in a row, then rethrows it',
    async (_name, error) => {
      const time = fakeTime();
      const recovering = script(time, [error, error, error, 'completed']);
      await expect(pollTask(recovering.getTask, 'task_1', on(time))).resolves.toMatchObject({
        attempts: 4,
      });
      expect(recovering.calls.map((c) => c.id)).toEqual(['task_1', 'task_1', 'task_1', 'task_1']);

      const failing = script(time, [error]);
      await expect(pollTask(failing.getTask, 'task_1', on(time))).rejects.toBe(error);
      expect(failing.calls.map((c) => c.id)).toEqual(['task_1', 'task_1', 'task_1', 'task_1']);
    },
  );

  it('counts failures in a row only: a success in between resets the count', async () => {
    const time = fakeTime();
    const e = serverError();
    const { getTask, calls } = script(time, [e, e, e, 'queued', e, e, e, 'completed']);
    await expect(pollTask(getTask, 'task_1', on(time))).resolves.toMatchObject({ attempts: 8 });
    expect(calls).toHaveLength(8);
  });

  it('rethrows a 404 at once', async () => {
    const time = fakeTime();
    const notFound = new NotFoundError('Failed to query the task: not found (HTTP 404)', {
      status: 404,
    });
    const { getTask, calls } = script(time, [notFound, 'completed']);
    await expect(pollTask(getTask, 'task_1', on(time))).rejects.toBe(notFound);
    expect(calls).toHaveLength(1);
  });

  it('waits at least Retry-After after a 429 on a query', async () => {
    const time = fakeTime();
    const { getTask, calls } = script(time, [rateLimited(20_000), 'completed']);
    await pollTask(getTask, 'task_1', on(time));
    expect(calls.map((c) => c.at)).toEqual([5000, 25000]);

    // A Retry-After beyond the total timeout ends the poll instead of querying early.
    const late = script(time, [rateLimited(120_000), 'completed']);
    await expect(
      pollTask(late.getTask, 'task_1', { ...on(time), timeoutMs: 60_000 }),
    ).rejects.toMatchObject({ name: 'PollTimeoutError', attempts: 1 });
    expect(late.calls).toHaveLength(1);
  });
});

describe('pollTask options', () => {
  it.each([
    [{ initialIntervalMs: -1 }, /initialIntervalMs/],
    [{ factor: 0.5 }, /factor/],
    [{ maxIntervalMs: 1000 }, /maxIntervalMs/],
    [{ maxAttempts: 1.5 }, /maxAttempts/],
    [{ timeoutMs: Number.POSITIVE_INFINITY }, /timeoutMs/],
    [{ queryRetries: -1 }, /queryRetries/],
    [{ stopOn: ['done' as VideoStatus] }, /stopOn/],
  ])('refuses %o up front with a RangeError naming it', async (options, name) => {
    let called = false;
    const error = await pollTask(
      () => {
        called = true;
        return Promise.resolve(task('completed'));
      },
      'task_1',
      options,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toMatch(name);
    expect(called).toBe(false);
  });
});
