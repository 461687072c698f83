import {
  fromWrapperStatus,
  missingFields,
  requiredFields,
  serviceContract,
  canTransition,
  type VideoStatus,
} from '../../src/spec/index.ts';
import type { Exchange, HttpRecorder } from '../http-recorder.ts';
import type { Cell } from '../matrix/cells.ts';
import type { Verdicts } from '../verdicts.ts';
import { judgeBody } from './body-rules.ts';
import { CHECKS } from './definitions.ts';
import { evidenceOf } from './evidence.ts';

const { validators, lifecycle } = serviceContract();
const PRESENCE_CHECK = {
  completed: CHECKS.presenceCompleted,
  failed: CHECKS.presenceFailed,
} as const;

export interface VideoView {
  readonly id?: unknown;
  readonly task_id?: unknown;
  readonly object?: unknown;
  readonly model?: unknown;
  readonly status?: unknown;
  readonly progress?: unknown;
  readonly created_at?: unknown;
  readonly completed_at?: unknown;
  readonly metadata?: { readonly url?: unknown } | undefined;
  readonly error?: unknown;
}

export interface WrapperView {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly data?: {
    readonly task_id?: unknown;
    readonly status?: unknown;
    readonly progress?: unknown;
    readonly result_url?: unknown;
    readonly fail_reason?: unknown;
    readonly created_at?: unknown;
    readonly updated_at?: unknown;
  } | null;
}

interface Context {
  readonly verdicts: Verdicts;
  readonly recorder: HttpRecorder;
}

/** Judges one OpenAI-form task object (a submission answer or a query), field rules of §2.2. */
export function judgeVideoObject(
  { verdicts: v, recorder }: Context,
  exchange: Exchange,
  expected: { taskId?: string; model: string },
  moment: 'submission' | 'query',
  cell?: Cell,
): VideoView | undefined {
  const body = exchange.json as VideoView;
  const taskId = expected.taskId ?? (typeof body?.id === 'string' ? body.id : undefined);
  const ev = evidenceOf(recorder, exchange, taskId, cell);
  const schema = validators
    .response(moment === 'submission' ? 'createVideo' : 'getVideo', 200)!
    .body('application/json')!;
  const documented = schema.validate(exchange.json);
  const full = schema.validateFull(exchange.json);
  const shape = moment === 'submission' ? CHECKS.submissionShape : CHECKS.taskShape;
  v.expect(
    shape,
    documented.valid,
    `the task object breaks the documented schema: ${documented.errors.join('; ')}`,
    ev,
  );
  if (documented.valid)
    v.expect(
      moment === 'submission' ? CHECKS.submissionShapeAssumed : CHECKS.taskShapeAssumed,
      full.valid,
      `the task object breaks an assumption: ${full.errors.join('; ')}`,
      ev,
    );
  if (body === null || typeof body !== 'object') return undefined;
  if (taskId !== undefined) judgeBody({ verdicts: v }, exchange, taskId, ev);

  v.expect(
    CHECKS.presenceAlways,
    missingFields(body, lifecycle.presence.always.fields).length === 0,
    `missing ${missingFields(body, lifecycle.presence.always.fields).join(', ')}`,
    ev,
  );
  if (moment === 'submission') {
    const missing = missingFields(body, lifecycle.presence.onSubmission.fields);
    v.expect(
      CHECKS.submissionPresence,
      missing.length === 0,
      `the submission answer lacks ${missing.join(', ')}`,
      ev,
    );
  }
  const status = body.status as VideoStatus;
  const known = lifecycle.states.values.includes(status);
  v.expect(
    CHECKS.statusDocumented,
    known,
    `status ${JSON.stringify(body.status)} is not one of ${lifecycle.states.values.join(', ')}`,
    ev,
  );
  if (known && moment === 'query' && (status === 'completed' || status === 'failed')) {
    const missing = requiredFields(lifecycle, status, 'query').flatMap((r) =>
      missingFields(body, r.fields),
    );
    v.expect(
      PRESENCE_CHECK[status],
      missing.length === 0,
      `a ${status} task lacks ${missing.join(', ')}`,
      ev,
    );
  }
  if (body.task_id !== undefined)
    v.expect(
      CHECKS.taskIdEqualsId,
      body.task_id === body.id,
      `task_id ${JSON.stringify(body.task_id)} differs from id ${JSON.stringify(body.id)}`,
      ev,
    );
  v.expect(
    CHECKS.objectIsVideo,
    body.object === 'video',
    `object is ${JSON.stringify(body.object)}, not "video"`,
    ev,
  );
  v.expect(
    CHECKS.modelEchoed,
    body.model === expected.model,
    `model is ${JSON.stringify(body.model)}, not the requested ${JSON.stringify(expected.model)}`,
    ev,
  );
  const p = body.progress;
  v.expect(
    CHECKS.progressRange,
    typeof p === 'number' && Number.isInteger(p) && p >= 0 && p <= 100,
    `progress ${JSON.stringify(p)} is not an integer from 0 to 100`,
    ev,
  );
  if (expected.taskId !== undefined)
    v.expect(
      CHECKS.publicIdOnly,
      body.id === expected.taskId,
      `the task answers with id ${JSON.stringify(body.id)}, not its public ID`,
      ev,
    );
  return body;
}

