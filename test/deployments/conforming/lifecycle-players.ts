import { errorResponse } from '../../../mocks/core/http/errors.ts';
import type { CoreResponse } from '../../../mocks/core/http/http-types.ts';
import type { Random } from '../../../mocks/core/plan/random.ts';
import type { ServiceWrapper, WrapContext } from '../../../mocks/core/service/wrap.ts';
import { SECOND_FAMILY_MODELS } from '../../../mocks/core/keys/catalog.ts';
import { callerOwnsTask } from '../../../mocks/defects/defect.ts';
import { jsonOf, requestObject, withJson, wrapperData } from '../../../mocks/defects/support.ts';
import { looksRateLimited } from '../../contracts/support/deployments.ts';
import type { Player } from './deployment.ts';

/**
 * What a task does where the document leaves it open (spec/freedoms.yaml `task-timing`,
 * `unknown-state`, `progress-curve`, `task-outcome`, `rate-limiting`, `second-family-unbound`): the
 * mock's options, and wrappers that read the task's plan at the instant asked.
 */

type Window = (elapsedMs: number, context: WrapContext) => boolean;

const QUERIES = new Set(['getVideo', 'getVideoGeneration', 'getVideoContent']);

/** Whether the owner's look at this instant shows the task `unknown`. */
function masked(context: WrapContext, window: Window): boolean {
  const { operationId, task } = context;
  if (operationId === undefined || !QUERIES.has(operationId) || task === undefined) return false;
  if (!callerOwnsTask(context)) return false;
  return window(task.at - task.task.createdAt, context);
}

/**
 * The task says `unknown` while `window` holds (the gateway's NOT_START, a poller that has not looked
 * yet): both query forms say so (the wrapper in the profile's own word), and content stays refused.
 */
function unknownWhile(window: Window): ServiceWrapper {
  return {
    name: 'conforming-unknown',
    after: (_request, response, context) => {
      if (response.status >= 400 || !masked(context, window)) return response;
      if (context.operationId === 'getVideoContent')
        return errorResponse('task_not_completed', { status: 'UNKNOWN' });
      const body = jsonOf(response);
      if (body === undefined) return response;
      // A state not yet learned carries no outcome: no error, no failure reason.
      if (context.operationId === 'getVideo') {
        const { error: _error, ...rest } = body;
        return withJson(response, { ...rest, status: 'unknown' });
      }
      const data = wrapperData(body);
      const word = context.state.wrapperStatuses.unknown;
      return withJson(response, { ...body, data: { ...data, status: word, fail_reason: '' } });
    },
  };
}

/** `unknown` in the middle of the run: a stretch of its running time, while it is still running. */
const midRun: Window = (elapsed, { task }) => {
  const plan = task!.task.plan;
  if (task!.snap.status !== 'in_progress' || !Number.isFinite(plan.runMs)) return false;
  const from = plan.queueMs + plan.runMs * 0.3;
  return elapsed >= from && elapsed < from + Math.min(20_000, plan.runMs * 0.4);
};

/** Progress of a task at an instant: from its state (the status the core gives it now) and its plan. */
type ProgressOf = (context: WrapContext) => number;

/** Progress by the task's state: `steps[state]`. */
const byState =
  (steps: Readonly<Record<string, number>>): ProgressOf =>
  (context) =>
    steps[context.task!.snap.status] ?? 0;

/** 50 in the first half of the run, 30 in the second (the gateway's unknown upstream status), 100 done. */
const falling: ProgressOf = ({ task }) => {
  const { snap, at, task: record } = task!;
  if (snap.status !== 'in_progress') return snap.status === 'completed' ? 100 : 0;
  const running = at - record.createdAt - record.plan.queueMs;
  return running < record.plan.runMs / 2 ? 50 : 30;
};

/** Both query forms' progress, as `of` says, for the owner's own task. */
function progressBy(of: ProgressOf): ServiceWrapper {
  return {
    name: 'conforming-progress',
    after: (_request, response, context) => {
      const { operationId, task } = context;
      if (response.status !== 200 || task === undefined || !callerOwnsTask(context))
        return response;
      const body = jsonOf(response);
      if (body === undefined) return response;
      if (operationId === 'getVideo') return withJson(response, { ...body, progress: of(context) });
      if (operationId !== 'getVideoGeneration') return response;
      const data = { ...wrapperData(body), progress: `${of(context)}%` };
      return withJson(response, { ...body, data });
    },
  };
}

const SUBMITTING = new Set(['createVideoGeneration', 'createVideo', 'createPluginTask']);

/** A valid task's submission (a model and a prompt or content): not a refusal probe. */
function isTaskSubmission(
  context: WrapContext,
  body: Record<string, unknown> | undefined,
): boolean {
  if (context.operationId === undefined || !SUBMITTING.has(context.operationId)) return false;
  if (context.caller === undefined || typeof body?.['model'] !== 'string') return false;
  const prompt = body['prompt'];
  return Array.isArray(body['content']) || (typeof prompt === 'string' && prompt.trim() !== '');
}

/**
 * The first task submission on each path refused 429 and no task created: with `Retry-After: 1` and
 * a JSON body, or bare (no header, an empty body).
 */
