import { RULE_CELL_PAIRS } from '../contracts/matrix/index.ts';
import type { SelfProofCase } from '../contracts/statement-proof.ts';
import { listDefects } from '../mocks/defects/catalog.ts';
import type { Defect } from '../mocks/defects/defect.ts';
import { fieldTypeMutants } from '../mocks/defects/field-type-mutants.ts';
import { mutantFor } from '../mocks/defects/mutants/index.ts';
import { serviceSpec } from '../src/spec/index.ts';
import { documentStatements } from '../src/spec/statements.ts';

let cases: readonly SelfProofCase[] | undefined;

/**
 * The contract suite's self-proof as the statement account reads it (issue 31 item 7): the generated
 * mutants of each rule (one per rule and cell of the matrix, those proven equivalent left out), the
 * shape mutants of each field a statement states (mocks/defects/field-type-mutants.ts), and every
 * named defect with the rules, shape checks and statements it breaks.
 */
export function selfProofCases(): readonly SelfProofCase[] {
  cases ??= [
    ...mutantCases(),
    ...SHAPE_MUTANTS().map(defectCase),
    ...listDefects().map(defectCase),
  ];
  return cases;
}

/** The shape mutants of the committed statement table. */
export const SHAPE_MUTANTS = (): Defect[] => fieldTypeMutants(documentStatements(), refOf);

/**
 * The named schema a field of a spec schema is (`TaskWrapperData.status` is `WrapperStatus`): the spec
 * is read with its references resolved, so the field's schema is the named one it equals.
 */
function refOf(schema: string, field: string): string | undefined {
  const schemas = (serviceSpec.components?.schemas ?? {}) as Record<
    string,
    { properties?: Record<string, unknown> }
  >;
  const value = JSON.stringify(schemas[schema]?.properties?.[field]);
  if (value === undefined) return undefined;
  return Object.entries(schemas).find(
    ([name, named]) => name !== schema && JSON.stringify(named) === value,
  )?.[0];
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

const defectCase = (d: Defect): SelfProofCase => ({
  name: d.name.startsWith('field-type:') ? `shape mutant ${d.name}` : `defect ${d.name}`,
  breaks: d.breaks,
  checks: d.checks ?? [],
  statements: d.statements ?? [],
});
