import type { CoreRequest } from '../core/http-types.ts';
import type { ServiceState } from '../core/service-state.ts';
import type { Defect } from './defect.ts';
import { SUBMISSIONS, callerOf, keyOf, operationOf, withHeader } from './support.ts';

/** Defects of authentication and ownership (§5), request checks (§2.1, §7) and error answers (§4.4, §7). */

/** `before`: a request from another user for a task of `operations` is made as the task's owner. */
function actAsOwner(
  operations: readonly string[],
): (request: CoreRequest, state: ServiceState) => CoreRequest {
  return (request, state) => {
    const operation = operationOf(request);
    if (operation?.taskId === undefined || !operations.includes(operation.operationId))
      return request;
    const caller = callerOf(request, state);
    const task = state.store.get(operation.taskId);
    if (caller === undefined || task === undefined || task.owner === caller.user) return request;
    const key = keyOf(task.owner, state);
    return key === undefined ? request : withHeader(request, 'authorization', `Bearer ${key}`);
  };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

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
    before(request, state) {
      if (request.headers['authorization'] !== undefined) return request;
      const operation = operationOf(request);
      let key: string | undefined;
      if (operation?.operationId === 'listModels') key = state.tokens.list()[0]?.key;
      else if (operation?.operationId === 'getVideo' && operation.taskId !== undefined) {
        const task = state.store.get(operation.taskId);
        if (task !== undefined) key = keyOf(task.owner, state);
      }
      return key === undefined ? request : withHeader(request, 'authorization', `Bearer ${key}`);
    },
  },
  {
    name: 'empty-prompt-accepted',
    description: 'an empty or blank prompt creates a task instead of being refused',
    breaks: ['empty-prompt-invalid'],
    before(request) {
      if (!SUBMISSIONS.has(operationOf(request)?.operationId ?? '') || request.body === undefined)
        return request;
      let body: unknown;
      try {
        body = JSON.parse(decoder.decode(request.body));
      } catch {
        return request;
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return request;
      const prompt = (body as Record<string, unknown>)['prompt'];
      if (typeof prompt !== 'string' || prompt.trim() !== '') return request;
      // The deployment fills a default prompt in instead of refusing.
      return {
        ...request,
        body: encoder.encode(JSON.stringify({ ...body, prompt: 'untitled video' })),
      };
    },
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
      return {
        status: response.status,
        headers,
        body: String(parsed.error?.message ?? parsed.message ?? 'error'),
      };
    },
  },
];
