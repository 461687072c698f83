import { describe, expect, it } from 'vitest';
import {
  ConnectionError,
  NotFoundError,
  PollTimeoutError,
  RateLimitError,
  RequestTimeoutError,
  ServerError,
} from '../../src/client/errors.ts';
import { pollTask, type GetTask } from '../../src/client/poller.ts';
import type { VideoStatus, VideoTask } from '../../src/spec/index.ts';
import { fakeTime } from './fake-time.ts';
import { mockSource } from './mock-source.ts';

const task = (status: VideoStatus, extra: Partial<VideoTask> = {}): VideoTask => ({
  id: 'task_1',
  object: 'video',
  model: 'video-pro-v1',
  status,
  progress: status === 'completed' ? 100 : 10,
  ...extra,
});

/** A fake service: answers the statuses in order (the last one repeats), logging each query's id and time. */
function script(
  time: ReturnType<typeof fakeTime>,
  answers: readonly (VideoStatus | Error)[],
): { getTask: GetTask; calls: { id: string; at: number }[] } {
  const calls: { id: string; at: number }[] = [];
  const getTask: GetTask = async (id) => {
    const answer = answers[Math.min(calls.length, answers.length - 1)]!;
    calls.push({ id, at: time.now() });
    if (answer instanceof Error) throw answer;
    return task(answer);
  };
  return { getTask, calls };
}

const running = (n: number): VideoStatus[] => Array.from({ length: n }, () => 'in_progress');
const serverError = (): ServerError =>
  new ServerError('Failed to query: HTTP 503', 503, undefined, undefined, undefined);

