import type { Cell } from './cells.ts';
import { matrixRoute } from './routes.ts';

/**
 * The status codes the deployed gateway answers a refusal with, per cell (reference-gateway-facts.md).
 * "Status codes of responses other than success: not shown beyond the classes in section 7" (§4), so
 * a different 4xx only warns (rule `error-status-code`). A missing or foreign task on a status query is
 * 400 `task_not_exist` on the gateway and 404 where a deployment says "not found"; both pass.
 */
export function refusalStatuses(cell: Cell): readonly number[] {
  if (cell.caller === 'none' || cell.caller === 'invalid') return [401];
  if (matrixRoute(cell.route).kind === 'submit') return [400];
  if (cell.route === 'getVideoContent')
    return cell.state === 'missing' || cell.caller === 'other' ? [404] : [400];
  return [400, 404];
}
