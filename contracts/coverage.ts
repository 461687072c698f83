import type { CoverageNotes } from './coverage-notes.ts';
import {
  ALL_CELLS,
  CALLER_LABEL,
  cellKey,
  CONDITIONAL_RULES,
  matrixRoute,
  routeLabel,
  rulesIn,
  type Caller,
  type Cell,
  type CellRuleId,
  type CellState,
  type RouteId,
} from './matrix/index.ts';
import type { Outcome, Verdicts } from './verdicts.ts';

/** One cell of the observation space as a report shows it. */
export interface CellCoverage {
  readonly route: RouteId;
  /** `GET /v1/videos/{task_id}`. */
  readonly request: string;
  readonly state: CellState;
  readonly caller: Caller;
  readonly observed: boolean;
  /** Why the run did not observe it. */
  readonly reason?: string | undefined;
  /** Each rule judged here, with its outcome in this cell. */
  readonly rules: Readonly<Record<string, Exclude<Outcome, 'skip'>>>;
  /** The checks judged here. */
  readonly checks: readonly string[];
  /**
   * Rules the matrix applies here that the run did not judge and has no reason for (observed cells
   * only): a gap of the run.
   */
  readonly unjudged: readonly string[];
  /**
   * Rules the matrix applies here that the run did not judge, each with why (observed cells only): one
   * that applies only when the deployment does something it need not (`CONDITIONAL_RULES`: a 429,
   * Range, HEAD, a Content-Length), or one whose probe needs an input the run was not given, or that
   * the budget left out. No gap: the reason says what would judge it.
   */
  readonly notJudged?: Readonly<Record<string, string>> | undefined;
}

export interface CoverageReport {
  readonly observed: number;
  readonly total: number;
  /** `coverage: 61/68 cells observed (failed: no task failed)`. */
  readonly line: string;
  readonly cells: readonly CellCoverage[];
}

const worse = (a: Outcome | undefined, b: Outcome): Outcome =>
  a === 'fail' || b === 'fail' ? 'fail' : a === 'warn' || b === 'warn' ? 'warn' : b;

/** A cell is observed when some check was judged in it; an unobserved cell says why, never "passed". */
export function computeCoverage(verdicts: Verdicts, notes: CoverageNotes): CoverageReport {
  type Seen = { rules: Map<string, Outcome>; checks: Set<string> };
  const byCell = new Map<string, Seen>();
  for (const j of verdicts.judgements()) {
    const key = cellKey(j.cell);
    const entry: Seen = byCell.get(key) ?? { rules: new Map(), checks: new Set() };
    byCell.set(key, entry);
    entry.checks.add(j.check.id);
    if (j.check.rule === undefined) continue;
    const violated = verdicts.basis(j.check).documented || verdicts.strict ? 'fail' : 'warn';
    const outcome: Outcome = j.violations > 0 ? violated : 'pass';
    entry.rules.set(j.check.rule, worse(entry.rules.get(j.check.rule), outcome));
  }
  const cells = ALL_CELLS.map((cell): CellCoverage => {
    const seen = byCell.get(cellKey(cell));
    const rules = Object.fromEntries(seen?.rules ?? []) as CellCoverage['rules'];
    const left = seen === undefined ? [] : rulesIn(cell).filter((r) => !(r in rules));
    const why = (rule: CellRuleId) => notes.ruleReasonFor(rule, cell) ?? CONDITIONAL_RULES[rule];
    const notJudged = Object.fromEntries(
      left.flatMap((rule) => (why(rule) === undefined ? [] : [[rule, why(rule)!]])),
    );
    return {
      route: cell.route,
      request: routeLabel(cell.route),
      state: cell.state,
      caller: cell.caller,
      observed: seen !== undefined,
      reason: seen === undefined ? (notes.reasonFor(cell) ?? defaultReason(cell)) : undefined,
      rules,
      checks: [...(seen?.checks ?? [])].sort(),
      unjudged: left.filter((rule) => why(rule) === undefined),
      ...(Object.keys(notJudged).length === 0 ? {} : { notJudged }),
    };
  });
  const observed = cells.filter((c) => c.observed).length;
  return { observed, total: cells.length, line: coverageLine(cells, observed), cells };
}

function defaultReason(cell: Cell): string {
  if (cell.state === 'n/a' || cell.state === 'missing') return 'not reached';
  return `no poll showed ${cell.state}`;
}

function coverageLine(cells: readonly CellCoverage[], observed: number): string {
  const groups = new Map<string, CellCoverage[]>();
  for (const cell of cells.filter((c) => !c.observed))
    groups.set(cell.reason!, [...(groups.get(cell.reason!) ?? []), cell]);
  const parts = [...groups].map(([reason, group]) => `${groupLabel(group)}: ${reason}`);
  const unjudged = cells.reduce((n, c) => n + c.unjudged.length, 0);
  if (unjudged > 0) parts.push(`${unjudged} rule(s) not judged in observed cells`);
  const why = parts.length === 0 ? '' : ` (${parts.join('; ')})`;
  return `coverage: ${observed}/${cells.length} cells observed${why}`;
}

/** What the cells of one reason have in common: a state, a caller, the native path, or just a count. */
function groupLabel(group: readonly CellCoverage[]): string {
  const same = <T>(pick: (c: CellCoverage) => T) => group.every((c) => pick(c) === pick(group[0]!));
  if (group.every((c) => matrixRoute(c.route).family)) return 'native path';
  if (same((c) => c.state) && group[0]!.state !== 'n/a') return group[0]!.state;
  if (same((c) => c.caller)) return CALLER_LABEL[group[0]!.caller];
  if (same((c) => c.route)) return group[0]!.request;
  return `${group.length} cells`;
}
