import type { Defect, DefectContext } from '../../../mocks/defects/defect.ts';
import { bareRateLimit } from '../../../mocks/defects/mutants/refusal-mutations.ts';
import { errorResponse } from '../../../mocks/core/http/errors.ts';
import { requestObject, withHeader } from '../../../mocks/defects/support.ts';
import type { CoreRequest } from '../../../mocks/core/http/http-types.ts';

const SUBMISSIONS = new Set(['createVideoGeneration', 'createVideo', 'createPluginTask']);

/**
 * Deployments the contract tests play that are not named defects: they break no rule by themselves,
 * or no scripted session can show them alone. First, those that put the budget to the test (issue 14
 * item 10): each creates the task a submission asks for, then leaves the suite unable to confirm it
 * (§7 names both cases).
 */
export const CREATED_THEN_500: Defect = {
  name: 'created-then-500',
  description: 'creates the task, then answers the submission 500',
  breaks: [],
  after: (_request, response, { operationId }) =>
    operationId !== undefined && SUBMISSIONS.has(operationId) && response.status === 200
      ? errorResponse('internal_error', { problem: 'the upstream answer could not be read' })
      : response,
};

/** `lost-answer[:SECONDS]` on every submission: the task is created, its answer dropped (or held). */
export function lostAnswer(seconds?: number): Defect {
  const scenario = seconds === undefined ? 'lost-answer' : `lost-answer:${seconds}`;
  return {
    name: 'lost-answer',
    description: `creates the task, then loses the answer (${scenario})`,
    breaks: [],
    before: (request, { operationId }) =>
      operationId !== undefined && SUBMISSIONS.has(operationId)
        ? withHeader(request, 'x-mock-scenario', scenario)
        : request,
  };
}

/** A 200 whose body names no task (here: not JSON at all), after creating it. */
export const CREATED_THEN_UNREADABLE: Defect = {
  name: 'created-then-unreadable',
  description: 'creates the task, then answers 200 with a body that names no task',
  breaks: [],
  after: (_request, response, { operationId }) =>
    operationId !== undefined && SUBMISSIONS.has(operationId) && response.status === 200
      ? { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>accepted</html>' }
      : response,
};

const submission = ({ operationId }: DefectContext) =>
  operationId !== undefined && SUBMISSIONS.has(operationId);

/** Every submission refused 429 without `Retry-After`, as the gateway passes an upstream's 429 through. */
export const UPSTREAM_429_NO_RETRY_AFTER: Defect = {
  name: 'upstream-429-no-retry-after',
  description: 'refuses every submission with a 429 that carries no Retry-After',
  breaks: ['rate-limit-retry-after'],
  before: (request, context) =>
    submission(context) ? bareRateLimit.before!(request, context) : request,
  after: (request, response, context) =>
    submission(context) ? bareRateLimit.after!(request, response, context) : response,
};

/** The content route of a mid-2026 gateway: no HEAD (405), Range ignored (reference-gateway-facts.md). */
export const OLDER_CONTENT_ROUTE: Defect = {
  name: 'older-content-route',
  description: 'answers no HEAD (405) and ignores Range',
  breaks: [],
  before: (request, { operationId }) => {
    if (operationId !== 'getVideoContent') return request;
    const { range: _range, ...headers } = request.headers;
    return { ...request, headers };
  },
  after: (request, response, { operationId }) =>
    operationId === 'getVideoContent' && request.method === 'HEAD'
      ? { status: 405, headers: { allow: 'GET' } }
      : response,
};

/**
 * The first `count` submissions of a task (the owner's key, a model and a prompt that is not blank: not
 * a refusal probe) refused 429 with `Retry-After: SECONDS` (the `rate-limit:SECONDS` scenario, default
 * 2); the rest served.
 */
export function firstSubmissionsRateLimited(count: number, seconds = 2): Defect {
  let seen = 0;
  const aTask = (request: CoreRequest) => {
    const body = requestObject(request);
    const prompt = body?.['prompt'];
    const owner = request.headers.authorization === 'Bearer sk-mock-alice';
    return (
      owner &&
      typeof body?.['model'] === 'string' &&
      typeof prompt === 'string' &&
      prompt.trim() !== ''
    );
  };
  return {
    name: 'first-submissions-rate-limited',
    description: `refuses the first ${count} task submission(s) 429 with Retry-After: ${seconds}`,
    breaks: [],
    before: (request, context) =>
      submission(context) && aTask(request) && seen++ < count
        ? withHeader(request, 'x-mock-scenario', `rate-limit:${seconds}`)
        : request,
  };
}

/**
 * The owner's first `count` reads of each task's OpenAI form (§4.2) refused 429 with
 * `Retry-After: SECONDS` (every read with `count` Infinity): a key's rate limit met at the first look.
 */
export function looksRateLimited(count: number, seconds = 2): Defect {
  const reads = new Map<string, number>();
  return {
    name: 'looks-rate-limited',
    description: `refuses the first ${count} read(s) of each task 429 with Retry-After: ${seconds}`,
    breaks: [],
    after(_request, response, { operationId, taskId = '' }) {
      if (operationId !== 'getVideo' || response.status !== 200) return response;
      const seen = reads.get(taskId) ?? 0;
      reads.set(taskId, seen + 1);
      if (seen >= count) return response;
      return errorResponse(
        'rate_limited',
        { problem: 'too many reads of this task' },
        { 'retry-after': String(seconds) },
      );
    },
  };
}
