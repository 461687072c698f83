// The suite's own checks (contracts/checks) applied to one exchange a client made: which check judges
// which answer, and in which cell, when the suite did not send the request and cannot ask again.
import { fromWrapperStatus, type VideoStatus } from '../../src/spec/index.ts';
import { judgeable } from '../checks/answered.ts';
import { judgeContentLength } from '../checks/content-integrity.ts';
import { CHECKS } from '../checks/definitions.ts';
import { judgeDownload } from '../checks/download.ts';
import { evidenceOf, is2xx, is4xx } from '../checks/evidence.ts';
import { judgeNativeQuery } from '../checks/native.ts';
import { judgeRefusal, type RefusalProbe } from '../checks/refusal.ts';
import { judgeSequenceStep, type Poll } from '../checks/sequence.ts';
import { judgeAccepted, judgeNativeAnswer } from '../checks/submission.ts';
import { publicIdOf, submissionOutcome } from '../checks/submission-outcome.ts';
import { judgeVideoObject, type VideoView } from '../checks/task-object.ts';
import { judgeWrapper, type WrapperView } from '../checks/wrapper-object.ts';
import { kept, type Exchange } from '../http-recorder.ts';
import {
  matrixRoute,
  type Caller,
  type Cell,
  type RouteId,
  type TaskState,
} from '../matrix/index.ts';
import type { LifecycleTask, RunContext } from '../run-context.ts';
import type { BoundedVerdicts } from './bounded-judging.ts';
import type { LookMemo, TaskLedger, TrafficTask } from './task-ledger.ts';

/** One exchange as the traffic judge reads it (`TrafficExchange` with its caller and task resolved). */
export interface Seen {
  readonly exchange: Exchange;
  readonly route: RouteId;
  readonly caller: Caller;
  /** The caller's key ('' without one): whose task a submission makes. */
  readonly key: string;
  readonly taskId: string | undefined;
  readonly task: TrafficTask | undefined;
  /** A submission's JSON body as the client sent it. */
  readonly body: unknown;
  /** The request asked for part of the content (`Range`). */
  readonly ranged: boolean;
}

export interface Judging {
  readonly ctx: RunContext;
  /** `ctx.verdicts`, which can record a judging and replay it. */
  readonly verdicts: BoundedVerdicts;
  readonly tasks: TaskLedger;
  /** Wall ms, for "read just after" (the two query forms) and ageing. */
  readonly now: () => number;
  /** The memos with repeats not yet counted (`countReplays`): each is one of a task the ledger holds. */
  readonly replayed: Set<LookMemo>;
}

/** The wrapper is compared with the OpenAI form only when read this soon after it, by the same caller. */
const FORMS_WINDOW_MS = 2_000;
/** The bytes of an answer a task keeps for its next look's evidence. */
const KEPT_HEAD = 1024;

const KEYLESS: ReadonlySet<Caller> = new Set(['none', 'invalid']);
const documented = (j: Judging, status: unknown): status is VideoStatus =>
  j.verdicts.lifecycle.states.values.includes(status as VideoStatus);
const ownerCell = (route: RouteId, state: TaskState | undefined): Cell | undefined =>
  state === undefined ? undefined : { route, state, caller: 'owner' };

export function judgeSeen(j: Judging, seen: Seen): void {
  switch (matrixRoute(seen.route).kind) {
    case 'catalog':
      return judgeCatalogAnswer(j, seen);
    case 'submit':
      return judgeSubmissionAnswer(j, seen);
    case 'query':
      return seen.caller === 'owner' ? judgeOwnerQuery(j, seen) : judgeNotOwner(j, seen);
    case 'content':
      return seen.caller === 'owner' ? judgeOwnerContent(j, seen) : judgeNotOwner(j, seen);
  }
}

