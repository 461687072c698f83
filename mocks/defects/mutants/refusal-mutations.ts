import { jsonResponse, type CoreRequest, type CoreResponse } from '../../core/http/http-types.ts';
import { serveMedia } from '../../core/routes/content.ts';
import type { DefectContext } from '../defect.ts';
import { asUser, jsonOf, requestObject, seconds, withJson } from '../support.ts';
import { upstreamTaskNumber } from '../wrapper.ts';
import type { Mutation } from './mutation.ts';

/** Mutations of answers that must refuse (§4.4, §5, §7) and of whole bodies (§1). */

/**
 * Who the request is made as when a mutant lets it through: the task's owner, else a user who may
 * use the body's model.
 */
function grantedUser(request: CoreRequest, { task, state }: DefectContext): string | undefined {
  if (task !== undefined) return task.task.owner;
  const model = requestObject(request)?.['model'];
  const groups = typeof model === 'string' ? state.models.get(model)?.groups : undefined;
  const allowed = state.tokens
    .list()
    .find(
      (t) =>
        t.quota !== 'exhausted' &&
        (groups === undefined || groups.includes(t.group)) &&
        (t.models === undefined || typeof model !== 'string' || t.models.includes(model)),
    );
  return allowed?.user;
}

/** A success answer where the core still refused: a task that does not exist, content not ready. */
function success({ operationId, taskId = '', state }: DefectContext): CoreResponse {
  const now = seconds(state.clock.now());
  const found = { id: taskId, task_id: taskId, object: 'video', model: 'video-pro-v1' };
  switch (operationId) {
    case 'getVideoContent':
      return serveMedia(state.media, undefined, false);
    case 'getVideo':
      return jsonResponse(200, { ...found, status: 'queued', progress: 0, created_at: now });
    case 'getVideoGeneration': {
      const data = { task_id: taskId, platform: '54', status: 'QUEUED', progress: '0%' };
      const times = { fail_reason: '', created_at: now, updated_at: now };
      return jsonResponse(200, { code: 'success', message: '', data: { ...data, ...times } });
    }
    case 'getPluginTask':
      return jsonResponse(200, { id: taskId, model: 'alt-video-v2', status: 'queued' });
    default:
      return jsonResponse(200, { object: 'list', data: [] });
  }
}

/** The request is let through: made as an allowed user, and answered with success if still refused. */
export const grant: Mutation = {
  does: 'lets the request through as if it were allowed',
  before(request, context) {
    const user = grantedUser(request, context);
    return user === undefined ? request : asUser(request, user, context.state);
  },
  after: (_request, response, context) => (response.status < 400 ? response : success(context)),
};

const messageOf = (body: Record<string, unknown> | undefined): string => {
  const error = body?.['error'] as { message?: unknown } | undefined;
  const message = error?.message ?? body?.['message'];
  return typeof message === 'string' ? message : 'error';
};

/** A refusal whose body is text, not JSON. */
export const textError: Mutation = {
  does: 'refuses with a text/plain body instead of JSON',
  after(_request, response) {
    if (response.status < 400) return response;
    const headers = { ...response.headers, 'content-type': 'text/plain; charset=utf-8' };
    return { status: response.status, headers, body: messageOf(jsonOf(response)) };
  },
};

/** A refusal in JSON of neither of the gateway's envelopes. */
export const foreignEnvelope: Mutation = {
  does: 'refuses with JSON of its own shape, {"detail": …}',
  after: (_request, response) =>
    response.status < 400 ? response : withJson(response, { detail: messageOf(jsonOf(response)) }),
};

/** A refusal with a status code the gateway does not use there (still a 4xx). */
export const otherStatus: Mutation = {
  does: 'refuses with HTTP 422',
  after: (_request, response) => (response.status < 400 ? response : { ...response, status: 422 }),
};

/** The upstream's task number added to the body: in the raw upstream body of a wrapper, at the top elsewhere. */
export const leakUpstreamId: Mutation = {
  does: "exposes the upstream's task number (cgt-…) in the body",
  after(_request, response, { operationId, taskId, task, state }) {
    const body = jsonOf(response);
    if (body === undefined) return response;
    const answered = typeof body['id'] === 'string' ? body['id'] : 'task';
    const id = task?.task.id ?? taskId ?? answered;
    const upstream = upstreamTaskNumber(id, task?.task.createdAt ?? state.clock.now());
    const data = body['data'];
    if (operationId === 'getVideoGeneration' && data !== null && typeof data === 'object')
      return withJson(response, { ...body, data: { ...data, data: { id: upstream } } });
    return withJson(response, { ...body, upstream_task_id: upstream });
  },
};

/** A rate limit in front of the submission: refused 429 (no task), without `Retry-After`. */
export const bareRateLimit: Mutation = {
  does: 'refuses the submission with a 429 that carries no Retry-After',
  before: (request) => ({
    ...request,
    headers: { ...request.headers, 'x-mock-scenario': 'fail-at-submit:429' },
  }),
  after(_request, response) {
    if (response.status !== 429) return response;
    const { 'retry-after': _gone, ...headers } = response.headers;
    return { ...response, headers };
  },
};
