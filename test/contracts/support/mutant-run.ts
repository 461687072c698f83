import { CHECKS, type ContractReport } from '../../../contracts/index.ts';
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
  const strict =
    !defect.breaks.some(isDocumented) && !(defect.checks ?? []).some(isDocumentedCheck);
  const { report } = await checkInProcess(
    { ...FULL_MOCK, defects: [defect] },
    { ...FULL_TARGET, strict },
  );
  return verdictOf(defect, report, strict, cell);
}

function verdictOf(defect: Defect, report: ContractReport, strict: boolean, cell?: Cell): Verdict {
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
