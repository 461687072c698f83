import { operationsWith } from '../../src/spec/route-roles.ts';
import { ApiError, RateLimitError, ServerError } from '../../src/client/errors.ts';
import {
  fromWrapperStatus,
  type Lifecycle,
  type VideoStatus,
  type VideoTask,
} from '../../src/spec/index.ts';
import { kept, keyOf, type Exchange } from '../http-recorder.ts';
import {
  routePath,
  type Caller,
  type Cell,
  type RouteId,
  type TaskState,
} from '../matrix/index.ts';
import type { LifecycleTask, RunContext } from '../run-context.ts';
import { judgeable, judgeIdentifiersOfAnswer, judgeRateLimit } from './answered.ts';
import { judgeContentIntegrity } from './content-integrity.ts';
import { CHECKS } from './definitions.ts';
import { judgeDownload } from './download.ts';
import { evidenceOf, is2xx } from './evidence.ts';
import { judgeNativeQuery } from './native.ts';
import { backoffMs, LONGEST_WAIT_MS, sendPatiently } from './rate-limited.ts';
import { judgeRefusal } from './refusal.ts';
import type { Poll } from './sequence.ts';
import { judgeVideoObject, type VideoView } from './task-object.ts';
import { judgeWrapper, type WrapperView } from './wrapper-object.ts';

const MAX_ATTEMPTS = 3;

/** The fields of `VideoView` and `WrapperView`: what a poll keeps of each form. */
const VIDEO_FIELDS = [
  'id',
  'task_id',
  'object',
  'model',
  'status',
  'progress',
  'created_at',
  'completed_at',
  'metadata',
  'error',
] as const;
const WRAPPER_FIELDS = ['code', 'message', 'data'] as const;
/** The most of a string, and of a nested object's entries, a poll keeps. */
const KEPT_TEXT = 1024;
const KEPT_ENTRIES = 32;

/**
 * The `fields` of a parsed answer, each a primitive (a long string cut) or an object of primitives
 * (its first entries): all a poll needs later, in bounded memory whatever the answer held.
 */
function keptView<T>(value: unknown, fields: readonly string[]): T {
  const source = (value !== null && typeof value === 'object' ? value : {}) as Record<
    string,
    unknown
  >;
  const out: Record<string, unknown> = {};
  for (const field of fields)
    if (Object.hasOwn(source, field)) out[field] = keptValue(source[field], 1);
  return out as T;
}

function keptValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string')
    return value.length > KEPT_TEXT ? `${value.slice(0, KEPT_TEXT)}…` : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth === 0 || Array.isArray(value)) return {};
  const entries = Object.entries(value).slice(0, KEPT_ENTRIES);
  return Object.fromEntries(entries.map(([k, v]) => [k, keptValue(v, depth - 1)]));
}

/** The client's error for a query the owner could not read: temporary (retried by the poller) or not. */
function clientError(exchange: Exchange): ApiError {
  const waitMs = exchange.status === 429 ? backoffMs(exchange, 1) : 0;
  // A Retry-After past the run's budget for one 429 is not waited, by the poller either (rate-limited.ts).
  if (waitMs > LONGEST_WAIT_MS)
    return new ApiError(`query rate limited for ${Math.ceil(waitMs / 1000)} s`, {
      status: 429,
      body: exchange.json,
    });
  if (exchange.status === 429)
    return new RateLimitError('query rate limited', {
      status: 429,
      body: exchange.json,
      retryAfterMs: waitMs,
    });
  const temporary = exchange.status >= 500 || exchange.status === 0;
  const Kind = temporary ? ServerError : ApiError;
  return new Kind(`query answered ${exchange.status}`, {
    status: exchange.status,
    body: exchange.json,
  });
}

/** The state a look shows: the OpenAI form's, or the wrapper's mapped back when the OpenAI form's is not documented. */
function stateOf(
  lifecycle: Lifecycle,
  video: VideoView | undefined,
  wrapper: Exchange,
): TaskState | undefined {
  const status = video?.status;
  if (lifecycle.states.values.includes(status as VideoStatus)) return status as VideoStatus;
  const wrapped = (wrapper.json as WrapperView | undefined)?.data?.status;
  return is2xx(wrapper) && typeof wrapped === 'string'
    ? fromWrapperStatus(lifecycle, wrapped)
    : undefined;
}

