import { TASK_STATES as PROFILE_TASK_STATES } from '../../src/profile/index.ts';
import type { VideoStatus } from '../../src/spec/index.ts';
import { hasTask, MATRIX_ROUTES, matrixRoute, routeLabel, type RouteId } from './routes.ts';

/**
 * The three axes of the observation space and its cells. A cell is one route, asked about a task in one
 * state (or about a task that does not exist), by one kind of caller. Routes without a task in their
 * path (submissions, the catalog) have the single state `n/a`.
 */
export type TaskState = VideoStatus | 'missing';
export type CellState = TaskState | 'n/a';

/** The task states, in the order a task passes them, then "no such task". */
export const TASK_STATES = PROFILE_TASK_STATES satisfies readonly TaskState[];

// A status added to the spec fails to compile here until it has a column.
const EVERY_STATUS_HAS_A_COLUMN: Exclude<TaskState, (typeof TASK_STATES)[number]> extends never
  ? true
  : never = true;
void EVERY_STATUS_HAS_A_COLUMN;

/** The task's owner, another user (§5), no `Authorization` header, an invalid key. */
export type Caller = 'owner' | 'other' | 'none' | 'invalid';
export const CALLERS: readonly Caller[] = ['owner', 'other', 'none', 'invalid'];

export const CALLER_LABEL: Readonly<Record<Caller, string>> = {
  owner: 'owner',
  other: 'other user',
  none: 'no key',
  invalid: 'invalid key',
};

export interface Cell {
  readonly route: RouteId;
  readonly state: CellState;
  readonly caller: Caller;
}

export const cellKey = (cell: Cell): string => `${cell.route}/${cell.state}/${cell.caller}`;

/**
 * Whether a caller is a distinct observation for a route in a state: another user is the same as the
 * owner for a task nobody owns, and a submission or the catalog has no owner but the caller's own key.
 */
function callerApplies(route: RouteId, state: CellState, caller: Caller): boolean {
  if (caller !== 'other') return true;
  return hasTask(matrixRoute(route)) && state !== 'missing';
}

/** Every cell of the observation space, routes in declaration order, then states, then callers. */
export const ALL_CELLS: readonly Cell[] = MATRIX_ROUTES.flatMap((route) => {
  const states: readonly CellState[] = hasTask(route) ? TASK_STATES : ['n/a'];
  return states.flatMap((state) =>
    CALLERS.filter((caller) => callerApplies(route.id, state, caller)).map((caller): Cell => ({
      route: route.id,
      state,
      caller,
    })),
  );
});

/** A set of cells, as rules declare where they apply: every combination of the listed values. */
export interface CellPattern {
  readonly routes: readonly RouteId[];
  readonly states: readonly CellState[];
  readonly callers: readonly Caller[];
}

/** The cells a pattern names that exist in the observation space. */
export function cellsOf(pattern: CellPattern): Cell[] {
  return ALL_CELLS.filter(
    (c) =>
      pattern.routes.includes(c.route) &&
      pattern.states.includes(c.state) &&
      pattern.callers.includes(c.caller),
  );
}

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