/** `/v1/models`: refused without a valid key (§5); its shape when served. */
function judgeCatalogAnswer(j: Judging, seen: Seen): void {
  const { ctx } = j;
  const caller = KEYLESS.has(seen.caller) ? seen.caller : 'owner';
  const cell: Cell = { route: 'listModels', state: 'n/a', caller };
  if (caller !== 'owner') return judgeRefusal(ctx, seen.exchange, cell);
  if (!judgeable(ctx, seen.exchange, cell) || !is2xx(seen.exchange)) return;
  const shape = j.verdicts.spec.validators
    .response('listModels', 200)!
    .body('application/json')!
    .validateFull(seen.exchange.json);
  ctx.verdicts.expect(
    CHECKS.catalogShape,
    shape.valid,
    `the catalog differs from the gateway's shape: ${shape.errors.join('; ')}`,
    evidenceOf(ctx.recorder, seen.exchange, undefined, cell),
  );
}

/**
 * What a client's submission asked that the document says must be refused (§7 an empty prompt, §2.1
 * a missing or mistyped `model` or `prompt`): the refusal probe the suite would have sent, judged by
 * its rule. Anything else is an ordinary submission.
 */
export function refusalProbeOf(route: RouteId, body: unknown): RefusalProbe | undefined {
  if (route === 'createPluginTask' || body === null || typeof body !== 'object') return undefined;
  const { model, prompt } = body as { model?: unknown; prompt?: unknown };
  if (model === undefined) return { rule: 'required-fields', what: 'without model' };
  if (prompt === undefined) return { rule: 'required-fields', what: 'without prompt' };
  if (typeof model !== 'string')
    return { rule: 'required-fields', what: 'with a model that is not a string' };
  if (typeof prompt !== 'string')
    return { rule: 'required-fields', what: 'with a prompt that is not a string' };
  if (prompt.trim() === '') return { rule: 'empty-prompt-invalid', what: 'with an empty prompt' };
  return undefined;
}

/** A submission (§4.1, §4.5): refused without a key, refused when it must be, its answer when taken. */
function judgeSubmissionAnswer(j: Judging, seen: Seen): void {
  const { ctx } = j;
  const { exchange, route } = seen;
  const caller = KEYLESS.has(seen.caller) ? seen.caller : 'owner';
  const cell: Cell = { route, state: 'n/a', caller };
  if (caller !== 'owner') return judgeRefusal(ctx, exchange, cell);
  if (!judgeable(ctx, exchange, cell)) return;
  const probe = refusalProbeOf(route, seen.body);
  if (probe !== undefined) return judgeRefusal(ctx, exchange, cell, { probe });
  if (is4xx(exchange)) return judgeRefusal(ctx, exchange, cell);
  // A 5xx or a redirect left open whether a task was made: nothing to judge (§7).
  if (is2xx(exchange)) judgeAcceptedSubmission(j, seen, cell);
}

/** A submission the deployment took: its answer as the suite judges its own (§4.1, §4.5, §1). */
function judgeAcceptedSubmission(j: Judging, seen: Seen, cell: Cell): void {
  const { ctx } = j;
  const { exchange, route } = seen;
  const model = modelOf(seen.body);
  const task: LifecycleTask = {
    name: 'a client submission',
    route: route as LifecycleTask['route'],
    model: model ?? '',
    prompt: '',
    expectFailure: false,
  };
  const outcome = submissionOutcome(exchange);
  const ev = evidenceOf(ctx.recorder, exchange, undefined, cell);
  if (!judgeAccepted(ctx, task, exchange, outcome, ev)) return;
  const v = ctx.verdicts;
  const took = `the submission took ${Math.round(exchange.ms)} ms`;
  v.expect(CHECKS.submissionAtOnce, exchange.ms < 10_000, took, ev);
  const taskId = publicIdOf(exchange);
  const answer = exchange.json as { status?: unknown; progress?: unknown } | undefined;
  if (route === 'createPluginTask') judgeNativeAnswer(ctx, exchange, taskId, ev);
  else {
    judgeVideoObject(ctx, exchange, { model: task.model }, 'submission', cell);
    v.expect(
      CHECKS.submissionQueued,
      j.verdicts.lifecycle.initial.values.includes(answer?.status as never),
      `the submission says ${String(answer?.status)}`,
      ev,
    );
  }
  if (taskId === undefined || outcome !== 'created') return;
  j.tasks.add({
    id: taskId,
    owner: seen.key,
    submitted: true,
    model,
    state: documented(j, answer?.status) ? answer.status : undefined,
    lastPoll: undefined,
    lastProgress: answer?.progress ?? 0,
    lastVideo: undefined,
    pendingContent: undefined,
    memo: undefined,
  });
}

