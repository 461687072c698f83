import type { CoreRequest, CoreResponse } from '../core/http-types.ts';
import type { ServiceState } from '../core/service-state.ts';
import type { TaskView } from '../core/task-view.ts';
import type { MockToken } from '../core/tokens.ts';

export type { TaskView } from '../core/task-view.ts';

/**
 * What the core tells a defect about the request it wraps, computed once before the core answers:
 * which operation, who is calling, and the task the path names in its state at this instant.
 */
export interface DefectContext {
  /** The request as it arrived, before any defect rewrote it. */
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
 * A deliberately broken behaviour (`--defect NAME`): a real way a deployment can break the documented
 * contract, so the contract suites can prove they catch it. A defect wraps the core instead of living
 * in it: it may rewrite the request before the core sees it, and the response after.
 */
export interface Defect {
  readonly name: string;
  /** One line: what the deployment does wrong. */
  readonly description: string;
  /** The `x-lifecycle.rules` id (or ids) of the rule it breaks: the check that must catch it. */
  readonly breaks: readonly string[];
  /**
   * Contract check ids that must catch it where no rule states what it breaks: the shape checks,
   * which judge a schema of the spec (`wrapper.shape`: `TaskWrapper`, §2.3).
   */
  readonly checks?: readonly string[];
  readonly before?: (request: CoreRequest, context: DefectContext) => CoreRequest;
  readonly after?: (
    request: CoreRequest,
    response: CoreResponse,
    context: DefectContext,
  ) => CoreResponse;
}

/** Whether the caller owns the task the path names. */
export const callerOwnsTask = (context: DefectContext): boolean =>
  context.task !== undefined && context.caller?.user === context.task.task.owner;
