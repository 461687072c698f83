import type { CoreRequest, CoreResponse } from '../core/http/http-types.ts';
import type { Defect, DefectContext } from './defect.ts';
import {
  SUBMISSIONS,
  jsonOf,
  rewriteTaskAnswer,
  seconds,
  withJson,
  without,
  wrapperData,
} from './support.ts';

/** Defects in the OpenAI-form task object (§2.2) of submission answers (§4.1) and status queries (§4.2). */

/** Rewrites the 200 answer of a submission. */
function rewriteSubmission(
  rewrite: (body: Record<string, unknown>) => Record<string, unknown>,
): (request: CoreRequest, response: CoreResponse, context: DefectContext) => CoreResponse {
  return (_request, response, { operationId }) => {
    const body = jsonOf(response);
    if (response.status !== 200 || body === undefined || !SUBMISSIONS.has(operationId ?? ''))
      return response;
    return withJson(response, rewrite(body));
  };
}

/** Rewrites both the submission answer and the OpenAI-form status answer. */
function rewriteTaskObject(
  rewrite: (body: Record<string, unknown>) => Record<string, unknown>,
): (request: CoreRequest, response: CoreResponse, context: DefectContext) => CoreResponse {
  const submission = rewriteSubmission(rewrite);
  const query = rewriteTaskAnswer(['getVideo'], (body) => rewrite(body));
  return (request, response, context) =>
    query(request, submission(request, response, context), context);
}

const OPENAI_TIMES = ['created_at', 'completed_at'];
const WRAPPER_TIMES = ['created_at', 'updated_at'];

/** The body with each of `fields` that is a number multiplied by 1000. */
function inMilliseconds(body: Record<string, unknown>, fields: readonly string[]) {
  const changed = { ...body };
  for (const field of fields)
    if (typeof changed[field] === 'number') changed[field] = changed[field] * 1000;
  return changed;
}

const openAiTimesInMs = rewriteTaskObject((body) => inMilliseconds(body, OPENAI_TIMES));
const wrapperTimesInMs = rewriteTaskAnswer(['getVideoGeneration'], (body) => ({
  ...body,
  data: inMilliseconds(wrapperData(body), WRAPPER_TIMES),
}));

export const TASK_OBJECT_DEFECTS: readonly Defect[] = [
  {
    name: 'task-id-mismatch',
    description: '`task_id` differs from `id` in the OpenAI-form task object',
    breaks: ['task-id-equals-id'],
    after(_request, response, { operationId }) {
      const body = jsonOf(response);
      if (
        response.status !== 200 ||
        body === undefined ||
        typeof body['task_id'] !== 'string' ||
        !(operationId === 'getVideo' || SUBMISSIONS.has(operationId ?? ''))
      )
        return response;
      return withJson(response, { ...body, task_id: `${body['task_id']}x` });
    },
  },
  {
    name: 'wrong-object',
    description: '`object` is "video.generation" instead of the fixed value "video"',
    breaks: ['object-is-video'],
    checks: ['task.shape', 'submission.shape'],
    statements: [
      '4-query-openai',
      '4.2-response',
      '1-two-query-forms',
      '4.1-response-200',
      '4-submit-generations',
      '4-submit-videos',
    ],
    after(_request, response) {
      const body = jsonOf(response);
      if (response.status !== 200 || body?.['object'] !== 'video') return response;
      return withJson(response, { ...body, object: 'video.generation' });
    },
  },
  {
    name: 'model-not-echoed',
    description:
      '`model` is the resolved internal name ("video-pro-v1-20260101") instead of the one requested',
    breaks: ['model-echoed'],
    after: rewriteTaskObject((body) => ({ ...body, model: `${String(body['model'])}-20260101` })),
  },
  {
    name: 'submission-202-accepted',
    description:
      'an accepted submission is answered 202 Accepted (with the task) instead of 200 (§4.1)',
    breaks: ['submission-status-200'],
    after: (_request, response, { operationId }) =>
      response.status === 200 && SUBMISSIONS.has(operationId ?? '')
        ? { ...response, status: 202 }
        : response,
  },
  {
    name: 'submission-without-created-at',
    description: 'the submission answer leaves out `created_at`',
    breaks: ['presence-on-submission'],
    checks: ['submission.shape'],
    after: rewriteSubmission((body) => without(body, 'created_at')),
  },
  {
    name: 'completed-without-completed-at',
    description: 'a completed task leaves out `completed_at` on the OpenAI form',
    breaks: ['presence-when-completed'],
    after: rewriteTaskAnswer(['getVideo'], (body, { snap }) =>
      snap.status === 'completed' ? without(body, 'completed_at') : undefined,
    ),
  },
  {
    name: 'completed-without-url',
    description:
      'a completed task has `metadata` without `url` on the OpenAI form (the wrapper still has result_url)',
    breaks: ['presence-when-completed', 'forms-agree'],
    after: rewriteTaskAnswer(['getVideo'], (body, { snap }) =>
      snap.status === 'completed' ? { ...body, metadata: {} } : undefined,
    ),
  },
  {
    name: 'failed-without-error',
    description: 'a failed task leaves out `error` on the OpenAI form',
    breaks: ['presence-when-failed'],
    after: rewriteTaskAnswer(['getVideo'], (body, { snap }) =>
      snap.status === 'failed' ? without(body, 'error') : undefined,
    ),
  },
  {
    name: 'completed-at-duration',
    description:
      '`completed_at` is the run time in seconds instead of a Unix timestamp, so it is before `created_at`',
    breaks: ['timestamps-ordered', 'unix-timestamps'],
    after: rewriteTaskAnswer(['getVideo'], (body, { task, snap }) =>
      snap.status === 'completed'
        ? { ...body, completed_at: seconds(snap.finishedAt! - task.createdAt - task.plan.queueMs) }
        : undefined,
    ),
  },
  {
    name: 'timestamps-in-milliseconds',
    description:
      'every Unix timestamp is in milliseconds (a JavaScript back end), in the OpenAI form and the wrapper',
    breaks: ['unix-timestamps', 'wrapper-unix-timestamps'],
    after: (request, response, context) =>
      wrapperTimesInMs(request, openAiTimesInMs(request, response, context), context),
  },
];
