import { jsonResponse, type CoreRequest, type CoreResponse } from '../core/http-types.ts';
import { ROUTES } from '../core/route-table.ts';
import { Router } from '../core/router.ts';
import type { RouteContext, ServiceState } from '../core/service-state.ts';
import { snapshot, type TaskSnapshot } from '../core/snapshot.ts';
import type { TaskRecord } from '../core/store.ts';
import type { MockToken } from '../core/tokens.ts';

/**
 * What defects share: reading the request the core saw (which operation, which caller, which task) and
 * rewriting its answer. Everything here only reads the core; nothing changes its state.
 */

/** JSON body of a core response, or undefined when it is not JSON. */
export function jsonOf(response: CoreResponse): Record<string, unknown> | undefined {
  if (
    typeof response.body !== 'string' ||
    !(response.headers['content-type'] ?? '').startsWith('application/json')
  )
    return undefined;
  return JSON.parse(response.body) as Record<string, unknown>;
}

/** The same response with a rewritten JSON body. */
export function withJson(response: CoreResponse, body: unknown): CoreResponse {
  return jsonResponse(response.status, body, { ...response.headers });
}

/** The same request with one header set. */
export function withHeader(request: CoreRequest, name: string, value: string): CoreRequest {
  return { ...request, headers: { ...request.headers, [name]: value } };
}

let router: Router<RouteContext> | undefined;

/** The service operation a request is for (`getVideo`, …) and its path parameters; undefined otherwise. */
export function operationOf(
  request: CoreRequest,
): { readonly operationId: string; readonly taskId: string | undefined } | undefined {
  router ??= new Router(ROUTES);
  const match = router.match(request.method, request.path);
  if (match.kind !== 'found' || match.route.access !== 'service') return undefined;
  return { operationId: match.route.operationId, taskId: match.params['task_id'] };
}

export const SUBMISSIONS: ReadonlySet<string> = new Set(['createVideoGeneration', 'createVideo']);

/** The token of the request's key, as the core authenticates it. */
export function callerOf(request: CoreRequest, state: ServiceState): MockToken | undefined {
  return state.tokens.authenticate(request.headers['authorization']);
}

/** A key of `user` (the first in the directory), to act as them. */
export function keyOf(user: string, state: ServiceState): string | undefined {
  return state.tokens.list().find((t) => t.user === user)?.key;
}

/** The task a request names when the caller owns it, with its state at this instant. */
export function callersTask(
  request: CoreRequest,
  state: ServiceState,
): { task: TaskRecord; snap: TaskSnapshot } | undefined {
  const taskId = operationOf(request)?.taskId;
  const caller = callerOf(request, state);
  if (taskId === undefined || caller === undefined) return undefined;
  const task = state.store.getOwned(taskId, caller.user);
  return task === undefined
    ? undefined
    : { task, snap: snapshot(task.createdAt, task.plan, state.clock.now()) };
}

/**
 * A defect that rewrites the 200 JSON answer of some operations for the caller's own task, in its state
 * at this instant. `rewrite` returns the new body, or undefined to leave the answer alone.
 */
export function rewriteTaskAnswer(
  operations: readonly string[],
  rewrite: (
    body: Record<string, unknown>,
    found: { task: TaskRecord; snap: TaskSnapshot; operationId: string },
    state: ServiceState,
    request: CoreRequest,
  ) => Record<string, unknown> | undefined,
): (request: CoreRequest, response: CoreResponse, state: ServiceState) => CoreResponse {
  return (request, response, state) => {
    if (response.status !== 200) return response;
    const operationId = operationOf(request)?.operationId;
    if (operationId === undefined || !operations.includes(operationId)) return response;
    const body = jsonOf(response);
    const found = callersTask(request, state);
    if (body === undefined || found === undefined) return response;
    const rewritten = rewrite(body, { ...found, operationId }, state, request);
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
