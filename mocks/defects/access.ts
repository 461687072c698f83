import type { CoreRequest } from '../core/http-types.ts';
import type { Defect, DefectContext } from './defect.ts';
import { SUBMISSIONS, asUser, requestObject } from './support.ts';

/** Defects of authentication and ownership (§5), request checks (§2.1, §7) and error answers (§4.4, §7). */

/** `before`: a request from another user for a task of `operations` is made as the task's owner. */
function actAsOwner(
  operations: readonly string[],
): (request: CoreRequest, context: DefectContext) => CoreRequest {
  return (request, { operationId, caller, task, state }) => {
    if (task === undefined || caller === undefined || !operations.includes(operationId ?? ''))
      return request;
    return task.task.owner === caller.user ? request : asUser(request, task.task.owner, state);
  };
}

const encoder = new TextEncoder();

/** A submission with an empty or blank prompt gets a default one: the deployment fills it in instead of refusing. */
export function fillEmptyPrompt(request: CoreRequest): CoreRequest {
  const body = requestObject(request);
  if (body === undefined) return request;
  const prompt = body['prompt'];
  if (typeof prompt !== 'string' || prompt.trim() !== '') return request;
  return {
    ...request,
    body: encoder.encode(JSON.stringify({ ...body, prompt: 'untitled video' })),
  };
}

/** The model a deployment that defaults a missing one would pick. */
const DEFAULT_MODEL = 'video-pro-v1';

/**
 * A submission whose `model` or `prompt` (§2.1: required strings) is missing or of another type gets
 * one: the default model, the prompt as text. The deployment fills them in instead of refusing.
 */
export function fillRequiredFields(request: CoreRequest): CoreRequest {
  const body = requestObject(request);
  if (body === undefined) return request;
  const { model, prompt } = body;
  if (typeof model === 'string' && typeof prompt === 'string') return request;
  const text =
    prompt === undefined || prompt === null
      ? 'untitled video'
      : Array.isArray(prompt)
        ? prompt.join(' ')
        : JSON.stringify(prompt);
  const filled = {
    ...body,
    model: typeof model === 'string' ? model : DEFAULT_MODEL,
    prompt: typeof prompt === 'string' ? prompt : text,
  };
  return { ...request, body: encoder.encode(JSON.stringify(filled)) };
}

export const ACCESS_DEFECTS: readonly Defect[] = [
  {
    name: 'foreign-content',
    description: "content of another user's task is served to any valid key",
    breaks: ['owner-only', 'content-json-errors'],
    before: actAsOwner(['getVideoContent']),
  },
  {
    name: 'foreign-status',
    description: "the OpenAI-form status of another user's task is returned to any valid key",
    breaks: ['owner-only'],
    before: actAsOwner(['getVideo']),
  },
  {
    name: 'auth-skipped',
    description: 'GET /v1/videos/{id} and GET /v1/models answer without an Authorization header',
    breaks: ['auth-required'],
    before(request, { operationId, task, state }) {
      if (request.headers['authorization'] !== undefined) return request;
      const anyone = state.tokens.list()[0]?.user;
      if (operationId === 'listModels' && anyone !== undefined)
        return asUser(request, anyone, state);
      if (operationId === 'getVideo' && task !== undefined)
        return asUser(request, task.task.owner, state);
      return request;
    },
  },
  {
    name: 'empty-prompt-accepted',
    description: 'an empty or blank prompt creates a task instead of being refused',
    breaks: ['empty-prompt-invalid'],
    before: (request, { operationId }) =>
      SUBMISSIONS.has(operationId ?? '') ? fillEmptyPrompt(request) : request,
  },
  {
    name: 'required-fields-defaulted',
    description:
      'a submission without model or prompt, or with one of another type, gets a default instead of a 4xx',
    breaks: ['required-fields'],
    before: (request, { operationId }) =>
      SUBMISSIONS.has(operationId ?? '') ? fillRequiredFields(request) : request,
  },
  {
    name: 'non-json-error',
    description: 'error answers are text/plain instead of JSON',
    breaks: ['content-json-errors', 'error-envelope'],
    after(request, response) {
      if (
        response.status < 400 ||
        request.path.startsWith('/__mock/') ||
        !(response.headers['content-type'] ?? '').startsWith('application/json')
      )
        return response;
      const headers = { ...response.headers, 'content-type': 'text/plain; charset=utf-8' };
      if (typeof response.body !== 'string') return { status: response.status, headers };
      const parsed = JSON.parse(response.body) as {
        error?: { message?: unknown };
        message?: unknown;
      };
      const message = parsed.error?.message ?? parsed.message ?? 'error';
      return {
        status: response.status,
        headers,
        body: typeof message === 'string' ? message : JSON.stringify(message),
      };
    },
  },
];
