// The generic wrapper form of a task (§2.3), judged on its own and against the OpenAI form.
import {
  canTransition,
  fromWrapperStatus,
  type Lifecycle,
  type VideoStatus,
} from '../../src/spec/index.ts';
import type { Exchange } from '../http-recorder.ts';
import type { Evidence } from '../verdicts.ts';
import type { Cell } from '../matrix/cells.ts';
import { judgeBody } from './body-rules.ts';
import { CHECKS } from './definitions.ts';
import { evidenceOf } from './evidence.ts';
import { judgeTimestamps } from './timestamps.ts';
import type { Context, VideoView } from './task-object.ts';

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

type WrapperData = NonNullable<WrapperView['data']>;

/** Judges the generic wrapper (§2.3) and its agreement with the OpenAI form read just before it. */
export function judgeWrapper(
  { verdicts: v, recorder }: Context,
  exchange: Exchange,
  taskId: string,
  video: VideoView | undefined,
  cell?: Cell,
): void {
  const ev = evidenceOf(recorder, exchange, taskId, cell);
  judgeWrapperSchema(v, exchange, ev);
  const body = exchange.json as WrapperView;
  if (body === null || typeof body !== 'object') return;
  const completed = video?.status === 'completed' || wrapperSaysCompleted(v.lifecycle, body);
  judgeBody({ verdicts: v }, exchange, taskId, ev, { form: 'wrapper', completed });
  v.expect(
    CHECKS.wrapperSuccess,
    body.code === 'success' && body.message === '',
    `code ${JSON.stringify(body.code)} / message ${JSON.stringify(body.message)} on a successful query`,
    ev,
  );
  const data = body.data;
  if (data === null || data === undefined || typeof data !== 'object') return;
  const { created_at, updated_at } = data;
  judgeTimestamps(v, CHECKS.wrapperUnixTimestamps, exchange, { created_at, updated_at }, ev);
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
  judgeFormsAgree(v, { data, status: data.status, progress }, video, ev);
}

/** The wrapper against the documented schema, then (when that holds) against the assumptions too. */
function judgeWrapperSchema(v: Context['verdicts'], exchange: Exchange, ev: Evidence): void {
  const schema = v.spec.validators.response('getVideoGeneration', 200)!.body('application/json')!;
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
}

function wrapperSaysCompleted(lifecycle: Lifecycle, body: WrapperView): boolean {
  const wrapped = body.data?.status;
  return typeof wrapped === 'string' && fromWrapperStatus(lifecycle, wrapped) === 'completed';
}

/**
 * The two forms of one task agree: a failed task fails in both, and the wrapper (read just after the
 * OpenAI form) shows the same state or one step ahead, no less progress, the same result address.
 */
function judgeFormsAgree(
  v: Context['verdicts'],
  wrapper: { data: WrapperData; status: string; progress: RegExpExecArray | null },
  video: VideoView,
  ev: Evidence,
): void {
  const { lifecycle } = v;
  const { data, progress } = wrapper;
  const mapped = fromWrapperStatus(lifecycle, wrapper.status);
  if (video.status === 'failed') judgeFailedBoth(v, data, ev);
  // The wrapper is read just after the OpenAI form: it may legitimately be one step ahead.
  const status = video.status as VideoStatus;
  const sameOrAhead =
    mapped !== undefined &&
    lifecycle.states.values.includes(status) &&
    (mapped === status || (canTransition(lifecycle, status, mapped) && mapped !== 'unknown'));
  v.expect(
    CHECKS.formsAgree,
    sameOrAhead,
    `the OpenAI form says ${String(video.status)} but the wrapper says ${wrapper.status}`,
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

/** A failed task is `FAILURE` with a reason in the wrapper too. */
function judgeFailedBoth(v: Context['verdicts'], data: WrapperData, ev: Evidence): void {
  const failedBoth =
    data.status === 'FAILURE' && typeof data.fail_reason === 'string' && data.fail_reason !== '';
  v.expect(
    CHECKS.wrapperFailure,
    failedBoth,
    `a failed task shows wrapper status ${JSON.stringify(data.status)} with ` +
      `fail_reason ${JSON.stringify(data.fail_reason)}`,
    ev,
  );
}
