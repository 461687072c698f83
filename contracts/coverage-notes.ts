import type { Caller, Cell, CellState } from './matrix/cells.ts';
import type { RouteId } from './matrix/routes.ts';

/** Which cells a reason is about: each listed axis narrows, an absent one matches everything. */
export interface CellSelector {
  readonly routes?: readonly RouteId[];
  readonly states?: readonly CellState[];
  readonly callers?: readonly Caller[];
}

/**
 * Why cells of the observation space were not observed, as the run learns it ("no second key",
 * "budget", "no task failed"). The first reason recorded for a cell wins: the run records the most
 * fundamental ones (tier, missing keys) first.
 */
export class CoverageNotes {
  readonly #reasons: { readonly selector: CellSelector; readonly reason: string }[] = [];

  because(reason: string, selector: CellSelector): void {
    this.#reasons.push({ selector, reason });
  }

  reasonFor(cell: Cell): string | undefined {
    return this.#reasons.find(({ selector: s }) => {
      const routeOk = s.routes === undefined || s.routes.includes(cell.route);
      const stateOk = s.states === undefined || s.states.includes(cell.state);
      return routeOk && stateOk && (s.callers === undefined || s.callers.includes(cell.caller));
    })?.reason;
  }
}
