import type { Cell } from './cells.ts';
import type { CellRuleId } from './rule-cells.ts';
import { matrixRoute } from './routes.ts';

/**
 * The status codes the deployed gateway answers a refusal with, per cell (reference-gateway-facts.md).
 * "Status codes of responses other than success: not shown beyond the classes in section 7" (§4), so
 * a different 4xx only warns (rule `error-status-code`). A missing or foreign task on a status query is
 * 400 `task_not_exist` on the gateway and 404 where a deployment says "not found"; both pass. A probe
 * sent to be refused for a rule (`probe`) may have the gateway's own status for it.
 */
export function refusalStatuses(cell: Cell, probe?: CellRuleId): readonly number[] {
  if (cell.caller === 'none' || cell.caller === 'invalid') return [401];
  // A model the token may not use 403, one outside the key's group 503 `model_not_found`.
  if (probe === 'model-permissions') return [403, 503];
  // A file part is refused 400 where multipart is read, a form 415 where only JSON is (§4.1, §5).
  if (probe === 'multipart-upload-refused') return [400, 415];
  if (matrixRoute(cell.route).kind === 'submit') return [400];
  if (cell.route === 'getVideoContent')
    return cell.state === 'missing' || cell.caller === 'other' ? [404] : [400];
  return [400, 404];
}
