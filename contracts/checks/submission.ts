import { operationsWith } from '../../src/spec/route-roles.ts';
import { randomUUID } from 'node:crypto';
import { keyOf, type Exchange } from '../http-recorder.ts';
import { routePath, routeRequest, type Caller, type Cell, type RouteId } from '../matrix/index.ts';
import type { LifecycleTask, RunContext } from '../run-context.ts';
import type { Evidence } from '../verdicts.ts';
import { judgeIdentifiers } from './body-rules.ts';
import { CHECKS } from './definitions.ts';
import { evidenceOf, is2xx, is4xx } from './evidence.ts';
import { judgeable, judgeRateLimit } from './answered.ts';
import { judgeNativeShape } from './native.ts';
import { waitOut } from './rate-limited.ts';
import { publicIdOf, submissionOutcome } from './submission-outcome.ts';
import { judgeVideoObject } from './task-object.ts';

/** The documented submit paths (§4.1), read from their role in the spec. */
export const SUBMIT_ROUTES = operationsWith({ kind: 'submit', form: 'openai' });

/** The submission body a route takes: §2.1 on the documented paths, the upstream shape on the native one (§4.5). */
export function bodyFor(route: RouteId, model: string, prompt: string): unknown {
  if (route === 'createPluginTask')
    return { model, content: [{ type: 'text', text: prompt }], duration: 5 };
  return { model, prompt, metadata: { duration: 5 } };
}

/** What a submission sends: a JSON body (§4.1), or another body with its media type. */
export type Payload =
  { readonly json: unknown } | { readonly rawBody: string; readonly contentType: string };

/** Tries a rate-limited (429) submission this many times in all (§7: retried, "not without limit"). */
export const RATE_LIMITED_TRIES = 3;

/** How a submission is sent, besides its route and body. */
export interface SubmitOptions {
  /** Who sends it (default the owner). */
  readonly caller?: Exclude<Caller, 'other'>;
  /**
   * Units of the budget it must leave untouched: a probe a broken deployment might accept leaves a
   * lifecycle task's share (issue 31 item 4), so the lifecycle is followed whatever the probes met.
   */
  readonly keep?: number;
  /** What waits, on the progress line, when a 429 is waited out. */
  readonly what?: string;
  /** Told just before each try is sent (a lifecycle submission times its last try). */
  readonly onSend?: () => void;
  /** Whether a 429 is waited out and tried again (default true). */
  readonly retry?: boolean;
}

/**
 * A submission that may create a task: only sent when the budget allows one more (leaving `keep`
 * units). A 429 creates no task (§7: "check quota and rate limit, retry with exponential backoff"), so
 * its unit comes back and it is tried again after `waitOut` (its `Retry-After`, else the client's
 * backoff), at most RATE_LIMITED_TRIES times in all and only while the run has the time; each 429 waited
 * out is judged in the submission's cell once the next try was sent (the last answer is the caller's
 * to judge, whatever it is), and counted in the run's retries. Each try carries its own client request
 * ID: a refused submission is not resubmitted, it was never taken. A 429 that outlasts the tries marks
 * the run (`rateLimitPersisted`): its later refusal probes are sent once each, not waited for again.
 * Undefined when the budget allowed no try at all.
 */
export async function submit(
  ctx: RunContext,
  route: LifecycleTask['route'],
  payload: Payload,
  options: SubmitOptions = {},
): Promise<Exchange | undefined> {
  const caller = options.caller ?? 'owner';
  const cell: Cell = { route, state: 'n/a', caller };
  const most = options.retry === false ? 1 : RATE_LIMITED_TRIES;
  let last: Exchange | undefined;
  for (let tries = 1; tries <= most; tries++) {
    if (last !== undefined && !(await waitOut(ctx, last, tries - 1, options.what))) break;
    if (!ctx.budget.reserve(options.keep)) return last;
    options.onSend?.();
    const exchange = await ctx.recorder.send(
      `submit via ${route}`,
      ...routeRequest(route, '', ctx.native?.plugin),
      { ...payload, as: keyOf(caller), clientRequestId: `videotask-contract-${randomUUID()}` },
    );
    ctx.budget.settle(submissionOutcome(exchange));
    if (last !== undefined) {
      ctx.retries.submissions++;
      judgeRateLimit(ctx, last, cell);
    }
    if (exchange.status !== 429) return exchange;
    last = exchange;
  }
  ctx.rateLimitPersisted = true;
  return last;
}

/**
 * Submits a lifecycle task (`submit`: a 429 waited out and tried again); `tookMs` is the last
 * attempt's own time: the run's waits are not the deployment's slowness.
 */
async function submitPatiently(
  ctx: RunContext,
  task: LifecycleTask,
): Promise<{ exchange: Exchange | undefined; tookMs: number }> {
  const body = { json: bodyFor(task.route, task.model, task.prompt) };
  let sent = ctx.clock.now();
  const exchange = await submit(ctx, task.route, body, {
    what: task.name,
    onSend: () => (sent = ctx.clock.now()),
  });
  return { exchange, tookMs: ctx.clock.now() - sent };
}

/**
 * A lifecycle submission: created (the answer names the task), or why there is no task to follow: the
 * budget did not allow it, the deployment refused it (a 4xx; a 429 is rate limiting, not a verdict), it
 * is unconfirmed (a 5xx, a redirect, no answer, a 2xx naming no task: it may exist, and its unit of the
 * budget stays spent), or the run had stopped.
 */
