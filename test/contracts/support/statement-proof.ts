import { selfProofCases, SHAPE_MUTANTS } from '../../../cli/self-proof-cases.ts';
import { statementParts, type StatementPart } from '../../../contracts/statement-proof.ts';
import { listDefects } from '../../../mocks/defects/catalog.ts';
import type { Defect } from '../../../mocks/defects/defect.ts';
import { documentStatements, type Statement } from '../../../src/spec/statements.ts';
import { judgeDefect, type Verdict } from './mutant-run.ts';

/**
 * The self-proof read from the statement table (spec/statements.yaml), part by part (issue 31 item 7):
 * every part of a statement that `lint-spec --trace` counts judged (or judged by assumptions) — a rule
 * it names, or a shape check — is shown broken by a generated mutant or a named defect that breaks
 * the statement and is caught, in a run, by one of the statement's own checks of that part.
 */

const provenPart = (p: StatementPart) => p.status === 'judged' || p.status === 'assumption';

/** Every statement with a part the account counts as proven. */
export const PROVEN_STATEMENTS: readonly Statement[] = documentStatements().filter((s) =>
  statementParts(s, selfProofCases()).some(provenPart),
);

/** A generated mutant's verdict, with the rule it breaks. */
export interface MutantVerdict {
  readonly rule: string;
  readonly verdict: Verdict;
}

/** The shape mutants and named defects that break `s` and claim `part` (its rule, or its shape check). */
function claiming(s: Statement, part: StatementPart): Defect[] {
  const rule = part.part.startsWith('rule ') ? part.part.slice('rule '.length) : undefined;
  const check = part.part.startsWith('check ') ? part.part.slice('check '.length) : undefined;
  return [...SHAPE_MUTANTS(), ...listDefects()].filter(
    (d) =>
      ((d.statements ?? []).includes(s.id) || d.breaks.some((r) => s.rules.includes(r))) &&
      (rule === undefined ? (d.checks ?? []).includes(check!) : d.breaks.includes(rule)),
  );
}

/**
 * The parts counted proven that no case was caught for by the part's own checks: `statement part
 * (checks): what was tried`, for a failure message. Named defects are judged once each, as needed.
 */
export async function unprovenParts(
  statements: readonly Statement[],
  mutants: readonly MutantVerdict[],
  judgedAlready: readonly Verdict[] = [],
): Promise<string[]> {
  const judged = new Map<string, Verdict>(judgedAlready.map((v) => [v.name, v]));
  const left: string[] = [];
  for (const s of statements)
    for (const part of statementParts(s, selfProofCases()).filter(provenPart)) {
      const catches = (v: Verdict) => v.caughtChecks.some((c) => part.checks.includes(c));
      const rule = part.part.startsWith('rule ') ? part.part.slice('rule '.length) : undefined;
      if (mutants.some((m) => m.rule === rule && catches(m.verdict))) continue;
      const defects = claiming(s, part);
      let caught = false;
      for (const defect of defects) {
        if (!judged.has(defect.name)) judged.set(defect.name, await judgeDefect(defect));
        if (catches(judged.get(defect.name)!)) caught = true;
        if (caught) break;
      }
      if (!caught)
        left.push(
          `${s.id} ${part.part} (${part.checks.join(', ')}): no mutant caught by them; named ` +
            `defects tried: ${defects.map((d) => d.name).join(', ') || 'none claims it'}`,
        );
    }
  return left;
}
