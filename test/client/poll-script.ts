import { ServerError } from '../../src/client/errors.ts';
import type { GetTask } from '../../src/client/poller.ts';
import type { VideoStatus, VideoTask } from '../../src/spec/index.ts';
import type { fakeTime } from './fake-time.ts';

type FakeTime = ReturnType<typeof fakeTime>;

/** A task `task_1` in `status` (progress 100 once completed, else 10). */
export const task = (status: VideoStatus, extra: Partial<VideoTask> = {}): VideoTask => ({
  id: 'task_1',
  object: 'video',
  model: 'video-pro-v1',
  status,
  progress: status === 'completed' ? 100 : 10,
  ...extra,
});

/**
 * A fake service: answers the statuses in order (the last one repeats), logging each query's id and
 * time.
 */
export function script(
  time: FakeTime,
  answers: readonly (VideoStatus | Error)[],
): { getTask: GetTask; calls: { id: string; at: number }[] } {
  const calls: { id: string; at: number }[] = [];
  const getTask: GetTask = (id) => {
    const answer = answers[Math.min(calls.length, answers.length - 1)]!;
    calls.push({ id, at: time.now() });
    if (answer instanceof Error) return Promise.reject(answer);
    return Promise.resolve(task(answer));
  };
  return { getTask, calls };
}

/** `pollTask` options that run on fake time. */
export const on = (time: FakeTime) => ({ sleep: time.sleep, now: time.now });

export const running = (n: number): VideoStatus[] => Array.from({ length: n }, () => 'in_progress');

export const serverError = (): ServerError =>
  new ServerError('Failed to query: HTTP 503', { status: 503 });
