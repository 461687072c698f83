import type { Caller, Cell, CellState } from './cells.ts';
import { routeLabel } from './routes.ts';

const CALLER_PHRASE: Readonly<Record<Caller, string>> = {
  owner: "with the owner's key",
  other: "with another user's key",
  none: 'with no key',
  invalid: 'with an invalid key',
};

function statePhrase(state: CellState): string {
  if (state === 'n/a') return '';
  if (state === 'missing') return ' for a task that does not exist';
  return ` for a${state === 'unknown' || state === 'in_progress' ? 'n' : ''} ${state} task`;
}

/** "GET /v1/videos/{task_id}/content with no key for a queued task": a cell in words, for messages. */
export function describeCell(cell: Cell): string {
  return `${routeLabel(cell.route)} ${CALLER_PHRASE[cell.caller]}${statePhrase(cell.state)}`;
}
