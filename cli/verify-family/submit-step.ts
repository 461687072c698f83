import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  SubmissionUnconfirmedError,
  submitWithRetry,
  type RetryInfo,
  type VideoTaskClient,
  type WithMeta,
} from '../../src/client/index.ts';
import type { VideoTask } from '../../src/spec/index.ts';
import { ADVICE } from './advice.ts';
import { elapsed } from './elapsed.ts';
import { messageOf } from './error-facts.ts';
import type { StepRecorder } from './step-recorder.ts';
import { submissionAdvice } from './submission-advice.ts';
import type { VerifySettings } from './verify-settings.ts';

/** The deployed gateway's billing header on a submission answer (reference gateway facts). */
export const OTHER_RATIOS_HEADER = 'X-New-Api-Other-Ratios';

const ASSUMED_DURATION =
  " (an assumption: the document does not show the family's durations, §8; pass --seconds N to " +
  'state it)';

function durationNote(settings: VerifySettings): string {
  const source = settings.secondsGiven ? ' (given with --seconds)' : ASSUMED_DURATION;
  return `metadata.duration ${settings.seconds} s${source}`;
}

function retryLine(info: RetryInfo): string {
  const seconds = (info.delayMs / 1000).toFixed(1);
  return `rate limited (HTTP 429): retry ${info.retry} of the same submission in ${seconds} s (§7)`;
}

/**
 * §9 step 3: one short task through the entry the second family uses (`POST /v1/videos`, §4). Never
 * submits twice: a 429 is retried with the same request ID (§7), nothing else is. Returns the accepted
 * task, or `undefined` when the run stops here (the failure is recorded).
 */
export async function submitOnce(
  client: VideoTaskClient,
  r: StepRecorder,
  settings: VerifySettings,
): Promise<VideoTask | undefined> {
  const { record } = r;
  const clientRequestId = `vf-${randomUUID()}`;
  record.clientRequestId = clientRequestId;
  const body = {
    model: record.model,
    prompt: settings.prompt,
    metadata: { duration: settings.seconds },
  };
  const submit = (id: string, signal?: AbortSignal) =>
    client.withResponse().submit(body, { endpoint: 'videos', clientRequestId: id, signal });
  const submittedAt = performance.now();
  let answer: WithMeta<VideoTask>;
  try {
    const onRetry = (info: RetryInfo) => r.log(retryLine(info));
    const retry = { clientRequestId, signal: settings.signal, onRetry };
    answer = await submitWithRetry(submit, retry);
  } catch (error) {
    record.timings.submitMs = elapsed(submittedAt);
    refused(r, error, settings.signal);
    return undefined;
  }
  record.timings.submitMs = elapsed(submittedAt);
  const otherRatios = answer.meta.headers[OTHER_RATIOS_HEADER.toLowerCase()];
  record.otherRatios = otherRatios === undefined ? null : r.redact(otherRatios);
  accepted(r, answer.data, settings);
  return answer.data;
}

function accepted(r: StepRecorder, task: VideoTask, settings: VerifySettings): void {
  const { record } = r;
  record.taskId = task.id;
  const ratios =
    record.otherRatios === null ? '' : `; ${OTHER_RATIOS_HEADER} ${record.otherRatios}`;
  const took = `in ${record.timings.submitMs} ms`;
  const detail =
    `POST /v1/videos accepted task ${task.id} (status ${task.status}) ${took}; ` +
    `${durationNote(settings)}; client request ID ${record.clientRequestId}${ratios}`;
  r.pass('submit', detail);
  r.log(`step 3: submitted ${task.id} (${task.status}) ${took}${ratios}`);
}

function refused(r: StepRecorder, error: unknown, signal: AbortSignal): void {
  if (signal.aborted) {
    const advice = ADVICE.unconfirmed(r.record.clientRequestId!);
    r.fail('submit', 'interrupted during the submission', advice, error);
    r.skipRest('not reached: interrupted');
    return;
  }
  const detail = `POST /v1/videos was refused: ${messageOf(error)}`;
  r.fail('submit', detail, submissionAdvice(error), error);
  r.skipRest(
    error instanceof SubmissionUnconfirmedError
      ? 'not reached: the submission could not be confirmed'
      : 'not reached: the submission was refused; nothing was created',
  );
}