describe('pollTask schedule (§8)', () => {
  it('waits first, then queries at 5000, 12500, 23750, … ms: waits grow ×1.5 to a 30 s ceiling', async () => {
    const time = fakeTime(1_000_000);
    const { getTask, calls } = script(time, [...running(8), 'completed']);
    const result = await pollTask(getTask, 'task_1', { sleep: time.sleep, now: time.now });
    const waits = [5000, 7500, 11250, 16875, 25312.5, 30000, 30000, 30000, 30000];
    expect(time.sleeps).toEqual(waits);
    const table = calls.map((c, i) => ({ attempt: i + 1, wait: waits[i], at: c.at - 1_000_000 }));
    expect(table).toEqual([
      { attempt: 1, wait: 5000, at: 5000 },
      { attempt: 2, wait: 7500, at: 12500 },
      { attempt: 3, wait: 11250, at: 23750 },
      { attempt: 4, wait: 16875, at: 40625 },
      { attempt: 5, wait: 25312.5, at: 65937.5 },
      { attempt: 6, wait: 30000, at: 95937.5 },
      { attempt: 7, wait: 30000, at: 125937.5 },
      { attempt: 8, wait: 30000, at: 155937.5 },
      { attempt: 9, wait: 30000, at: 185937.5 },
    ]);
    expect(result).toMatchObject({
      attempts: 9,
      elapsedMs: 185937.5,
      task: { status: 'completed' },
    });
  });

  it('keeps the offsets from the start when queries take time; after an overrun it waits a full interval', async () => {
    const time = fakeTime();
    const latencies = [1000, 40_000, 0, 0];
    const calls: number[] = [];
    const getTask: GetTask = async () => {
      calls.push(time.now());
      time.advance(latencies[calls.length - 1] ?? 0);
      return task(calls.length === 4 ? 'completed' : 'queued');
    };
    await pollTask(getTask, 'task_1', { sleep: time.sleep, now: time.now });
    // 5000 (took 1 s), 12500 (took 40 s, past 23750), then 11250 after its end (52500 + 11250), then on schedule.
    expect(calls).toEqual([5000, 12500, 63750, 80625]);
  });

  it('stops after 60 queries with PollTimeoutError (task id, attempts, last status)', async () => {
    const time = fakeTime();
    const { getTask, calls } = script(time, ['in_progress']);
    const error = await pollTask(getTask, 'task_1', { sleep: time.sleep, now: time.now }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error).toMatchObject({ taskId: 'task_1', attempts: 60, lastStatus: 'in_progress' });
    expect((error as Error).message).toMatch(/task_1.*60 attempts.*in_progress.*not resubmitted/);
    expect(calls).toHaveLength(60);
    expect(calls.at(-1)!.at).toBe(65937.5 + 55 * 30000);
  });

  it('stops at the total timeout: the last wait is cut to end at it, and one last query is made there', async () => {
    const time = fakeTime();
    const { getTask, calls } = script(time, ['queued']);
    const error = await pollTask(getTask, 'task_1', {
      sleep: time.sleep,
      now: time.now,
      timeoutMs: 60_000,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'PollTimeoutError', attempts: 5, lastStatus: 'queued' });
    expect(calls.map((c) => c.at)).toEqual([5000, 12500, 23750, 40625, 60000]);
  });

  it('lowers the rate while the status is unknown (§3): each wait ×2, up to 60 s; back to normal after', async () => {
    const unknownTime = fakeTime();
    await pollTask(
      script(unknownTime, [...Array<VideoStatus>(7).fill('unknown'), 'queued', 'completed'])
        .getTask,
      'task_1',
      { sleep: unknownTime.sleep, now: unknownTime.now },
    );
    const normalTime = fakeTime();
    await pollTask(script(normalTime, [...running(8), 'completed']).getTask, 'task_1', {
      sleep: normalTime.sleep,
      now: normalTime.now,
    });
    expect(unknownTime.sleeps).toEqual([
      5000, 15000, 22500, 33750, 50625, 60000, 60000, 60000, 30000,
    ]);
    expect(normalTime.sleeps).toEqual([
      5000, 7500, 11250, 16875, 25312.5, 30000, 30000, 30000, 30000,
    ]);
    for (let i = 1; i < 8; i++)
      expect(unknownTime.sleeps[i]!).toBeGreaterThan(normalTime.sleeps[i]!);
  });

  it('also slows down for a status the lifecycle does not know (§3: "state not recognised")', async () => {
    const time = fakeTime();
    await pollTask(script(time, ['paused' as VideoStatus, 'completed']).getTask, 'task_1', {
      sleep: time.sleep,
      now: time.now,
    });
    expect(time.sleeps).toEqual([5000, 15000]);
  });

  it('returns a failed task (data, not an exception) and calls onUpdate after every query', async () => {
    const time = fakeTime();
    const answers: VideoTask[] = [
      task('queued'),
      task('in_progress'),
      task('failed', { error: { code: 'GenerationTimeout', message: 'late' } }),
    ];
    const updates: [string, number][] = [];
    const result = await pollTask(async () => answers.shift()!, 'task_1', {
      sleep: time.sleep,
      now: time.now,
      onUpdate: (t, n) => updates.push([t.status, n]),
    });
    expect(result.task).toMatchObject({ status: 'failed', error: { code: 'GenerationTimeout' } });
    expect(updates).toEqual([
      ['queued', 1],
      ['in_progress', 2],
      ['failed', 3],
    ]);
  });

  it('rejects promptly with the reason when aborted during a real sleep, leaving no timer', async () => {
    const controller = new AbortController();
    const reason = new Error('user pressed Ctrl-C');
    const timers = (): number =>
      process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const started = performance.now();
    const poll = pollTask(async () => task('queued'), 'task_1', { signal: controller.signal });
    setImmediate(() => controller.abort(reason));
    await expect(poll).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(timers()).toBe(before);
  });

  it('rejects promptly even when an injected sleep ignores the signal', async () => {
    const controller = new AbortController();
    const poll = pollTask(async () => task('queued'), 'task_1', {
      sleep: () => new Promise<void>(() => undefined),
      signal: controller.signal,
    });
    setImmediate(() => controller.abort('stop'));
    await expect(poll).rejects.toBe('stop');
  });
});

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
      await expect(
        pollTask(recovering.getTask, 'task_1', { sleep: time.sleep, now: time.now }),
      ).resolves.toMatchObject({ attempts: 4 });
      expect(recovering.calls.map((c) => c.id)).toEqual(['task_1', 'task_1', 'task_1', 'task_1']);

      const failing = script(time, [error]);
      await expect(
        pollTask(failing.getTask, 'task_1', { sleep: time.sleep, now: time.now }),
      ).rejects.toBe(error);
      expect(failing.calls.map((c) => c.id)).toEqual(['task_1', 'task_1', 'task_1', 'task_1']);
    },
  );

  it('counts failures in a row only: a success in between resets the count', async () => {
    const time = fakeTime();
    const e = serverError();
    const { getTask, calls } = script(time, [e, e, e, 'queued', e, e, e, 'completed']);
    await expect(
      pollTask(getTask, 'task_1', { sleep: time.sleep, now: time.now }),
    ).resolves.toMatchObject({ attempts: 8 });
    expect(calls).toHaveLength(8);
  });

  it('rethrows a 404 at once', async () => {
    const time = fakeTime();
    const notFound = new NotFoundError(
      'Failed to query the task: not found (HTTP 404)',
      404,
      undefined,
      undefined,
      undefined,
    );
    const { getTask, calls } = script(time, [notFound, 'completed']);
    await expect(pollTask(getTask, 'task_1', { sleep: time.sleep, now: time.now })).rejects.toBe(
      notFound,
    );
    expect(calls).toHaveLength(1);
  });

  it('waits at least Retry-After after a 429 on a query', async () => {
    const time = fakeTime();
    const limited = new RateLimitError('slow down', 429, undefined, undefined, undefined, 20_000);
    const { getTask, calls } = script(time, [limited, 'completed']);
    await pollTask(getTask, 'task_1', { sleep: time.sleep, now: time.now });
    expect(calls.map((c) => c.at)).toEqual([5000, 25000]);

    // A Retry-After beyond the total timeout ends the poll instead of querying early.
    const late = script(time, [
      new RateLimitError('slow down', 429, undefined, undefined, undefined, 120_000),
      'completed',
    ]);
    await expect(
      pollTask(late.getTask, 'task_1', { sleep: time.sleep, now: time.now, timeoutMs: 60_000 }),
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
    [{ unknownSlowdown: 0.5 }, /unknownSlowdown/],
    [{ queryRetries: -1 }, /queryRetries/],
    [{ stopOn: ['done' as VideoStatus] }, /stopOn/],
  ])('refuses %o up front with a RangeError naming it', async (options, name) => {
    let called = false;
    const error = await pollTask(
      async () => ((called = true), task('completed')),
      'task_1',
      options,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toMatch(name);
    expect(called).toBe(false);
  });
});

describe('pollTask against the in-process mock', () => {
  it('walks a real task from queued to completed on the §8 schedule', async () => {
    const source = mockSource();
    const id = source.submit();
    const start = source.now();
    const seen: [VideoStatus, number][] = [];
    const result = await pollTask(source.getTask, id, {
      sleep: source.sleep,
      now: source.now,
      onUpdate: (t) => seen.push([t.status, source.now() - start]),
    });
    expect(result.task).toMatchObject({ id, status: 'completed', progress: 100 });
    expect(result.task.metadata?.url).toMatch(/^http/);
    expect(seen.map(([s]) => s)).toContain('in_progress');
    expect(seen.at(-1)![0]).toBe('completed');
    expect(seen.map(([, at]) => at)).toEqual(
      [5000, 12500, 23750, 40625, 65937.5, 95937.5, 125937.5].slice(0, seen.length),
    );
    expect(result.attempts).toBe(seen.length);
    expect(source.service.store.size).toBe(1);
  });
});
