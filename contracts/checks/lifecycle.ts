import { randomUUID } from 'node:crypto';
import { ApiError, ServerError } from '../../src/client/errors.ts';
import { pollTask } from '../../src/client/poller.ts';
import { realSleep } from '../../src/client/sleep.ts';
import { PollTimeoutError } from '../../src/client/errors.ts';
import { serviceContract, type VideoTask } from '../../src/spec/index.ts';
import type { Exchange } from '../http-recorder.ts';
import type { RunContext } from '../run-context.ts';
import { CHECKS } from './definitions.ts';
import { evidenceOf, is2xx, is4xx, isJsonBody, videoSignature } from './evidence.ts';
import { judgeErrorEnvelope } from './probes.ts';
import { judgeSequence, type Poll } from './sequence.ts';
import { judgeVideoObject, judgeWrapper, type VideoView } from './task-object.ts';

const { lifecycle } = serviceContract();
const SUBMIT_PATHS = { generations: '/v1/video/generations', videos: '/v1/videos' } as const;
export type SubmitPath = keyof typeof SUBMIT_PATHS;

/** A submission that may create a task: only sent when the budget allows one more. */
async function submit(
  ctx: RunContext,
  label: string,
  path: string,
  body: unknown,
  as: 'primary' | 'none' = 'primary',
): Promise<Exchange | undefined> {
  if (!ctx.budget.reserve()) return undefined;
  const exchange = await ctx.recorder.send(label, 'POST', path, {
    as,
    json: body,
    requestId: `videotask-contract-${randomUUID()}`,
  });
  ctx.budget.settle(is2xx(exchange));
  return exchange;
}

/** An empty or blank prompt is invalid (§7), and a submission without a key is refused (§5, §7). */
export async function probeSubmissionRefusals(ctx: RunContext): Promise<void> {
  const { verdicts: v, recorder, target } = ctx;
  for (const [name, prompt] of [
    ['an empty prompt', ''],
    ['a blank prompt', ' \n\t '],
  ] as const) {
    const exchange = await submit(ctx, `submit ${name}`, SUBMIT_PATHS.generations, {
      model: target.model,
      prompt,
    });
    if (exchange === undefined) {
      v.skip(
        CHECKS.emptyPrompt,
        'the task budget leaves nothing for a submission that a broken deployment could accept',
      );
      continue;
    }
    v.expect(
      CHECKS.emptyPrompt,
      is4xx(exchange),
      `${name} answered HTTP ${exchange.status}${is2xx(exchange) ? ' and created a task' : ''}`,
      evidenceOf(recorder, exchange),
    );
    if (exchange.status >= 400 && isJsonBody(exchange)) judgeErrorEnvelope(ctx, exchange, 400);
  }
  const keyless = await submit(
    ctx,
    'submit without a key',
    SUBMIT_PATHS.generations,
    { model: target.model, prompt: 'videotask contract check' },
    'none',
  );
  if (keyless === undefined)
    v.skip(CHECKS.authRequired, 'the task budget leaves nothing for a keyless submission');
  else
    v.expect(
      CHECKS.authRequired,
      is4xx(keyless),
      `a submission without a key answered HTTP ${keyless.status}`,
      evidenceOf(recorder, keyless),
    );
}

