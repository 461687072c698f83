import type { CoreRequest, CoreResponse } from '../http/http-types.ts';
import type { RouteMatch } from '../http/router.ts';
import type { ServiceState } from './service-state.ts';
import type { TaskView } from '../task/task-view.ts';
import type { MockToken } from '../keys/tokens.ts';

/**
 * What the core tells a wrapper about one request
 * ([decisions/029](../../decisions/029-the-core-takes-wrappers.md)): built once per request, in the
 * core's dispatch, from the route match the core makes anyway, before any wrapper runs. The caller and
 * the task are read lazily: worked out on first read (or taken from the core, when it has them), then kept.
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

/**
 * What the core has found out about a request by the time a wrapper asks: a caller or a task it has
 * already looked up is handed over, not looked up again (the service's exchange keeps them).
 */
export interface CoreFindings {
  /** The caller `authorization` names: the core's token when it authenticated that same key. */
  callerOf(authorization: string | undefined): MockToken | undefined;
  /** The task `id` names, whoever owns it, and its state: the one the route looked up, if it did. */
  taskOf(id: string): TaskView | undefined;
}

/** The context of one request, from the route match dispatch made of it. */
export function wrapContext<Context>(
  request: CoreRequest,
  match: RouteMatch<Context>,
  state: ServiceState,
  findings: CoreFindings,
): WrapContext {
  return new LazyWrapContext(request, match, state, findings);
}

/**
 * The caller and the task are worked out on first read, then kept: a wrapper that never reads them
 * costs no authentication and no lookup, and one that reads them after the core answered gets what
 * the core found (decisions/029).
 */
class LazyWrapContext<Context> implements WrapContext {
  readonly operationId: string | undefined;
  readonly taskId: string | undefined;
  readonly #findings: CoreFindings;
  #caller: { readonly token: MockToken | undefined } | undefined = undefined;
  #task: { readonly view: TaskView | undefined } | undefined = undefined;

  constructor(
    readonly request: CoreRequest,
    match: RouteMatch<Context>,
    readonly state: ServiceState,
    findings: CoreFindings,
  ) {
    const found = match.kind === 'found' ? match : undefined;
    this.taskId = found?.params['task_id'];
    this.operationId = found?.route.access === 'service' ? found.route.operationId : undefined;
    this.#findings = findings;
  }

  get caller(): MockToken | undefined {
    this.#caller ??= { token: this.#findings.callerOf(this.request.headers['authorization']) };
    return this.#caller.token;
  }

  get task(): TaskView | undefined {
    const id = this.taskId;
    this.#task ??= { view: id === undefined ? undefined : this.#findings.taskOf(id) };
    return this.#task.view;
  }
}

/** The named wrappers' names (`GET /__mock/health` lists them as the defects played). */
export const wrapperNames = (wrappers: readonly ServiceWrapper[]): readonly string[] =>
  wrappers.flatMap((w) => (w.name === undefined ? [] : [w.name]));
