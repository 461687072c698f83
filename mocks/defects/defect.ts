import type { CoreRequest, CoreResponse } from '../core/http-types.ts';
import type { ServiceState } from '../core/service-state.ts';

/**
 * Where a task object must carry fields, as `x-lifecycle.presence` names them: `always`,
 * `onSubmission`, or a status of `presence.byStatus`.
 */

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
  before?(request: CoreRequest, state: ServiceState): CoreRequest;
  after?(request: CoreRequest, response: CoreResponse, state: ServiceState): CoreResponse;
}
