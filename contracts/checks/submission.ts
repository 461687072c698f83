import { randomUUID } from 'node:crypto';
import { retryAfterMs } from '../../src/client/retry-after.ts';
import { serviceContract } from '../../src/spec/index.ts';
import { keyOf, type Exchange } from '../http-recorder.ts';
import { routePath, type Caller, type Cell, type RouteId } from '../matrix/index.ts';
import type { RunContext } from '../run-context.ts';
import { judgeIdentifiers } from './body-rules.ts';
import { CHECKS } from './definitions.ts';
import { evidenceOf, is2xx, is4xx } from './evidence.ts';
import { judgeable } from './answered.ts';
import { judgeNativeShape } from './native.ts';
import { judgeRefusal } from './refusal.ts';
import { publicIdOf, submissionOutcome } from './submission-outcome.ts';
import { judgeVideoObject } from './task-object.ts';

const { lifecycle } = serviceContract();
export const SUBMIT_ROUTES = ['createVideoGeneration', 'createVideo'] as const;

/** One task the run creates and follows: where it is submitted, with what, and what it is for. */
export interface LifecycleTask {
  /** "via POST /v1/videos", "expected to fail", … */
  readonly name: string;
  readonly route: 'createVideoGeneration' | 'createVideo' | 'createPluginTask';
  readonly model: string;
  readonly prompt: string;
  /** Submitted by the operator's failing model or prompt (§7): the `failed` column. */
  readonly expectFailure: boolean;
}

/** The submission body a route takes: §2.1 on the documented paths, the upstream shape on the native one (§4.5). */
function bodyFor(route: RouteId, model: string, prompt: string): unknown {
  if (route === 'createPluginTask')
    return { model, content: [{ type: 'text', text: prompt }], duration: 5 };
  return { model, prompt, metadata: { duration: 5 } };
}

/** A submission that may create a task: only sent when the budget allows one more. */
export async function submit(
  ctx: RunContext,
  route: LifecycleTask['route'],
  body: unknown,
  caller: Exclude<Caller, 'other'> = 'owner',
): Promise<Exchange | undefined> {
  if (!ctx.budget.reserve()) return undefined;
  const exchange = await ctx.recorder.send(
    `submit via ${route}`,
    'POST',
    routePath(route, '', ctx.native?.plugin),
    { as: keyOf(caller), json: body, requestId: `videotask-contract-${randomUUID()}` },
  );
  ctx.budget.settle(submissionOutcome(exchange));
  return exchange;
}

const NO_BUDGET =
  'the task budget leaves nothing for a submission a broken deployment could accept';

/** The body of the owner's refusal probes on a route: empty and blank prompts, or mixed formats (§4.5). */
function ownerProbes(route: LifecycleTask['route'], model: string): unknown[] {
  if (route !== 'createPluginTask') return ['', ' \n\t '].map((p) => bodyFor(route, model, p));
  // The native body with the OpenAI form's own fields mixed in (`NativeFormatOnly` forbids them).
  return [
    { ...(bodyFor(route, model, PROBE) as object), prompt: PROBE, metadata: { duration: 5 } },
  ];
}

export const PROBE = 'videotask contract check';

/**
 * Submissions that must be refused, on every submit path the run observes: an empty and a blank prompt
 * (§7), a native body mixing in the OpenAI form (§4.5), no key or an invalid key (§5). Each reserves a
 * budget unit while it is in flight, since a broken deployment could turn it into a (paid) task.
 */
export async function probeSubmissionRefusals(ctx: RunContext): Promise<void> {
  const { target } = ctx;
  const routes: LifecycleTask['route'][] = [...SUBMIT_ROUTES];
  if (ctx.native !== undefined) routes.push('createPluginTask');
  for (const route of routes) {
    const model = route === 'createPluginTask' ? ctx.native!.model : target.model;
    for (const body of ownerProbes(route, model)) await refuse(ctx, route, body, 'owner');
    for (const caller of ['none', 'invalid'] as const)
      await refuse(ctx, route, bodyFor(route, model, PROBE), caller);
  }
}

/** The check a refusal probe would have judged, for the skip when the budget leaves no room for it. */
function probeCheck(route: LifecycleTask['route'], caller: Exclude<Caller, 'other'>) {
  if (caller !== 'owner') return CHECKS.authRequired;
  return route === 'createPluginTask' ? CHECKS.nativeMixed : CHECKS.emptyPrompt;
}