function firstSubmissionRefused(bare: boolean): ServiceWrapper {
  const refused = new Set<string>();
  const answer = (): CoreResponse =>
    bare
      ? { status: 429, headers: {}, body: '' }
      : errorResponse('rate_limited', { problem: 'too many submissions' }, { 'retry-after': '1' });
  let refuseNow = false;
  return {
    name: 'conforming-first-submission-429',
    before: (request, context) => {
      const path = context.operationId ?? '';
      refuseNow = isTaskSubmission(context, requestObject(request)) && !refused.has(path);
      if (!refuseNow) return request;
      refused.add(path);
      // The core sees a request that creates nothing: a GET of the catalog.
      return { ...request, method: 'GET', path: '/v1/models', body: undefined };
    },
    after: (_request, response) => (refuseNow ? ((refuseNow = false), answer()) : response),
  };
}

/**
 * Any request refused 429 the first time it is asked (the same method, path and key), with
 * `Retry-After: 1` and a JSON body, or a bare 429: a rate limiter in front of every route. The refused
 * request never reaches the service (the core sees a GET of the catalog): a 429 creates no task (§7).
 */
function everyRequestOnce(bare: boolean): ServiceWrapper {
  const asked = new Set<string>();
  let refuseNow = false;
  return {
    name: 'conforming-every-request-once-429',
    before: (request) => {
      const key = `${request.method} ${request.path} ${request.headers['authorization'] ?? ''}`;
      refuseNow = !asked.has(key);
      if (!refuseNow) return request;
      asked.add(key);
      return { ...request, method: 'GET', path: '/v1/models', query: '', body: undefined };
    },
    after: (_request, response) => {
      if (!refuseNow) return response;
      refuseNow = false;
      return bare
        ? { status: 429, headers: {}, body: '' }
        : errorResponse('rate_limited', { problem: 'slow down' }, { 'retry-after': '1' });
    },
  };
}

/** The second family listed in the catalog although its plugin is not bound (it is configured, §1). */
const familyListed: ServiceWrapper = {
  name: 'conforming-family-listed',
  after: (_request, response, { operationId }) => {
    const body = operationId === 'listModels' ? jsonOf(response) : undefined;
    const data = body?.['data'] as { id?: unknown }[] | undefined;
    if (response.status !== 200 || !Array.isArray(data)) return response;
    const listed = new Set(data.map((m) => m.id));
    const family = SECOND_FAMILY_MODELS.filter((id) => !listed.has(id)).map((id) => ({
      id,
      object: 'model',
      created: 1_790_000_000,
      owned_by: 'vip',
    }));
    return withJson(response, { ...body, data: [...data, ...family] });
  },
};

/** The owner's first read of each task's OpenAI form refused with a bare 429: no header, no body. */
function firstLookBare(): ServiceWrapper {
  const read = new Set<string>();
  return {
    name: 'conforming-first-look-bare-429',
    after: (_request, response, { operationId, taskId = '' }) => {
      if (operationId !== 'getVideo' || response.status !== 200 || read.has(taskId))
        return response;
      read.add(taskId);
      return { status: 429, headers: {}, body: '' };
    },
  };
}

const MINUTE = 60_000;

const timing =
  (queueMs: [number, number], runMs: [number, number]): Player =>
  () => ({ mock: { timing: { queueMs, runMs } } });

export const LIFECYCLE_PLAYERS: Readonly<Record<string, Player>> = {
  'rate-limiting/none': () => ({}),
  'rate-limiting/first-look-retry-after': () => ({ wrap: [looksRateLimited(1, 1)] }),
  'rate-limiting/first-look-bare': () => ({ wrap: [firstLookBare()] }),
  'rate-limiting/first-submission-retry-after': () => ({ wrap: [firstSubmissionRefused(false)] }),
  'rate-limiting/first-submission-bare': () => ({ wrap: [firstSubmissionRefused(true)] }),
  'rate-limiting/every-request-once': () => ({ wrap: [everyRequestOnce(false)] }),
  'task-timing/seconds': () => ({}),
  'task-timing/instant': timing([0, 0], [0, 500]),
  'task-timing/starts-at-once': timing([0, 0], [5_000, 30_000]),
  'task-timing/minutes': timing([5_000, MINUTE], [2 * MINUTE, 5 * MINUTE]),
  'task-timing/outlasts-polling': timing([2_000, 8_000], [20 * MINUTE, 25 * MINUTE]),
  'unknown-state/never': () => ({}),
  'unknown-state/first-seconds': (random: Random) => {
    const ms = random.int(500, 15_000);
    return { wrap: [unknownWhile((elapsed) => elapsed < ms)] };
  },
  'unknown-state/mid-run': () => ({ wrap: [unknownWhile(midRun)] }),
  'unknown-state/for-ever': () => ({ wrap: [unknownWhile(() => true)] }),
  'progress-curve/mock': () => ({}),
  'progress-curve/gateway-steps': () => ({
    wrap: [
      progressBy(byState({ unknown: 0, queued: 10, in_progress: 50, completed: 100, failed: 100 })),
    ],
  }),
  'progress-curve/zero-until-done': () => ({
    wrap: [progressBy(byState({ completed: 100, failed: 100 }))],
  }),
  'progress-curve/falls': () => ({ wrap: [progressBy(falling)] }),
  'task-outcome/as-asked': () => ({}),
  'task-outcome/half-fail': () => ({ mock: { failureRate: 0.5 } }),
  'second-family-unbound/bound': () => ({
    mock: { familyBound: true },
    target: { family: { model: SECOND_FAMILY_MODELS[0]!, plugin: 'alt-video' } },
  }),
  'second-family-unbound/unbound': () => ({
    mock: { familyBound: false },
    target: { family: undefined },
  }),
  'second-family-unbound/unbound-listed': () => ({
    mock: { familyBound: false },
    wrap: [familyListed],
    target: { family: undefined },
  }),
};
