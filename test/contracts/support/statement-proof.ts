import { CHECKS } from '../../../contracts/checks/definitions.ts';
import { RULE_CELL_PAIRS } from '../../../contracts/matrix/index.ts';
import { listDefects } from '../../../mocks/defects/catalog.ts';
import { mutantFor } from '../../../mocks/defects/mutants/index.ts';
import { documentStatements, type Statement } from '../../../src/spec/statements.ts';
import { judgeDefect, type Verdict } from './mutant-run.ts';

/**
 * The self-proof read from the statement table (spec/statements.yaml): every server rule of the
 * document that a contract check judges is broken by a generated mutant or a named defect, and one of
 * the statement's own checks kills it. `proofOf` says statically which can; `unbroken` judges it on
 * the verdicts of the generated mutants, running the named defects that claim a statement's checks
 * for any statement no mutant was caught for.
 */

/** The server rules the table says a contract check judges. */
export const JUDGED_SERVER_RULES: readonly Statement[] = documentStatements().filter(
  (s) => s.kind === 'server' && s.checks.length > 0,
);

const RULE_OF_CHECK = new Map<string, string | undefined>(
  Object.values(CHECKS).map((c) => [c.id, 'rule' in c ? c.rule : undefined]),
);

/** Rules some generated mutant breaks (a pair not proven equivalent). */
const MUTATED = new Set<string>(
  RULE_CELL_PAIRS.filter((p) => !('equivalent' in mutantFor(p.rule, p.cell))).map((p) => p.rule),
);

/** The named defects that claim a check: they break the check's rule, or name the check itself. */
function claimedBy(check: string) {
  const rule = RULE_OF_CHECK.get(check);
  return listDefects().filter(
    (d) => (rule !== undefined && d.breaks.includes(rule)) || (d.checks ?? []).includes(check),
  );
}

/**
 * Which part of the self-proof breaks a statement: generated mutants when a rule of one of its checks
 * has one, else named defects when one claims one of its checks, else nothing can.
 */
export function proofOf(statement: Statement): 'mutants' | 'defects' | undefined {
  const rules = statement.checks.map((c) => RULE_OF_CHECK.get(c));
  if (rules.some((rule) => rule !== undefined && MUTATED.has(rule))) return 'mutants';
  return statement.checks.some((check) => claimedBy(check).length > 0) ? 'defects' : undefined;
}

const caught = (verdicts: readonly Verdict[]) =>
  new Set(verdicts.filter((v) => v.killed).flatMap((v) => v.caughtChecks));

/**
 * The statements that no mutant of `verdicts`, and no named defect claiming one of their checks, was
 * killed by one of their own checks: each with its checks and what was tried, for a failure message.
 */
export async function unbroken(
  statements: readonly Statement[],
  verdicts: readonly Verdict[],
): Promise<string[]> {
  const byMutants = caught(verdicts);
  const judged = new Map<string, Verdict>();
  const left: string[] = [];
  for (const s of statements.filter((s) => !s.checks.some((check) => byMutants.has(check)))) {
    const defects = [...new Set(s.checks.flatMap(claimedBy))];
    for (const defect of defects)
      if (!judged.has(defect.name)) judged.set(defect.name, await judgeDefect(defect));
    const byDefects = caught(defects.map((d) => judged.get(d.name)!));
    if (!s.checks.some((check) => byDefects.has(check)))
      left.push(
        `${s.id} (${s.section}): no mutant killed by ${s.checks.join(', ')}; named defects ` +
          `tried: ${defects.map((d) => d.name).join(', ') || 'none claims them'}`,
      );
  }
  return left;
}