async function refuse(
  ctx: RunContext,
  route: LifecycleTask['route'],
  body: unknown,
  caller: Exclude<Caller, 'other'>,
): Promise<void> {
  const exchange = await submit(ctx, route, body, caller);
  const cell: Cell = { route, state: 'n/a', caller };
  if (exchange === undefined) {
    ctx.verdicts.skip(probeCheck(route, caller), NO_BUDGET);
    ctx.coverage.because('budget', { routes: [route], callers: [caller] });
    return;
  }
  judgeRefusal(ctx, exchange, cell);
}

/** Tries a rate-limited (429) lifecycle submission this many times in all. */
const RATE_LIMITED_TRIES = 3;
/** The longest Retry-After the run waits out; the wait without one: 2 s, then 4 s. */
const LONGEST_WAIT_MS = 60_000;
const FIRST_WAIT_MS = 2_000;

/**
 * Submits a lifecycle task; a 429 (no task created, §7) is tried again after its `Retry-After`, at most
 * RATE_LIMITED_TRIES times in all and only while the run has the time. A 429 gives its budget unit back.
 */
async function submitPatiently(
  ctx: RunContext,
  task: LifecycleTask,
): Promise<Exchange | undefined> {
  const body = bodyFor(task.route, task.model, task.prompt);
  for (let attempt = 1; ; attempt++) {
    const exchange = await submit(ctx, task.route, body);
    if (exchange?.status !== 429 || attempt === RATE_LIMITED_TRIES) return exchange;
    const asked = retryAfterMs(exchange.headers['retry-after'] ?? null);
    const waitMs = Math.min(asked ?? FIRST_WAIT_MS * 2 ** (attempt - 1), LONGEST_WAIT_MS);
    if (waitMs >= ctx.limits.remainingMs()) return exchange;
    ctx.progress(`${task.name}: rate limited (429), trying again in ${Math.ceil(waitMs / 1000)} s`);
    await ctx.clock.sleep(waitMs, ctx.limits.signal).catch(() => undefined);
    if (ctx.limits.stopped !== undefined) return exchange;
  }
}

/**
 * A lifecycle submission: created (the answer names the task), or why there is no task to follow: the
 * budget did not allow it, the deployment refused it (a 4xx; a 429 is rate limiting, not a verdict), it
 * is unconfirmed (a 5xx, no answer, a 2xx naming no task: it may exist, and its unit of the budget
 * stays spent), or the run had stopped.
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
  const started = ctx.clock.now();
  const submitted = await submitPatiently(ctx, task);
  if (submitted === undefined) return { kind: 'budget' };
  const cell: Cell = { route: task.route, state: 'n/a', caller: 'owner' };
  const outcome = submissionOutcome(submitted);
  if (!judgeable(ctx, submitted, cell)) {
    if (submitted.status === 429) return { kind: 'rate-limited' };
    return { kind: submitted.notSent === true ? 'stopped' : 'unconfirmed' };
  }
  const ev = evidenceOf(recorder, submitted, undefined, cell);
  const why = is4xx(submitted) ? 'refused' : 'did not accept';
  const path = routePath(task.route, '', ctx.native?.plugin);
  const maybeCreated = outcome === 'refused' ? '' : ': unconfirmed, it may have created a task';
  const accepted = v.expect(
    CHECKS.submissionPaths,
    is2xx(submitted),
    `${path} ${why} a valid task (${task.name}) with HTTP ${submitted.status}${maybeCreated}`,
    ev,
  );
  if (!accepted) return { kind: outcome === 'refused' ? 'refused' : 'unconfirmed' };
  const took = ctx.clock.now() - started;
  v.expect(
    CHECKS.submissionAtOnce,
    took < 10_000,
    `the submission took ${Math.round(took)} ms`,
    ev,
  );
  const body = submitted.json as { id?: unknown; status?: unknown; progress?: unknown } | undefined;
  const taskId = publicIdOf(submitted);
  if (task.route === 'createPluginTask') {
    judgeNativeShape(ctx, submitted, 'createPluginTask', ev);
    if (taskId !== undefined) judgeIdentifiers(ctx, submitted, taskId, ev);
    else
      v.violation(CHECKS.publicIdOnly, 'the native submission answer names no public task ID', ev);
  } else {
    judgeVideoObject(ctx, submitted, { model: task.model }, 'submission', cell);
    v.expect(
      CHECKS.submissionQueued,
      lifecycle.initial.values.includes(body?.status as never),
      `the submission says ${String(body?.status)}`,
      ev,
    );
  }
  if (taskId === undefined || outcome !== 'created') return { kind: 'unconfirmed' };
  ctx.progress(`${taskId} submitted ${task.name}`);
  return { kind: 'created', taskId, progress: body?.progress ?? 0 };
}
