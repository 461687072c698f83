import { route as routeModel } from '../core/keys/catalog.ts';
import type { CoreRequest } from '../core/http/http-types.ts';
import { parseForm } from '../core/http/multipart.ts';
import type { Defect, DefectContext } from './defect.ts';
import { grant } from './mutants/refusal-mutations.ts';
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

/**
 * A submission of a model the caller's token (or group) may not use is made as a user who may: the
 * deployment does not enforce §5's permissions. A model no one may use, or one that does not exist, is
 * left to the core.
 */
export function ignoreModelPermissions(request: CoreRequest, context: DefectContext): CoreRequest {
  const { operationId, caller, state } = context;
  const model = requestObject(request)?.['model'];
  if (!SUBMISSIONS.has(operationId ?? '') || caller === undefined || typeof model !== 'string')
    return request;
  if (!state.models.has(model) || routeModel(state.models, caller, model).ok) return request;
  return grant.before!(request, context);
}

/**
 * A `multipart/form-data` submission that uploads a file is read as the JSON of its text fields: the
 * deployment accepts the upload (§2.1: "multipart file upload is not accepted") and drops the file.
 */
export function acceptFileUpload(request: CoreRequest): CoreRequest {
  const type = request.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type) || request.body === undefined) return request;
  const form = parseForm(request.body, type);
  if ('problem' in form || !form.parts.some((p) => p.filename !== undefined)) return request;
  const fields = Object.fromEntries(
    form.parts.filter((p) => p.filename === undefined).map((p) => [p.name, p.value]),
  );
  return {
    ...request,
    headers: { ...request.headers, 'content-type': 'application/json' },
    body: encoder.encode(JSON.stringify(fields)),
  };
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
    name: 'model-permissions-ignored',
    description:
      "a submission of a model the key's token or group may not use creates a task (as a user who may)",
    breaks: ['model-permissions'],
    before: ignoreModelPermissions,
  },
  {
    name: 'file-upload-accepted',
    description: 'a multipart submission uploading a file creates a task from its text fields',
    breaks: ['multipart-upload-refused'],
    before: (request, { operationId }) =>
      SUBMISSIONS.has(operationId ?? '') ? acceptFileUpload(request) : request,
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
