// The OpenAI form of a task (§2.2), judged field by field on a submission answer or a query.
import { missingFields, requiredFields, type VideoStatus } from '../../src/spec/index.ts';
import type { Exchange, HttpRecorder } from '../http-recorder.ts';
import type { Cell } from '../matrix/cells.ts';
import type { Evidence, Verdicts } from '../verdicts.ts';
import { judgeBody } from './body-rules.ts';
import { CHECKS } from './definitions.ts';
import { evidenceOf } from './evidence.ts';
import { judgeTimestamps } from './timestamps.ts';

const PRESENCE_CHECK = {
  completed: CHECKS.presenceCompleted,
  failed: CHECKS.presenceFailed,
} as const;
/** A status with fields of its own (`x-lifecycle.presence.byStatus`), judged by its presence check. */
const hasPresenceCheck = (status: VideoStatus): status is keyof typeof PRESENCE_CHECK =>
  Object.hasOwn(PRESENCE_CHECK, status);

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

export interface Context {
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
  judgeObjectSchema(v, exchange, moment, ev);
  if (body === null || typeof body !== 'object') return undefined;
  if (taskId !== undefined)
    judgeBody({ verdicts: v }, exchange, taskId, ev, {
      form: 'openai',
      completed: moment === 'query' && body.status === 'completed',
    });
  const { created_at, completed_at } = body;
  judgeTimestamps(v, CHECKS.unixTimestamps, exchange, { created_at, completed_at }, ev);

  judgePresence(v, body, moment, ev);
  judgeFieldValues(v, body, expected, ev);
  return body;
}

/** The answer against the documented schema, then (when that holds) against the assumptions too. */
function judgeObjectSchema(
  v: Verdicts,
  exchange: Exchange,
  moment: 'submission' | 'query',
  ev: Evidence,
): void {
  const schema = v.spec.validators
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
}

/** §2.2 presence: always, on submission, and of a finished task; the status is a documented one. */
function judgePresence(
  v: Verdicts,
  body: VideoView,
  moment: 'submission' | 'query',
  ev: Evidence,
): void {
  const { lifecycle } = v;
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
  if (known && moment === 'query' && hasPresenceCheck(status)) {
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
}

/** The fields' values: `task_id` is `id`, `object`, the model echoed, progress, the public ID. */
function judgeFieldValues(
  v: Verdicts,
  body: VideoView,
  expected: { taskId?: string; model: string },
  ev: Evidence,
): void {
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
}
