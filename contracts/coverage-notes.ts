import type { Caller, Cell, CellState } from './matrix/cells.ts';
import type { RouteId } from './matrix/routes.ts';

/** Which cells a reason is about: each listed axis narrows, an absent one matches everything. */
export interface CellSelector {
  readonly routes?: readonly RouteId[];
  readonly states?: readonly CellState[];
  readonly callers?: readonly Caller[];
}

const selects = (s: CellSelector, cell: Cell): boolean =>
  (s.routes === undefined || s.routes.includes(cell.route)) &&
  (s.states === undefined || s.states.includes(cell.state)) &&
  (s.callers === undefined || s.callers.includes(cell.caller));

/**
 * Why cells of the observation space were not observed, as the run learns it ("no second key",
 * "budget", "no task failed"), and why a rule went unjudged in cells it did observe ("no forbidden
 * model given", "the download came without Content-Length"). The first reason recorded for a cell (or
 * a rule in a cell) wins: the run records the most fundamental ones (tier, missing keys) first.
 */
export class CoverageNotes {
  readonly #reasons: { readonly selector: CellSelector; readonly reason: string }[] = [];
  readonly #ruleReasons: {
    readonly rule: string;
    readonly selector: CellSelector;
    readonly reason: string;
  }[] = [];

  because(reason: string, selector: CellSelector): void {
    this.#reasons.push({ selector, reason });
  }

  reasonFor(cell: Cell): string | undefined {
    return this.#reasons.find(({ selector }) => selects(selector, cell))?.reason;
  }

  /** `rule` was not judged in the selected cells, for `reason` (an input, the budget, an answer). */
  ruleNotJudged(rule: string, reason: string, selector: CellSelector): void {
    this.#ruleReasons.push({ rule, selector, reason });
  }

  ruleReasonFor(rule: string, cell: Cell): string | undefined {
    return this.#ruleReasons.find((r) => r.rule === rule && selects(r.selector, cell))?.reason;
  }
}
