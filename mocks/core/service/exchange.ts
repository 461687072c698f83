import { visibleModels } from '../keys/catalog.ts';
import type { CoreRequest } from '../http/http-types.ts';
import type { ReplayContext } from '../profile/learned-replay.ts';
import type { RouteDefinition, RouteMatch } from '../http/router.ts';
import type { RouteContext, ServiceState } from './service-state.ts';
import { taskView, type TaskView } from '../task/task-view.ts';
import type { MockToken } from '../keys/tokens.ts';
import type { CoreFindings } from './wrap.ts';

/**
 * One request on its way through the core (issue 23: following one request visits each place once):
 * what it matched, once, and what the core found out answering it: the caller it authenticated, the
 * route, and what the route noted (the caller's task and its state, the body it rendered). The
 * wrappers' context and the learned replay read those from here rather than work them out again.
 */
export class Exchange implements CoreFindings, ReplayContext {
  /** The request as the wrappers left it (the core's input). */
  request: CoreRequest;
  /** The route it was dispatched to, its parameters, and what the route noted. */
  route: RouteDefinition<RouteContext> | undefined = undefined;
  params: Readonly<Record<string, string>> | undefined = undefined;
  routeContext: RouteContext | undefined = undefined;
  /** Whether the core authenticated `request`'s key, and whom it names (`undefined`: no valid key). */
  #authenticated = false;
  #caller: MockToken | undefined = undefined;

  constructor(
    /** The request the core was asked (`handle`'s, after a learned profile's `before`). */
    readonly asked: CoreRequest,
    /** The answer's request ID: its header, and the ending of its error message (decisions/031). */
    readonly serviceRequestId: string,
    /** The route match of `asked`, made once. */
    readonly match: RouteMatch<RouteContext>,
    readonly state: ServiceState,
  ) {
    this.request = asked;
  }

  /** Notes whom the core authenticated `request`'s key as (before its rate limit). */
  authenticated(token: MockToken | undefined): void {
    this.#authenticated = true;
    this.#caller = token;
  }

  callerOf(authorization: string | undefined): MockToken | undefined {
    return this.#authenticated && authorization === this.request.headers['authorization']
      ? this.#caller
      : this.state.tokens.authenticate(authorization);
  }

  taskOf(id: string): TaskView | undefined {
    const found = this.routeContext?.task;
    return found !== undefined && found.task.id === id ? found : taskView(this.state, id);
  }

  // What the learned replay reads (ReplayContext).
  caller(): MockToken | undefined {
    return this.callerOf(this.request.headers['authorization']);
  }
  task(): TaskView | undefined {
    const id = this.params?.['task_id'];
    return id === undefined ? undefined : this.taskOf(id);
  }
  get submitted(): Record<string, unknown> | undefined {
    return this.routeContext?.body;
  }
  get rendered(): unknown {
    return this.routeContext?.rendered;
  }
  get wrapperStatuses(): ServiceState['wrapperStatuses'] {
    return this.state.wrapperStatuses;
  }
  models(token: MockToken | undefined): readonly string[] {
    const { state } = this;
    return token === undefined
      ? []
      : visibleModels(state.models.values(), state.family, token).map((m) => m.id);
  }
  knowsModel(model: string): boolean {
    return this.state.models.has(model);
  }
  /** The instant the route read the clock at (its task's state is of it), or the clock now. */
  now(): number {
    return this.routeContext?.at ?? this.state.clock.now();
  }
}
