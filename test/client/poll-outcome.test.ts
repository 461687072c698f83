import { describe, expect, it } from 'vitest';
import { pollTask } from '../../src/client/poller.ts';
import { RECOMMENDED_POLLING, type VideoStatus, type VideoTask } from '../../src/spec/index.ts';
import { fakeTime } from './fake-time.ts';
import { mockSource } from './mock-source.ts';
import { on, task } from './poll-script.ts';

describe('pollTask results and cancellation', () => {
  it('returns a failed task (data, not an exception) and calls onUpdate after every query', async () => {
    const time = fakeTime();
    const answers: VideoTask[] = [
      task('queued'),
      task('in_progress'),
      task('failed', { error: { code: 'GenerationTimeout', message: 'late' } }),
    ];
    const updates: [string, number][] = [];
    const result = await pollTask(() => Promise.resolve(answers.shift()!), 'task_1', {
      ...on(time),
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
    const poll = pollTask(() => Promise.resolve(task('queued')), 'task_1', {
      signal: controller.signal,
    });
    setImmediate(() => controller.abort(reason));
    await expect(poll).rejects.toBe(reason);
    // Before the first sleep would have ended: the abort cut it short (not a guess at how fast).
    expect(performance.now() - started).toBeLessThan(RECOMMENDED_POLLING.initialIntervalMs);
    expect(timers()).toBe(before);
  });

  it('rejects promptly even when an injected sleep ignores the signal', async () => {
    const controller = new AbortController();
    const poll = pollTask(() => Promise.resolve(task('queued')), 'task_1', {
      sleep: () => new Promise<void>(() => undefined),
      signal: controller.signal,
    });
    setImmediate(() => controller.abort('stop'));
    await expect(poll).rejects.toBe('stop');
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
