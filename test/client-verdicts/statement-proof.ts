import { declaredClientRules, judgingRules } from '../../contracts/statement-account.ts';
import { serviceSpec } from '../../src/spec/index.ts';
import { documentStatements, type Statement } from '../../src/spec/statements.ts';
import { MISBEHAVIOURS } from './reference-clients.ts';

/**
 * The client side of the self-proof read from the statement table (spec/statements.yaml), as
 * test/contracts/support/statement-proof.ts is the server side: every statement a client rule the mock
 * judges accounts for is proven by that rule's misbehaving reference client, which must earn exactly
 * that rule's verdict (test/client-verdicts/self-proof.e2e.test.ts).
 */

const RULES = declaredClientRules(serviceSpec);

export interface ClientRuleStatement {
  readonly statement: Statement;
  /** The rules it names that the mock judges. */
  readonly rules: readonly string[];
}

/** The statements of the table a judged client rule accounts for, each with those rules. */
export const CLIENT_RULE_STATEMENTS: readonly ClientRuleStatement[] = documentStatements()
  .map((statement) => ({ statement, rules: judgingRules(statement, RULES) }))
  .filter(({ rules }) => rules.length > 0);

/** The judged rules a statement names that have no misbehaving reference client. */
export const withoutReferenceClient = ({ rules }: ClientRuleStatement): string[] =>
  rules.filter((rule) => !Object.hasOwn(MISBEHAVIOURS, rule));

/**
 * Why each rule of a statement is not proven by what the reference clients earned (`earned`: rule →
 * the rules of the verdicts its reference client got): none, if each got exactly its own.
 */
export function unproven(
  { statement, rules }: ClientRuleStatement,
  earned: ReadonlyMap<string, readonly string[]>,
): string[] {
  return rules.flatMap((rule) => {
    const got = earned.get(rule);
    if (got !== undefined && got.length === 1 && got[0] === rule) return [];
    const what = got === undefined ? 'was not run' : `got ${got.join(', ') || 'no verdict'}`;
    return [
      `${statement.id} (${statement.section}): the reference client breaking ${rule} ${what}`,
    ];
  });
}