const modelOf = (body: unknown): string | undefined => {
  const model = (body as { model?: unknown } | null | undefined)?.model;
  return typeof model === 'string' ? model : undefined;
};

/**
 * Another user's key, no key or a refused key asking about a task (§5): refused, in the cell of the
 * state its owner was last shown. A task the traffic never showed its owner is judged by the same
 * rules without crediting a cell (it may be missing, or exist unseen).
 */
function judgeNotOwner(j: Judging, seen: Seen): void {
  const state = seen.task?.state;
  const cell: Cell = { route: seen.route, state: state ?? 'missing', caller: seen.caller };
  judgeRefusal(j.ctx, seen.exchange, cell, { taskId: seen.taskId, attribute: state !== undefined });
}

/** The owner's status query on one of the three forms: the suite's look, one form at a time. */
function judgeOwnerQuery(j: Judging, seen: Seen): void {
  const { ctx } = j;
  const { exchange, route, task } = seen;
  const taskId = seen.taskId!;
  if (!judgeable(ctx, exchange, ownerCell(route, task?.state))) return;
  if (exchange.status >= 500 || (exchange.status >= 300 && exchange.status < 400)) return;
  if (!is2xx(exchange)) {
    if (task === undefined)
      return judgeRefusal(ctx, exchange, { route, state: 'missing', caller: 'owner' }, { taskId });
    const message = `the owner's own task answered HTTP ${exchange.status}`;
    return ctx.verdicts.violation(
      CHECKS.publicIdOnly,
      message,
      evidenceOf(ctx.recorder, exchange, taskId),
    );
  }
  if (route === 'getVideo') return judgeOpenAiLook(j, seen, taskId);
  if (route === 'getVideoGeneration') return judgeWrapperLook(j, seen, taskId);
  const state = task?.state;
  const cell: Cell = { route, state: state ?? 'n/a', caller: 'owner' };
  judgeNativeQuery(ctx, exchange, taskId, cell, state === undefined ? undefined : cell);
}

/** The task a look names: known, or first seen now (its reader taken for its owner). */
function taskOf(j: Judging, seen: Seen, taskId: string, modelShown: () => unknown): TrafficTask {
  if (seen.task !== undefined) return seen.task;
  const model = modelShown();
  return j.tasks.add({
    id: taskId,
    owner: seen.key,
    submitted: false,
    model: typeof model === 'string' ? model : undefined,
    state: undefined,
    lastPoll: undefined,
    lastProgress: undefined,
    lastVideo: undefined,
    pendingContent: undefined,
    memo: undefined,
  });
}

/** The longest answer a task keeps to tell a repeated one (a task object is a few hundred bytes). */
const MEMO_BYTES = 2048;

/**
 * §2.2 on the answer, and the task's sequence (§3) from its previous look to this one. A polling loop
 * is shown the same bytes again and again: a look repeating the look before it, itself a repeat, is
 * judged as that one was (same body, same previous state: the same checks pass), so its passes are
 * replayed instead of judged again. Any violation, or anything but passes, and every look is judged.
 */
function judgeOpenAiLook(j: Judging, seen: Seen, taskId: string): void {
  const { exchange } = seen;
  const task = taskOf(j, seen, taskId, () => (exchange.json as VideoView | undefined)?.model);
  if (replayedLook(j, task, seen.key, exchange)) return;
  const memo = task.memo;
  if (memo !== undefined && repeats(task, memo, seen.key, exchange))
    memo.passes = j.verdicts.recording(() => judgeLook(j, seen, task));
  else {
    judgeLook(j, seen, task);
    if (memo !== undefined) countReplays(j, memo);
    task.memo =
      exchange.bytes > MEMO_BYTES || exchange.head.byteLength < exchange.bytes
        ? undefined
        : {
            key: seen.key,
            status: exchange.status,
            body: Uint8Array.from(exchange.head),
            passes: undefined,
            replays: 0,
          };
  }
}

