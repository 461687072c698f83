import { operationsWith } from '../../src/spec/route-roles.ts';
import { jsonResponse, type CoreRequest, type CoreResponse } from '../core/http/http-types.ts';
import type { ServiceState } from '../core/service/service-state.ts';
import { callerOwnsTask, type DefectContext, type TaskView } from './defect.ts';

/**
 * What defects share: reading a core answer's JSON, rewriting it, acting as another caller. The core
 * tells each defect the operation, the caller and the task (`DefectContext`); nothing here routes,
 * authenticates or looks a task up again, and nothing changes the core's state.
 */

/** A JSON media type: `application/json`, or one with a `+json` suffix (`application/problem+json`). */
const JSON_MEDIA = /^application\/([\w.-]+\+)?json\b/i;

/** JSON body of a core response, or undefined when it is not JSON. */
export function jsonOf(response: CoreResponse): Record<string, unknown> | undefined {
  if (typeof response.body !== 'string' || !JSON_MEDIA.test(response.headers['content-type'] ?? ''))
    return undefined;
  return JSON.parse(response.body) as Record<string, unknown>;
}

const decoder = new TextDecoder();

/** A request's JSON body when it is a JSON object; undefined when it is missing, not JSON or not an object. */
export function requestObject(request: CoreRequest): Record<string, unknown> | undefined {
  let body: unknown;
  try {
    body = JSON.parse(decoder.decode(request.body ?? new Uint8Array()));
  } catch {
    return undefined;
  }
  return body !== null && typeof body === 'object' && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : undefined;
}

/** The same response with a rewritten JSON body. */
export function withJson(response: CoreResponse, body: unknown): CoreResponse {
  return jsonResponse(response.status, body, { ...response.headers });
}

/** The same request with one header set. */
export function withHeader(request: CoreRequest, name: string, value: string): CoreRequest {
  return { ...request, headers: { ...request.headers, [name]: value } };
}

/** The same request sent with `user`'s key (the first in the directory); unchanged when they have none. */
export function asUser(request: CoreRequest, user: string, state: ServiceState): CoreRequest {
  const key = state.tokens.list().find((t) => t.user === user)?.key;
  return key === undefined ? request : withHeader(request, 'authorization', `Bearer ${key}`);
}

/** The documented submit paths (§4.1) and the documented queries (§4.2, §4.3), by their spec role. */
export const SUBMISSIONS: ReadonlySet<string> = new Set(
  operationsWith({ kind: 'submit', form: 'openai' }),
);
export const DOCUMENTED_QUERIES = operationsWith({ kind: 'query', family: 'any' });

/**
 * A defect that rewrites the 200 JSON answer of some operations for the caller's own task, in its state
 * at this instant. `rewrite` returns the new body, or undefined to leave the answer alone.
 */
export function rewriteTaskAnswer(
  operations: readonly string[],
  rewrite: (
    body: Record<string, unknown>,
    found: TaskView & { readonly operationId: string },
    context: DefectContext,
  ) => Record<string, unknown> | undefined,
): (request: CoreRequest, response: CoreResponse, context: DefectContext) => CoreResponse {
  return (_request, response, context) => {
    const { operationId, task } = context;
    if (response.status !== 200 || operationId === undefined || !operations.includes(operationId))
      return response;
    const body = jsonOf(response);
    if (body === undefined || task === undefined || !callerOwnsTask(context)) return response;
    const rewritten = rewrite(body, { ...task, operationId }, context);
    return rewritten === undefined ? response : withJson(response, rewritten);
  };
}

/** The wrapper's `data` object of a §2.3 answer. */
export function wrapperData(body: Record<string, unknown>): Record<string, unknown> {
  return body['data'] as Record<string, unknown>;
}

/** A copy of `body` without the named keys. */
export function without(body: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  const copy = { ...body };
  for (const key of keys) delete copy[key];
  return copy;
}

export const seconds = (ms: number): number => Math.floor(ms / 1000);