/**
 * One task the run follows. Every look reads both query forms as the owner and judges them in the cell
 * of the state they show; the first time the task shows a state, that state's probes run: every task
 * route asked by every caller the run has (another user, no key, an invalid key), content asked by the
 * owner, the native path when the task is the second family's. GET probes create nothing, so they are
 * used generously. The probes are credited to the state only when a look right after them still shows
 * it; otherwise they are judged without credit and run again the next time the state is seen.
 */
export class TaskTracker {
  readonly polls: Poll[] = [];
  /** The last error the owner's query answered (a 429, a 5xx, a refusal), for a poll that timed out. */
  lastFailure: ApiError | undefined;
  readonly #probed = new Set<TaskState>();
  /** Probe batches per state: a state that keeps slipping away is tried a few times only. */
  readonly #attempts = new Map<TaskState, number>();

  constructor(
    readonly ctx: RunContext,
    readonly taskId: string,
    readonly task: LifecycleTask,
  ) {}

  /**
   * One look by the owner, each of its two GETs asked again after a 429 while the run has the time
   * (§7: the suite waits out a rate limit as it asks clients to). Throws the client's errors so the §8
   * poller retries or stops.
   */
  async look(probe = true): Promise<VideoTask> {
    const { recorder, verdicts: v } = this.ctx;
    const { taskId } = this;
    const videoExchange = await this.#queryVideo();
    const wrapperPath = routePath('getVideoGeneration', taskId);
    const wrapperExchange = await sendPatiently(this.ctx, {
      label: 'poll wrapper',
      path: wrapperPath,
    });
    if (wrapperExchange.status === 429) judgeRateLimit(this.ctx, wrapperExchange);
    const shown = is2xx(videoExchange) ? (videoExchange.json as VideoView | undefined) : undefined;
    const state = stateOf(v.lifecycle, shown, wrapperExchange);
    const cell = (route: RouteId): Cell | undefined =>
      state === undefined ? undefined : { route, state, caller: 'owner' };
    if (!is2xx(videoExchange)) {
      const message = `the owner's own task answered HTTP ${videoExchange.status}`;
      v.violation(CHECKS.publicIdOnly, message, evidenceOf(recorder, videoExchange, taskId));
      throw clientError(videoExchange);
    }
    const video = judgeVideoObject(
      this.ctx,
      videoExchange,
      { taskId, model: this.task.model },
      'query',
      cell('getVideo'),
    );
    const wrapperOk = is2xx(wrapperExchange);
    this.#judgeWrapperAnswer(wrapperExchange, video, cell('getVideoGeneration'));
    this.polls.push({
      video: keptView(video ?? {}, VIDEO_FIELDS),
      videoExchange: kept(videoExchange),
      wrapper: wrapperOk ? keptView(wrapperExchange.json, WRAPPER_FIELDS) : undefined,
      wrapperExchange: wrapperOk ? kept(wrapperExchange) : undefined,
      state,
    });
    if (probe && state !== undefined) await this.#probeIfNew(state);
    return (video ?? {}) as VideoTask;
  }

