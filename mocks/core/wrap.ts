import type { CoreRequest, CoreResponse } from './http-types.ts';
import type { RouteMatch } from './router.ts';
import type { ServiceState } from './service-state.ts';
import { taskView, type TaskView } from './task-view.ts';
import type { MockToken } from './tokens.ts';

/**
 * What the core tells a wrapper about one request
 * ([decisions/029](../../decisions/029-the-core-takes-wrappers.md)): built once per request, in the
 * core's dispatch, from the route match the core makes anyway, before any wrapper runs.
 */
export interface WrapContext {
  /** The request as it arrived, before any wrapper rewrote it. */
  readonly request: CoreRequest;
  /** The service operation (`getVideo`, …); undefined for the control API, artifacts and unknown routes. */
  readonly operationId: string | undefined;
  /** The caller as the core authenticates the request's key; undefined without a valid key. */
  readonly caller: MockToken | undefined;
  /** The task ID the path names, if it names one. */
  readonly taskId: string | undefined;
  /** That task, whoever owns it, and its state now; undefined when there is no such task. */
  readonly task: TaskView | undefined;
  readonly state: ServiceState;
}

/**
 * Something wrapped around the core (`MockOptions.wrap`, decisions/029): it may rewrite the request
 * before the core sees it, and the answer after. The wrappers run in the order given, `before`s first to
 * last, then the core, then `after`s first to last. The Node entry's named defects (`--defect NAME`,
 * `mocks/defects/`) are wrappers; the core knows none of them.
 */
export interface ServiceWrapper {
  /** Listed by `GET /__mock/health` (`defects`) when set: a defect's name. */
  readonly name?: string | undefined;
  readonly before?: (request: CoreRequest, context: WrapContext) => CoreRequest;
  readonly after?: (
    request: CoreRequest,
    response: CoreResponse,
    context: WrapContext,
  ) => CoreResponse;
}

/** The context of one request, from the route match dispatch made of it. */
export function wrapContext<Context>(
  request: CoreRequest,
  match: RouteMatch<Context>,
  state: ServiceState,
): WrapContext {
  const found = match.kind === 'found' ? match : undefined;
  const taskId = found?.params['task_id'];
  return {
    request,
    operationId: found?.route.access === 'service' ? found.route.operationId : undefined,
    caller: state.tokens.authenticate(request.headers['authorization']),
    taskId,
    task: taskId === undefined ? undefined : taskView(state, taskId),
    state,
  };
}

/** The named wrappers' names (`GET /__mock/health` lists them as the defects played). */
export const wrapperNames = (wrappers: readonly ServiceWrapper[]): readonly string[] =>
  wrappers.flatMap((w) => (w.name === undefined ? [] : [w.name]));