/** Submits one task on a path and follows it to its end, judging everything both forms and content show. */
export async function followTask(ctx: RunContext, path: SubmitPath): Promise<void> {
  const { verdicts: v, recorder, target } = ctx;
  const started = performance.now();
  const submitted = await submit(ctx, `submit via ${SUBMIT_PATHS[path]}`, SUBMIT_PATHS[path], {
    model: target.model,
    prompt: 'videotask contract check: a red kite over a green hill',
    metadata: { duration: 5 },
  });
  if (submitted === undefined) {
    v.skip(
      CHECKS.submissionPaths,
      `the task budget (${target.budget}) does not cover a task on ${SUBMIT_PATHS[path]}`,
    );
    return;
  }
  const ev = evidenceOf(recorder, submitted);
  if (
    !v.expect(
      CHECKS.submissionPaths,
      is2xx(submitted),
      `${SUBMIT_PATHS[path]} refused a valid task with HTTP ${submitted.status}`,
      ev,
    )
  )
    return;
  v.expect(
    CHECKS.submissionAtOnce,
    performance.now() - started < 10_000,
    `the submission took ${Math.round(performance.now() - started)} ms`,
    ev,
  );
  const answer = judgeVideoObject(ctx, submitted, { model: target.model }, 'submission');
  const taskId = typeof answer?.id === 'string' ? answer.id : undefined;
  if (taskId === undefined) return;
  v.expect(
    CHECKS.submissionQueued,
    lifecycle.initial.values.includes(answer!.status as never),
    `the submission says ${String(answer!.status)}`,
    ev,
  );
  ctx.progress(`${taskId} submitted via ${SUBMIT_PATHS[path]}`);

  const polls: Poll[] = [];
  let checkedEarly = false;
  const getTask = async (id: string): Promise<VideoTask> => {
    const exchange = await recorder.send('poll', 'GET', `/v1/videos/${id}`);
    if (exchange.status >= 500 || exchange.status === 0)
      throw new ServerError(
        `temporary answer ${exchange.status}`,
        exchange.status,
        exchange.json,
        undefined,
        undefined,
      );
    if (!is2xx(exchange)) {
      v.violation(
        CHECKS.unknownTaskError,
        `the owner's own task answered HTTP ${exchange.status}`,
        evidenceOf(recorder, exchange, id),
      );
      throw new ApiError(
        `query answered ${exchange.status}`,
        exchange.status,
        exchange.json,
        undefined,
        undefined,
      );
    }
    const video = judgeVideoObject(ctx, exchange, { taskId: id, model: target.model }, 'query');
    const wrapperExchange = await recorder.send(
      'poll wrapper',
      'GET',
      `/v1/video/generations/${id}`,
    );
    if (is2xx(wrapperExchange)) judgeWrapper(ctx, wrapperExchange, id, video);
    polls.push({
      video: video ?? {},
      videoExchange: exchange,
      wrapper: is2xx(wrapperExchange) ? (wrapperExchange.json as never) : undefined,
    });
    if (
      !checkedEarly &&
      video !== undefined &&
      !lifecycle.stopPolling.values.includes(video.status as never)
    ) {
      checkedEarly = await checkContentRefused(ctx, id, String(video.status));
    }
    return (video ?? {}) as VideoTask;
  };

  let final: VideoView | undefined;
  try {
    const result = await pollTask(getTask, taskId, {
      initialIntervalMs: target.poll.initialMs,
      factor: target.poll.factor,
      maxIntervalMs: target.poll.maxMs,
      maxAttempts: target.poll.maxAttempts,
      timeoutMs: target.poll.timeoutMs,
      onUpdate: (task: VideoTask) => ctx.progress(`${taskId} ${task.status} ${task.progress}%`),
    });
    final = result.task;
    v.pass(CHECKS.reachesEnd);
  } catch (error) {
    if (error instanceof PollTimeoutError)
      v.violation(
        CHECKS.reachesEnd,
        `the task was still ${error.lastStatus ?? 'unknown'} after ${error.attempts} polls`,
        { taskId },
      );
    else if (!(error instanceof ApiError)) throw error;
  }
  // One more look, one polling interval after the end: a finished task must stay finished.
  if (final !== undefined) {
    await realSleep(target.poll.maxMs);
    await getTask(taskId).catch(() => undefined);
  }
  judgeSequence(v, recorder, taskId, polls);
  if (!polls.some((p) => p.video.status === 'failed'))
    for (const check of [CHECKS.presenceFailed, CHECKS.wrapperFailure])
      v.skip(check, 'no task failed during the run');
  await checkOwnership(ctx, taskId, final !== undefined && final.status === 'completed');
  if (final?.status === 'completed') await checkDownload(ctx, taskId);
  else if (final?.status === 'failed') await checkContentRefused(ctx, taskId, 'failed');
  if (!checkedEarly)
    v.skip(
      CHECKS.contentBeforeCompletion,
      'the task finished before content could be asked for while it ran',
    );
}

