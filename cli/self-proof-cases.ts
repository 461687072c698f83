import { RULE_CELL_PAIRS } from '../contracts/matrix/index.ts';
import type { SelfProofCase } from '../contracts/statement-proof.ts';
import { listDefects } from '../mocks/defects/catalog.ts';
import { mutantFor } from '../mocks/defects/mutants/index.ts';

let cases: readonly SelfProofCase[] | undefined;

/**
 * The contract suite's self-proof as the statement account reads it (issue 31 item 7): the generated
 * mutants of each rule (one per rule and cell of the matrix, those proven equivalent left out), and
 * every named defect with the rules, shape checks and statements it breaks.
 */
export function selfProofCases(): readonly SelfProofCase[] {
  cases ??= [...mutantCases(), ...listDefects().map(defectCase)];
  return cases;
}

function mutantCases(): SelfProofCase[] {
  const byRule = new Map<string, number>();
  for (const { rule, cell } of RULE_CELL_PAIRS)
    if (!('equivalent' in mutantFor(rule, cell))) byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
  return [...byRule].map(([rule, n]) => ({
    name: `${n} generated mutant${n === 1 ? '' : 's'} of ${rule}`,
    breaks: [rule],
    checks: [],
    statements: [],
  }));
}

const defectCase = (d: ReturnType<typeof listDefects>[number]): SelfProofCase => ({
  name: `defect ${d.name}`,
  breaks: d.breaks,
  checks: d.checks ?? [],
  statements: d.statements ?? [],
});