  /**
   * The owner's OpenAI-form query. Throws the client's error for an answer the poller retries or stops
   * on: a stopped run, a 429 (judged first), a 5xx, no answer.
   */
  async #queryVideo(): Promise<Exchange> {
    const { taskId } = this;
    const videoPath = routePath('getVideo', taskId);
    const videoExchange = await sendPatiently(this.ctx, { label: 'poll', path: videoPath }, taskId);
    // A stopped run polls no more: not a temporary failure for the poller to wait out.
    if (videoExchange.notSent === true) throw new ApiError('the run stopped', { status: 0 });
    if (videoExchange.status === 429) judgeRateLimit(this.ctx, videoExchange);
    if (videoExchange.status >= 500) judgeIdentifiersOfAnswer(this.ctx, videoExchange);
    if (videoExchange.status >= 500 || videoExchange.status === 0 || videoExchange.status === 429) {
      this.lastFailure = clientError(videoExchange);
      throw this.lastFailure;
    }
    return videoExchange;
  }

  /** The wrapper form of the same look: judged when it answered, a violation when it refused (4xx). */
  #judgeWrapperAnswer(
    wrapperExchange: Exchange,
    video: VideoView | undefined,
    cell: Cell | undefined,
  ): void {
    const { taskId } = this;
    if (is2xx(wrapperExchange)) judgeWrapper(this.ctx, wrapperExchange, taskId, video, cell);
    else if (wrapperExchange.status >= 500) judgeIdentifiersOfAnswer(this.ctx, wrapperExchange);
    else if (
      wrapperExchange.status > 0 &&
      wrapperExchange.status < 500 &&
      wrapperExchange.status !== 429
    )
      this.ctx.verdicts.violation(
        CHECKS.publicIdOnly,
        `the wrapper refused the owner's own task with HTTP ${wrapperExchange.status}`,
        evidenceOf(this.ctx.recorder, wrapperExchange, taskId, cell),
      );
  }

  async #probeIfNew(state: TaskState): Promise<void> {
    const attempts = this.#attempts.get(state) ?? 0;
    if (this.#probed.has(state) || attempts >= MAX_ATTEMPTS) return;
    this.#attempts.set(state, attempts + 1);
    await this.#probeState(state);
  }

  async #probeState(state: TaskState): Promise<void> {
    const { ctx, taskId } = this;
    const native = this.task.route === 'createPluginTask';
    const routes: RouteId[] = operationsWith({ kind: ['query', 'content'], family: 'any' });
    if (native) routes.push('getPluginTask');
    const callers: Caller[] = ['none', 'invalid'];
    if (ctx.otherCaller) callers.push('other');
    const cells: Cell[] = routes.flatMap((route) =>
      callers.map((caller) => ({ route, state, caller })),
    );
    cells.push({ route: 'getVideoContent', state, caller: 'owner' });
    if (native) cells.push({ route: 'getPluginTask', state, caller: 'owner' });
    // All at once: the shorter the batch, the likelier the task is still in the state afterwards.
    const sent = await Promise.all(
      cells.map(async (cell) => {
        const path = routePath(cell.route, taskId, ctx.native?.plugin);
        const init = { as: keyOf(cell.caller) };
        return {
          cell,
          exchange: await sendPatiently(ctx, { label: `${state} probe`, path, init }),
        };
      }),
    );
    await this.look(false);
    const confirmed = this.polls.at(-1)?.state === state;
    for (const { exchange, cell } of sent) this.#judgeProbe(exchange, cell, confirmed);
    if (confirmed) {
      this.#probed.add(state);
      if (state === 'completed') await judgeContentIntegrity(ctx, taskId);
      return;
    }
    ctx.coverage.because(`the task left ${state} while its probes ran`, {
      states: [state],
      routes,
      callers: [...callers, 'owner'],
    });
    // The look that found it gone shows where it went: probe that state at once.
    const now = this.polls.at(-1)?.state;
    if (now !== undefined) await this.#probeIfNew(now);
  }

  #judgeProbe(exchange: Exchange, cell: Cell, confirmed: boolean): void {
    const { ctx, taskId } = this;
    if (!judgeable(ctx, exchange, confirmed ? cell : undefined)) return;
    const credit = confirmed ? cell : undefined;
    if (cell.caller !== 'owner')
      return judgeRefusal(ctx, exchange, cell, { taskId, attribute: confirmed });
    if (cell.route === 'getPluginTask')
      return judgeNativeQuery(ctx, exchange, taskId, cell, credit);
    if (cell.state === 'completed') return judgeDownload(ctx, exchange, taskId, credit);
    // Content served while the state was in doubt may be a task that completed meanwhile: inconclusive.
    if (is2xx(exchange) && !confirmed) return;
    judgeRefusal(ctx, exchange, cell, { taskId, attribute: confirmed });
  }
}
