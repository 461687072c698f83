import { serviceContract } from '../src/spec/index.ts';
import type { Statement } from '../src/spec/statements-table.ts';
import { CHECKS } from './checks/definitions.ts';
import { checkBasis, type CheckDefinition } from './verdicts.ts';

/**
 * Judged means proven, per statement (issue 31 item 7, decisions/052). A statement of the table is
 * split into parts: each `x-lifecycle` rule it names, and each check it names that judges a schema
 * rather than a rule (a shape check). A part is **judged** only when a self-proof case that breaks
 * *that statement* — a generated mutant or a named defect breaking one of its rules, or a named defect
 * that says it breaks the statement — is to be caught by a check of the statement that judges that
 * part (test/contracts/mutants.e2e.test.ts shows each such catch in a run). A part judged only by
 * assumption checks (a warning; a failure only with `--strict`) is counted apart; a part no case can
 * break carries a reason in the table (`partReasons`); any other is a gap, listed.
 */

/** One case of the self-proof, as the statement account reads it (cli/self-proof-cases.ts builds them). */
export interface SelfProofCase {
  /** `defect wrong-object`, `4 generated mutants of progress-range`. */
  readonly name: string;
  /** The `x-lifecycle.rules` it breaks. */
  readonly breaks: readonly string[];
  /** The shape checks that must catch it (a named defect's `checks`). */
  readonly checks: readonly string[];
  /** Statements it breaks besides those of its rules (a named defect's `statements`). */
  readonly statements: readonly string[];
}

export type PartStatus = 'judged' | 'assumption' | 'reason' | 'gap';

export interface StatementPart {
  /** `rule progress-range` or `check task.shape`. */
  readonly part: string;
  /** The statement's checks that judge it. */
  readonly checks: readonly string[];
  readonly status: PartStatus;
  /** The cases that break the statement and are caught by those checks (at most a few named). */
  readonly cases: readonly string[];
  /** Why it is not judged (a reason, or what is missing). */
  readonly why?: string;
}

const BY_ID = new Map<string, CheckDefinition>(Object.values(CHECKS).map((c) => [c.id, c]));

/** The rule a check judges, or undefined for a shape check (it judges a schema). */
export const ruleOfCheck = (id: string): string | undefined => {
  const check = BY_ID.get(id);
  return check !== undefined && 'rule' in check ? check.rule : undefined;
};

const documented = (id: string) => {
  const check = BY_ID.get(id);
  return check !== undefined && checkBasis(check, serviceContract().lifecycle).documented;
};

/** Cases named in a part: enough to find them, not a list of 500 mutants. */
const CASES_SHOWN = 4;

/** Whether `c` breaks `s`: one of its rules, or it says so. */
const breaksStatement = (c: SelfProofCase, s: Statement) =>
  c.statements.includes(s.id) || c.breaks.some((rule) => s.rules.includes(rule));

function partOf(
  s: Statement,
  part: { name: string; checks: readonly string[]; key: string },
  cases: readonly SelfProofCase[],
): StatementPart {
  const reason = s.partReasons?.[part.key];
  const base = { part: part.name, checks: part.checks };
  if (reason !== undefined) return { ...base, status: 'reason', cases: [], why: reason };
  const names = cases.map((c) => c.name);
  if (names.length === 0)
    return {
      ...base,
      status: 'gap',
      cases: [],
      why:
        part.checks.length === 0
          ? `no check of the statement judges ${part.name}`
          : `no self-proof case that breaks this statement is caught by ${part.checks.join(', ')}`,
    };
  return {
    ...base,
    status: part.checks.some(documented) ? 'judged' : 'assumption',
    cases: names.length <= CASES_SHOWN ? names : [...names.slice(0, CASES_SHOWN), '…'],
  };
}

/**
 * The parts of a statement that names a check, each judged, judged by assumptions only, given a reason
 * or a gap. A statement that names no check has no parts (its kind, reason or gap accounts for it).
 */
export function statementParts(s: Statement, cases: readonly SelfProofCase[]): StatementPart[] {
  if (s.checks.length === 0) return [];
  const breaking = cases.filter((c) => breaksStatement(c, s));
  const rules = s.rules.map((rule) => {
    const checks = s.checks.filter((id) => ruleOfCheck(id) === rule);
    const proving = checks.length === 0 ? [] : breaking.filter((c) => c.breaks.includes(rule));
    return partOf(s, { name: `rule ${rule}`, checks, key: rule }, proving);
  });
  const shapes = s.checks
    .filter((id) => ruleOfCheck(id) === undefined)
    .map((id) =>
      partOf(
        s,
        { name: `check ${id}`, checks: [id], key: id },
        breaking.filter((c) => c.checks.includes(id)),
      ),
    );
  return [...rules, ...shapes];
}

/** What a statement's parts add up to. */
export type ProofClass = 'judged' | 'judged-in-part' | 'assumption-only' | 'reasons' | 'unproven';

export function proofClass(parts: readonly StatementPart[]): ProofClass | undefined {
  if (parts.length === 0) return undefined;
  const has = (status: PartStatus) => parts.some((p) => p.status === status);
  if (has('judged')) return has('gap') ? 'judged-in-part' : 'judged';
  if (has('assumption')) return has('gap') ? 'judged-in-part' : 'assumption-only';
  return has('gap') ? 'unproven' : 'reasons';
}

/** The checks a statement names that judge a rule it does not name: a row claiming a check not its own. */
export function foreignChecks(s: Statement): string[] {
  return s.checks.filter((id) => {
    const rule = ruleOfCheck(id);
    return rule !== undefined && !s.rules.includes(rule);
  });
}