/** Judges the generic wrapper (§2.3) and its agreement with the OpenAI form read just before it. */
export function judgeWrapper(
  { verdicts: v, recorder }: Context,
  exchange: Exchange,
  taskId: string,
  video: VideoView | undefined,
  cell?: Cell,
): void {
  const ev = evidenceOf(recorder, exchange, taskId, cell);
  const schema = validators.response('getVideoGeneration', 200)!.body('application/json')!;
  const documented = schema.validate(exchange.json);
  v.expect(
    CHECKS.wrapperShape,
    documented.valid,
    `the wrapper breaks the documented schema: ${documented.errors.join('; ')}`,
    ev,
  );
  if (documented.valid) {
    const full = schema.validateFull(exchange.json);
    v.expect(
      CHECKS.wrapperShapeAssumed,
      full.valid,
      `the wrapper breaks an assumption: ${full.errors.join('; ')}`,
      ev,
    );
  }
  const body = exchange.json as WrapperView;
  if (body === null || typeof body !== 'object') return;
  judgeBody({ verdicts: v }, exchange, taskId, ev);
  v.expect(
    CHECKS.wrapperSuccess,
    body.code === 'success' && body.message === '',
    `code ${JSON.stringify(body.code)} / message ${JSON.stringify(body.message)} on a successful query`,
    ev,
  );
  const data = body.data;
  if (data === null || data === undefined || typeof data !== 'object') return;
  v.expect(
    CHECKS.publicIdOnly,
    data.task_id === undefined || data.task_id === taskId,
    `the wrapper names the task ${JSON.stringify(data.task_id)}, not its public ID ${taskId}`,
    ev,
  );
  const progress = typeof data.progress === 'string' ? /^(\d{1,3})%$/.exec(data.progress) : null;
  if (data.progress !== undefined)
    v.expect(
      CHECKS.wrapperProgress,
      progress !== null && Number(progress[1]) <= 100,
      `progress ${JSON.stringify(data.progress)} is not "<n>%"`,
      ev,
    );
  if (video === undefined || typeof data.status !== 'string') return;
  const mapped = fromWrapperStatus(lifecycle, data.status);
  if (video.status === 'failed') {
    const failedBoth =
      data.status === 'FAILURE' && typeof data.fail_reason === 'string' && data.fail_reason !== '';
    v.expect(
      CHECKS.wrapperFailure,
      failedBoth,
      `a failed task shows wrapper status ${JSON.stringify(data.status)} with fail_reason ${JSON.stringify(data.fail_reason)}`,
      ev,
    );
  }
  // The wrapper is read just after the OpenAI form: it may legitimately be one step ahead.
  const status = video.status as VideoStatus;
  const sameOrAhead =
    mapped !== undefined &&
    lifecycle.states.values.includes(status) &&
    (mapped === status || (canTransition(lifecycle, status, mapped) && mapped !== 'unknown'));
  v.expect(
    CHECKS.formsAgree,
    sameOrAhead,
    `the OpenAI form says ${String(video.status)} but the wrapper says ${data.status}`,
    ev,
  );
  if (mapped === status && progress !== null && typeof video.progress === 'number')
    v.expect(
      CHECKS.formsAgree,
      Number(progress[1]) >= video.progress,
      `the OpenAI form says ${video.progress}% but the wrapper says ${String(data.progress)}`,
      ev,
    );
  if (
    status === 'completed' &&
    mapped === 'completed' &&
    typeof data.result_url === 'string' &&
    typeof video.metadata?.url === 'string'
  )
    v.expect(
      CHECKS.formsAgree,
      data.result_url === video.metadata.url,
      'the wrapper result_url differs from metadata.url',
      ev,
    );
}