export type Submitted =
  | { readonly kind: 'created'; readonly taskId: string; readonly progress: unknown }
  | { readonly kind: 'budget' | 'refused' | 'rate-limited' | 'unconfirmed' | 'stopped' };

/**
 * Submits one lifecycle task and judges the answer: §4.1 on the documented paths (shape, presence,
 * `queued`), §1 everywhere (at once, the public ID only). Returns the public ID and the answer's
 * progress, or why there is no task to follow.
 */
export async function submitLifecycleTask(
  ctx: RunContext,
  task: LifecycleTask,
): Promise<Submitted> {
  const { verdicts: v, recorder } = ctx;
  const { exchange: submitted, tookMs: took } = await submitPatiently(ctx, task);
  if (submitted === undefined) return { kind: 'budget' };
  const cell: Cell = { route: task.route, state: 'n/a', caller: 'owner' };
  const outcome = submissionOutcome(submitted);
  if (!judgeable(ctx, submitted, cell)) {
    if (submitted.status === 429) return { kind: 'rate-limited' };
    return { kind: submitted.notSent === true ? 'stopped' : 'unconfirmed' };
  }
  const ev = evidenceOf(recorder, submitted, undefined, cell);
  if (!judgeAccepted(ctx, task, submitted, outcome, ev))
    return { kind: outcome === 'refused' ? 'refused' : 'unconfirmed' };
  v.expect(
    CHECKS.submissionAtOnce,
    took < 10_000,
    `the submission took ${Math.round(took)} ms`,
    ev,
  );
  const body = submitted.json as { id?: unknown; status?: unknown; progress?: unknown } | undefined;
  const taskId = publicIdOf(submitted);
  if (task.route === 'createPluginTask') judgeNativeAnswer(ctx, submitted, taskId, ev);
  else {
    judgeVideoObject(ctx, submitted, { model: task.model }, 'submission', cell);
    v.expect(
      CHECKS.submissionQueued,
      v.lifecycle.initial.values.includes(body?.status as never),
      `the submission says ${String(body?.status)}`,
      ev,
    );
  }
  if (taskId === undefined || outcome !== 'created') return { kind: 'unconfirmed' };
  ctx.progress(`${taskId} submitted ${task.name}`);
  return { kind: 'created', taskId, progress: body?.progress ?? 0 };
}

/**
 * The refusals of a submission that are the key's (§7: authentication, permission; §5: the key's
 * quota): on the native path, whose request shape is not shown (§4.5), only these say the run's input
 * is wrong. Any other 4xx there may refuse the shape the suite assumes (the upstream's).
 */
const KEY_REFUSALS = new Set([401, 403]);
const NATIVE_REFUSED =
  " (§4.5 shows no request shape: the suite sends the upstream's; a 404 may also mean that " +
  '--plugin names no plugin of the deployment)';

/**
 * §4.1: a valid task is accepted with a 2xx on every documented path (200 on the OpenAI-style ones).
 * False when it was not. A refusal (4xx) is judged once every lifecycle submission has its answer
 * (`ctx.refusedTasks`, lifecycle-tasks.ts): §7 reads it as the client's to fix (authentication,
 * permission, model or parameters), so it is the run's input that is wrong unless another path took
 * the same task. On the native path only a refusal of the key is; another 4xx departs from
 * native.accepts (an assumption: it warns, and fails with --strict).
 */
export function judgeAccepted(
  ctx: RunContext,
  task: LifecycleTask,
  submitted: Exchange,
  outcome: ReturnType<typeof submissionOutcome>,
  ev: Evidence,
): boolean {
  const { verdicts: v } = ctx;
  const path = routePath(task.route, '', ctx.native?.plugin);
  const native = task.route === 'createPluginTask';
  if (is4xx(submitted) && (!native || KEY_REFUSALS.has(submitted.status))) {
    ctx.refusedTasks.push({ task, path, status: submitted.status, evidence: ev });
    return false;
  }
  const maybeCreated = outcome === 'refused' ? '' : ': unconfirmed, it may have created a task';
  const why = is4xx(submitted) ? 'refused' : 'did not accept';
  // §4.1 covers the two OpenAI submission routes; the native path's acceptance is an assumption (§4.5).
  const accepted = v.expect(
    native ? CHECKS.nativeAccepts : CHECKS.submissionPaths,
    is2xx(submitted),
    `${path} ${why} a valid task (${task.name}) with HTTP ${submitted.status}${maybeCreated}` +
      (native && is4xx(submitted) ? NATIVE_REFUSED : ''),
    ev,
  );
  if (!accepted) return false;
  if (task.route !== 'createPluginTask')
    v.expect(
      CHECKS.submissionStatus200,
      submitted.status === 200,
      `POST ${path} accepted a task (${task.name}) with HTTP ${submitted.status}, where §4.1 documents 200`,
      ev,
    );
  return true;
}

/** The native submission answer: its own shape, and the public task ID it names (§1). */
export function judgeNativeAnswer(
  ctx: RunContext,
  submitted: Exchange,
  taskId: string | undefined,
  ev: Evidence,
): void {
  judgeNativeShape(ctx, submitted, 'createPluginTask', ev);
  if (taskId !== undefined) judgeIdentifiers(ctx, submitted, taskId, ev);
  else
    ctx.verdicts.violation(
      CHECKS.publicIdOnly,
      'the native submission answer names no public task ID',
      ev,
    );
}
