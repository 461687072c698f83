import {
  CHECKS,
  type CellCoverage,
  type ContractReport,
  type ContractTarget,
} from '../../../contracts/index.ts';
import { cellKey, RULE_CELL_PAIRS, type Cell } from '../../../contracts/matrix/index.ts';
import { checkBasis } from '../../../contracts/verdicts.ts';
import type { Defect } from '../../../mocks/defects/defect.ts';
import { mutantFor } from '../../../mocks/defects/mutants/index.ts';
import { serviceContract } from '../../../src/spec/index.ts';
import { checkInProcess, FULL_MOCK, FULL_TARGET } from './in-process.ts';

const { lifecycle } = serviceContract();

/**
 * What the suite made of one defect: killed (a check of a rule the defect breaks failed, or a check it
 * names), by which checks.
 */
export interface Verdict {
  readonly name: string;
  readonly killed: boolean;
  /** The rules it breaks are assumptions only: the run was --strict. */
  readonly strict: boolean;
  /** `check.id (rule)` of every failing check that claims it. */
  readonly caughtBy: readonly string[];
  /** The ids of those checks (what the statement table names). */
  readonly caughtChecks: readonly string[];
  /** Every failing check, for a message when it survives. */
  readonly failures: readonly string[];
}

const isDocumented = (rule: string) => lifecycle.rules.get(rule)?.basis.documented === true;
const isDocumentedCheck = (id: string) =>
  Object.values(CHECKS).some((c) => c.id === id && checkBasis(c, lifecycle).documented);

/**
 * Runs the suite against the full-coverage mock with `defect` and judges the kill: a failing check whose
 * rule is one the defect breaks (in `cell`, when given: the violation must be attributed to that cell).
 * Documented rules fail a default run; a defect that breaks only assumptions gets a --strict run.
 */
export async function judgeDefect(defect: Defect, cell?: Cell): Promise<Verdict> {
  const strict = strictRunFor(defect);
  const target = cell === undefined ? FULL_TARGET : await targetJudging(cell);
  const { report } = await checkInProcess(
    { ...FULL_MOCK, defects: [defect] },
    { ...target, strict },
  );
  return verdictOf(defect, report, strict, cell);
}

/** Whether a defect breaks assumptions only, so that its run is --strict. */
export const strictRunFor = (defect: Defect): boolean =>
  !defect.breaks.some(isDocumented) && !(defect.checks ?? []).some(isDocumentedCheck);

/** The verdict of a run with `defect` played: killed when a failing check claims it (in `cell`). */
export function verdictOf(
  defect: Defect,
  report: ContractReport,
  strict: boolean,
  cell?: Cell,
): Verdict {
  const failing = report.results.filter((r) => r.outcome === 'fail');
  const claims = failing.filter(
    (r) =>
      (r.rule !== undefined && defect.breaks.includes(r.rule)) ||
      (defect.checks ?? []).includes(r.id),
  );
  const inCell = claims.filter(
    (r) =>
      cell === undefined ||
      r.violations.some(
        (v) => v.evidence?.cell !== undefined && cellKey(v.evidence.cell) === cellKey(cell),
      ),
  );
  return {
    name: defect.name,
    killed: inCell.length > 0,
    strict,
    caughtBy: inCell.map((r) => `${r.id} (${r.rule ?? r.basisText})`),
    caughtChecks: inCell.map((r) => r.id),
    failures: failing.map((r) => {
      const first = r.violations[0];
      const cell = first?.evidence?.cell;
      return `${r.id}: ${first?.message ?? ''} @${cell === undefined ? '?' : cellKey(cell)}`;
    }),
  };
}

/** One generated mutant per (rule, cell) of the matrix, or the reason it is equivalent. */
export const MUTANTS = RULE_CELL_PAIRS.map(({ rule, cell }) => ({
  rule,
  cell,
  make: () => mutantFor(rule, cell),
}));

/**
 * The full run's target narrowed to fewer tasks, cheapest first (a clean run sends 17, ~120, 180, 233
 * and 260 requests; the full one 396): the free probes only; the first task; both documented submit
 * paths; with the task expected to fail; with the native path.
 */
const NARROWER: readonly Partial<ContractTarget>[] = [
  { ...FULL_TARGET, tier: 'free', budget: 0 },
  { ...FULL_TARGET, failing: undefined, family: undefined, budget: 1 },
  { ...FULL_TARGET, failing: undefined, family: undefined, budget: 2 },
  { ...FULL_TARGET, family: undefined, budget: 3 },
  { ...FULL_TARGET, failing: undefined, budget: 3 },
];

/** What a clean run judges in a cell: its rules and checks (a cell it does not observe judges none). */
const judgedIn = (coverage: CellCoverage | undefined) =>
  JSON.stringify([Object.keys(coverage?.rules ?? {}).sort(), coverage?.checks ?? []]);

let cleanRuns: Promise<Map<string, CellCoverage>[]> | undefined;

/** The coverage of a clean run (no defect) of the full target and of each narrower one, by cell. */
function cleanCoverage(): Promise<Map<string, CellCoverage>[]> {
  cleanRuns ??= (async () => {
    const runs: Map<string, CellCoverage>[] = [];
    for (const target of [FULL_TARGET, ...NARROWER]) {
      const { report } = await checkInProcess(FULL_MOCK, target);
      runs.push(new Map(report.coverage.cells.map((c) => [cellKey(c), c])));
    }
    return runs;
  })();
  return cleanRuns;
}

/**
 * The cheapest target whose clean run judges in `cell` exactly what the full run judges there: the
 * same rules and the same checks. A mutant breaks its rule in that cell only, so the narrower run
 * meets it with every check the full run would; the tasks it leaves out add answers in other cells (or
 * more answers in this one, judged by the same checks). The mock is deterministic for its seed: a clean
 * run says once what each target observes. A mutant the narrower run let survive fails the test.
 */
export async function targetJudging(cell: Cell): Promise<Partial<ContractTarget>> {
  const [full, ...narrower] = await cleanCoverage();
  const wanted = judgedIn(full!.get(cellKey(cell)));
  const index = narrower.findIndex((run) => judgedIn(run.get(cellKey(cell))) === wanted);
  return index < 0 ? FULL_TARGET : NARROWER[index]!;
}
