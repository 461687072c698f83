import type { ServiceWrapper, WrapContext } from '../core/service/wrap.ts';

export type { TaskView } from '../core/task/task-view.ts';

/**
 * What the core tells a defect about the request it wraps, computed once per request in the core's
 * dispatch (decisions/029): which operation, who is calling, and the task the path names in its state
 * at this instant.
 */
export type DefectContext = WrapContext;

/**
 * A deliberately broken behaviour (`--defect NAME`): a real way a deployment can break the documented
 * contract, so the contract suites can prove they catch it. A defect is a wrapper around the core
 * (`ServiceWrapper`), never part of it: it may rewrite the request before the core sees it, and the
 * response after. The Node entry and the CLI resolve defects by name (`./registry.ts`).
 */
export interface Defect extends ServiceWrapper {
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
  /**
   * Statements of spec/statements.yaml it breaks besides those naming a rule it breaks: where one of
   * its `checks` judges a whole answer (`4.2-response`: the video object), so that check's part of
   * the statement is proven by it (issue 31 item 7).
   */
  readonly statements?: readonly string[];
}

/** Whether the caller owns the task the path names. */
export const callerOwnsTask = (context: DefectContext): boolean =>
  context.task !== undefined && context.caller?.user === context.task.task.owner;
