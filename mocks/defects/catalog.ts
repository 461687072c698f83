import { jsonResponse, type CoreResponse } from '../core/http-types.ts';
import type { Defect } from './defect.ts';

/** JSON body of a core response, or undefined when it is not JSON. */
export function jsonOf(response: CoreResponse): Record<string, unknown> | undefined {
  if (typeof response.body !== 'string' || !(response.headers['content-type'] ?? '').startsWith('application/json')) return undefined;
  return JSON.parse(response.body) as Record<string, unknown>;
}

/** The same response with a rewritten JSON body. */
export function withJson(response: CoreResponse, body: unknown): CoreResponse {
  return jsonResponse(response.status, body, { ...response.headers });
}

const isVideoQuery = (path: string) => /^\/v1\/videos\/[^/]+$/.test(path);

export const DEFECTS: readonly Defect[] = [
  {
    name: 'task-id-mismatch',
    description: '`task_id` differs from `id` in the OpenAI-form task object',
    breaks: ['task-id-equals-id'],
    after(request, response) {
      const body = jsonOf(response);
      if (response.status !== 200 || body === undefined || typeof body['task_id'] !== 'string' || !(isVideoQuery(request.path) || request.method === 'POST')) return response;
      return withJson(response, { ...body, task_id: `${body['task_id']}x` });
    },
  },
  {
    name: 'wrong-object',
    description: '`object` is "video.generation" instead of the fixed value "video"',
    breaks: ['object-is-video'],
    after(_request, response) {
      const body = jsonOf(response);
      if (response.status !== 200 || body?.['object'] !== 'video') return response;
      return withJson(response, { ...body, object: 'video.generation' });
    },
  },
];