/**
 * Before completion (and for a failed task) content is refused with a JSON error (§3 rule 2, §4.4).
 * A task may complete between the status read and the content request: when content answers 2xx the
 * status is read again, and a task that completed meanwhile makes the observation inconclusive
 * (returns false: try again at the next poll) rather than a false alarm.
 */
async function checkContentRefused(
  ctx: RunContext,
  taskId: string,
  status: string,
): Promise<boolean> {
  const exchange = await ctx.recorder.send(
    `content while ${status}`,
    'GET',
    `/v1/videos/${taskId}/content`,
  );
  const ev = evidenceOf(ctx.recorder, exchange, taskId);
  if (is2xx(exchange) && status !== 'failed') {
    const after = await ctx.recorder.send('status after content', 'GET', `/v1/videos/${taskId}`);
    if ((after.json as { status?: unknown } | undefined)?.status === 'completed') return false;
  }
  if (
    !ctx.verdicts.expect(
      CHECKS.contentBeforeCompletion,
      exchange.status >= 400,
      `content of a ${status} task answered HTTP ${exchange.status} (${exchange.bytes} bytes)`,
      ev,
    )
  )
    return true;
  ctx.verdicts.expect(
    CHECKS.contentJsonErrors,
    isJsonBody(exchange),
    `content of a ${status} task answered a non-JSON error (${exchange.contentType || 'no content type'})`,
    ev,
  );
  return true;
}

/** A completed task downloads as a binary video, not JSON, following redirects (§4.4). */
async function checkDownload(ctx: RunContext, taskId: string): Promise<void> {
  const exchange = await ctx.recorder.send('download', 'GET', `/v1/videos/${taskId}/content`);
  const ev = evidenceOf(ctx.recorder, exchange, taskId);
  const signature = videoSignature(exchange.head);
  const ok =
    is2xx(exchange) &&
    !isJsonBody(exchange) &&
    exchange.bytes > 0 &&
    (signature !== undefined || /^video\//i.test(exchange.contentType));
  ctx.verdicts.expect(
    CHECKS.contentBinary,
    ok,
    `the download answered HTTP ${exchange.status}, ${exchange.contentType || 'no content type'}, ${exchange.bytes} bytes${isJsonBody(exchange) ? ' of JSON' : ''}${signature === undefined ? ', no video container signature' : ''}`,
    ev,
  );
  if (ok)
    ctx.progress(
      `${taskId} downloaded ${exchange.bytes} bytes (${signature ?? exchange.contentType})${exchange.redirected ? ' after a redirect' : ''}`,
    );
}

/** Another user's key sees neither the status nor the content (§5); content errors are JSON (§4.4). */
async function checkOwnership(ctx: RunContext, taskId: string, completed: boolean): Promise<void> {
  const { verdicts: v, recorder, target } = ctx;
  if (target.otherApiKey === undefined) {
    for (const check of [CHECKS.ownerStatus, CHECKS.ownerContent])
      v.skip(check, "needs a second user's key (--other-api-key)");
    return;
  }
  for (const path of [`/v1/videos/${taskId}`, `/v1/video/generations/${taskId}`]) {
    const exchange = await recorder.send('foreign status', 'GET', path, { as: 'other' });
    v.expect(
      CHECKS.ownerStatus,
      exchange.status >= 400,
      `another user's key read the task: HTTP ${exchange.status}`,
      evidenceOf(recorder, exchange, taskId),
    );
  }
  const content = await recorder.send('foreign content', 'GET', `/v1/videos/${taskId}/content`, {
    as: 'other',
  });
  const ev = evidenceOf(recorder, content, taskId);
  if (
    v.expect(
      CHECKS.ownerContent,
      content.status >= 400 && isJsonBody(content),
      `another user's key got HTTP ${content.status} ${isJsonBody(content) ? 'JSON' : `(${content.contentType || 'no content type'}, ${content.bytes} bytes)`} for ${completed ? 'a completed' : 'the'} task's content`,
      ev,
    )
  )
    judgeErrorEnvelope(ctx, content, 404);
}