/** What a look is compared by: who read it, its status and bytes (no parsing needed). */
export type LookBytes = Pick<Exchange, 'status' | 'head' | 'bytes' | 'bodyError'>;

/**
 * The owner's look at `task` judged again by replaying its passes, when it repeats a look that was
 * itself a repeat (see `judgeOpenAiLook`); whether it was. Needs nothing of the answer but its bytes:
 * a polling loop's answer is neither parsed nor read field by field again, and its passes are counted
 * when the report is made or the memo goes (`countReplays`): a repeat costs a comparison and an addition.
 */
export function replayedLook(
  j: Judging,
  task: TrafficTask | undefined,
  key: string,
  look: LookBytes,
): boolean {
  const memo = task?.memo;
  if (task === undefined || memo?.passes === undefined || !repeats(task, memo, key, look))
    return false;
  if (memo.replays++ === 0) j.replayed.add(memo);
  if (task.lastVideo !== undefined) task.lastVideo.at = j.now();
  return true;
}

/** Counts the passes of a memo's repeats not yet counted (its task leaves, its memo goes, a report). */
export function countReplays(j: Judging, memo: LookMemo): void {
  if (memo.replays === 0) return;
  if (memo.passes !== undefined) j.verdicts.replay(memo.passes, memo.replays);
  memo.replays = 0;
  j.replayed.delete(memo);
}

const repeats = (task: TrafficTask, memo: LookMemo, key: string, look: LookBytes): boolean =>
  task.pendingContent === undefined &&
  memo.key === key &&
  memo.status === look.status &&
  look.bodyError === undefined &&
  sameBytes(memo.body, look.head, look.bytes);

const sameBytes = (kept: Uint8Array, head: Uint8Array, bytes: number): boolean =>
  kept.byteLength === bytes && head.byteLength === bytes && Buffer.compare(kept, head) === 0;

function judgeLook(j: Judging, seen: Seen, task: TrafficTask): void {
  const { ctx } = j;
  const { exchange } = seen;
  const taskId = task.id;
  const shown = exchange.json as VideoView | undefined;
  const state = documented(j, shown?.status) ? shown.status : undefined;
  const cell = ownerCell('getVideo', state);
  const expected = { taskId, model: task.model ?? String(shown?.model) };
  const video = judgeVideoObject(ctx, exchange, expected, 'query', cell);
  if (state !== undefined) task.state = state;
  settleContent(j, task, state);
  if (video === undefined) return;
  const view = sequenceView(video);
  const poll: Poll = { video: view, videoExchange: keptSmall(exchange), state };
  task.lastProgress = judgeSequenceStep(ctx.verdicts, ctx.recorder, taskId, {
    previous: task.lastPoll,
    poll,
    lastProgress: task.lastProgress,
  });
  task.lastPoll = poll;
  task.lastVideo = { view, at: j.now(), key: seen.key };
}

/** §2.3 on the answer; compared with the OpenAI form when the same caller read that just before. */
function judgeWrapperLook(j: Judging, seen: Seen, taskId: string): void {
  const { ctx } = j;
  const body = seen.exchange.json as WrapperView | undefined;
  const wrapped = body?.data?.status;
  const state =
    typeof wrapped === 'string' ? fromWrapperStatus(j.verdicts.lifecycle, wrapped) : undefined;
  const task = taskOf(j, seen, taskId, () => undefined);
  const last = task.lastVideo;
  const recent =
    last !== undefined && last.key === seen.key && j.now() - last.at <= FORMS_WINDOW_MS
      ? last.view
      : undefined;
  if (recent === undefined && state !== undefined)
    ctx.coverage.ruleNotJudged(
      'forms-agree',
      'the traffic read the wrapper without the OpenAI form just before it (a client reads one form)',
      { routes: ['getVideoGeneration'], states: [state], callers: ['owner'] },
    );
  judgeWrapper(ctx, seen.exchange, taskId, recent, ownerCell('getVideoGeneration', state));
  if (state !== undefined) task.state = state;
  settleContent(j, task, state);
}

