import { describe, expect, it } from 'vitest';
import { PollTimeoutError } from '../../src/client/errors.ts';
import { pollTask, type GetTask } from '../../src/client/poller.ts';
import type { VideoStatus } from '../../src/spec/index.ts';
import { fakeTime } from './fake-time.ts';
import { on, running, script, task } from './poll-script.ts';

/** The §8 waits: 5 s, then ×1.5 up to the 30 s ceiling. */
const NORMAL_WAITS = [5000, 7500, 11250, 16875, 25312.5, 30000, 30000, 30000, 30000];

describe('pollTask schedule (§8)', () => {
  it('waits first, then queries at 5000, 12500, 23750, … ms: waits grow ×1.5 to a 30 s ceiling', async () => {
    const time = fakeTime(1_000_000);
    const { getTask, calls } = script(time, [...running(8), 'completed']);
    const result = await pollTask(getTask, 'task_1', on(time));
    expect(time.sleeps).toEqual(NORMAL_WAITS);
    const table = calls.map((c, i) => ({
      attempt: i + 1,
      wait: NORMAL_WAITS[i],
      at: c.at - 1_000_000,
    }));
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
    const getTask: GetTask = () => {
      calls.push(time.now());
      time.advance(latencies[calls.length - 1] ?? 0);
      return Promise.resolve(task(calls.length === 4 ? 'completed' : 'queued'));
    };
    await pollTask(getTask, 'task_1', on(time));
    // 5000 (took 1 s), 12500 (took 40 s, past 23750), then 11250 after its end (52500 + 11250),
    // then on schedule.
    expect(calls).toEqual([5000, 12500, 63750, 80625]);
  });

  it('stops after 60 queries with PollTimeoutError (task id, attempts, last status)', async () => {
    const time = fakeTime();
    const { getTask, calls } = script(time, ['in_progress']);
    const error = await pollTask(getTask, 'task_1', on(time)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error).toMatchObject({ taskId: 'task_1', attempts: 60, lastStatus: 'in_progress' });
    expect((error as Error).message).toMatch(/task_1.*60 attempts.*in_progress.*not resubmitted/);
    expect(calls).toHaveLength(60);
    expect(calls.at(-1)!.at).toBe(65937.5 + 55 * 30000);
  });

  it('stops at the total timeout: the last wait is cut to end at it, and one last query is made there', async () => {
    const time = fakeTime();
    const { getTask, calls } = script(time, ['queued']);
    const error = await pollTask(getTask, 'task_1', { ...on(time), timeoutMs: 60_000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'PollTimeoutError', attempts: 5, lastStatus: 'queued' });
    expect(calls.map((c) => c.at)).toEqual([5000, 12500, 23750, 40625, 60000]);
  });

  it('lowers the rate while the status is unknown (§3): each wait ×2, up to 60 s; back to normal after', async () => {
    const unknownTime = fakeTime();
    const unknownFirst: VideoStatus[] = [
      ...Array<VideoStatus>(7).fill('unknown'),
      'queued',
      'completed',
    ];
    await pollTask(script(unknownTime, unknownFirst).getTask, 'task_1', on(unknownTime));
    const normalTime = fakeTime();
    await pollTask(
      script(normalTime, [...running(8), 'completed']).getTask,
      'task_1',
      on(normalTime),
    );
    expect(unknownTime.sleeps).toEqual([
      5000, 15000, 22500, 33750, 50625, 60000, 60000, 60000, 30000,
    ]);
    expect(normalTime.sleeps).toEqual(NORMAL_WAITS);
    for (let i = 1; i < 8; i++)
      expect(unknownTime.sleeps[i]!).toBeGreaterThan(normalTime.sleeps[i]!);
  });

  it('also slows down for a status the lifecycle does not know (§3: "state not recognised")', async () => {
    const time = fakeTime();
    await pollTask(
      script(time, ['paused' as VideoStatus, 'completed']).getTask,
      'task_1',
      on(time),
    );
    expect(time.sleeps).toEqual([5000, 15000]);
  });
});
