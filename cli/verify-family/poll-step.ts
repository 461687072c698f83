import { performance } from 'node:perf_hooks';
import {
  NotFoundError,
  PollTimeoutError,
  type PollResult,
  type VideoTask,
  type VideoTaskClient,
} from '../../src/client/index.ts';
import { ADVICE } from './advice.ts';
import { elapsed } from './elapsed.ts';
import { apiErrorOf, messageOf } from './error-facts.ts';
import type { StepRecorder } from './step-recorder.ts';
import type { VerifySettings } from './verify-settings.ts';

/**
 * §9 step 4: the task polled to its final state with the §8 loop. Returns the final task (completed or
 * failed, §3), or `undefined` when it reached none (the failure is recorded). A failed task fails the
 * step; it is never resubmitted.
 */
export async function pollToFinal(
  client: VideoTaskClient,
  r: StepRecorder,
  task: VideoTask,
  settings: VerifySettings,
): Promise<VideoTask | undefined> {
  const { record } = r;
  const acceptedAt = performance.now();
  let result: PollResult;
  try {
    result = await client.poll(task.id, {
      ...settings.poll,
      signal: settings.signal,
      onUpdate: progressLogger(r),
    });
  } catch (error) {
    record.timings.toFinalStateMs = elapsed(acceptedAt);
    noFinalState(r, task.id, error, settings.signal);
    return undefined;
  }
  record.timings.toFinalStateMs = elapsed(acceptedAt);
  const { task: final, attempts } = result;
  record.finalStatus = final.status;
  if (final.status === 'failed') taskFailed(r, final, attempts);
  else {
    const after = `${record.timings.toFinalStateMs} ms after its submission`;
    r.pass('poll', `${final.id} completed after ${attempts} queries, ${after}`);
    r.log(`step 4: completed after ${attempts} queries`);
  }
  return final;
}

/** Logs `task_… in_progress 50%` whenever status or progress changes. */
function progressLogger(r: StepRecorder): (task: VideoTask) => void {
  let lastShown = '';
  return (t) => {
    const shown = `${t.status} ${t.progress}%`;
    if (shown !== lastShown) r.log(`${t.id} ${shown}`);
    lastShown = shown;
  };
}

function noFinalState(r: StepRecorder, taskId: string, error: unknown, signal: AbortSignal): void {
  const message = messageOf(error);
  const timedOut = error instanceof PollTimeoutError;
  const notFound = error instanceof NotFoundError || apiErrorOf(error)?.code === 'task_not_exist';
  if (signal.aborted)
    r.fail('poll', `interrupted while polling ${taskId}`, ADVICE.interrupted(taskId), error);
  else if (timedOut) r.fail('poll', message, ADVICE.pollTimedOut(taskId, error.lastStatus), error);
  else if (notFound) r.fail('poll', message, ADVICE.pollNotFound(taskId), error);
  else r.fail('poll', message, ADVICE.pollError(taskId), error);
  r.record.finalStatus = timedOut ? (error.lastStatus ?? null) : null;
  r.skipRest('not reached: the task has no final state yet');
}

function taskFailed(r: StepRecorder, final: VideoTask, attempts: number): void {
  const { record } = r;
  const code = final.error?.code ?? '(no error code)';
  record.errorCode = final.error?.code ?? null;
  record.errorMessage = r.redact(final.error?.message ?? '');
  const detail = `task ${final.id} failed after ${attempts} queries: ${code}: ${record.errorMessage}`;
  r.fail('poll', detail, ADVICE.taskFailed(code));
  const noVideo = 'not reached: the task failed, there is no video (§3 rule 2)';
  r.step('download').detail = noVideo;
  r.step('video').detail = noVideo;
}