/**
 * The owner's download (§4.4, §3 rule 2): a completed task's content is a video; before completion
 * (or of a failed task) it is refused. Content served while the task's last look showed it running
 * waits for the next look (`settleContent`): it may have completed since, as the suite knows too.
 */
function judgeOwnerContent(j: Judging, seen: Seen): void {
  const { ctx } = j;
  const { exchange, task } = seen;
  const taskId = seen.taskId!;
  const state = task?.state;
  const cell = ownerCell('getVideoContent', state);
  if (!judgeable(ctx, exchange, cell) || exchange.status >= 500) return;
  if (exchange.status >= 300 && exchange.status < 400) return redirectedAway(ctx, state);
  if (exchange.method === 'HEAD') return headNotJudged(ctx, state);
  if (state === undefined) {
    if (is2xx(exchange)) judgeDownload(ctx, exchange, taskId, undefined);
    else
      judgeRefusal(
        ctx,
        exchange,
        { route: 'getVideoContent', state: 'missing', caller: 'owner' },
        { taskId, attribute: false },
      );
    return;
  }
  if (state === 'completed') {
    if (!seen.ranged) return judgeDownload(ctx, exchange, taskId, cell);
    if (exchange.status === 206) judgeContentLength(ctx, exchange, taskId);
    return rangeNotJudged(ctx);
  }
  if (is2xx(exchange) && state !== 'failed') {
    task!.pendingContent = { exchange: { ...keptSmall(exchange), json: undefined }, state };
    return;
  }
  judgeRefusal(ctx, exchange, cell!, { taskId });
}

/**
 * Content served while the task looked unfinished, judged once the next look tells whether it was:
 * still in the same state, it was served before completion (§3 rule 2: refused, as the suite's probes
 * confirmed by a look right after them); moved on, it may have completed meanwhile (no verdict).
 */
function settleContent(j: Judging, task: TrafficTask, state: TaskState | undefined): void {
  const pending = task.pendingContent;
  if (pending === undefined) return;
  task.pendingContent = undefined;
  if (state !== pending.state) return;
  const cell: Cell = { route: 'getVideoContent', state, caller: 'owner' };
  judgeRefusal(j.ctx, pending.exchange, cell, { taskId: task.id });
}

const COMPLETED_CONTENT = {
  routes: ['getVideoContent'],
  states: ['completed'],
  callers: ['owner'],
} as const;

function redirectedAway(ctx: RunContext, state: TaskState | undefined): void {
  if (state === 'completed')
    ctx.coverage.ruleNotJudged(
      'content-binary',
      'the deployment redirected the download elsewhere: the client fetched it past the proxy',
      COMPLETED_CONTENT,
    );
}

function headNotJudged(ctx: RunContext, state: TaskState | undefined): void {
  if (state === 'completed')
    ctx.coverage.ruleNotJudged(
      'content-head-agrees',
      'a HEAD is compared with a GET the suite makes itself: a proxy makes none',
      COMPLETED_CONTENT,
    );
}

function rangeNotJudged(ctx: RunContext): void {
  ctx.coverage.ruleNotJudged(
    'content-range-reassembles',
    "the parts are the suite's own two halves of a download it hashed: a client's ranges are not",
    COMPLETED_CONTENT,
  );
}

/** What the sequence rules read of a look: its state, progress and timestamps, nothing more. */
function sequenceView(video: VideoView): VideoView {
  const { status, progress, created_at, completed_at } = video;
  return { status, progress, created_at, completed_at };
}

/** An exchange kept until the task's next look (its evidence), with the first KiB of its body. */
function keptSmall(exchange: Exchange): Poll['videoExchange'] {
  // A copy (a Buffer's `slice` is a view): the answer's bytes may be a view of a larger buffer, which
  // must not stay alive with the task.
  return { ...kept(exchange), head: Uint8Array.from(exchange.head.subarray(0, KEPT_HEAD)) };
}
