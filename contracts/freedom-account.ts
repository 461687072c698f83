import { serviceContract } from '../src/spec/index.ts';
import type { Freedom } from '../src/spec/freedoms-table.ts';
import type { Statement } from '../src/spec/statements-table.ts';
import { CHECKS } from './checks/definitions.ts';
import { checkBasis, type CheckDefinition } from './verdicts.ts';

/**
 * The account of the freedom table (spec/freedoms.yaml, decisions/042): the room the document leaves,
 * and which checks rely on the suite reading each part of it right (the checks of the statements it
 * touches, and those it names). A check that relies on a freedom is one a conforming deployment of that
 * freedom could trip by a false alarm; the generated deployments (test/deployments/conforming/) prove it
 * does not. `videotask lint-spec --trace` prints it beside the statement account.
 */
export interface FreedomAccount {
  /** How many freedoms, variations, and variations the suite cannot yet be run on (`pending`). */
  readonly freedoms: number;
  readonly variations: number;
  readonly pending: number;
  readonly list: readonly FreedomLine[];
  /** Each check that relies on a freedom, and on which (check id → freedom ids). */
  readonly byCheck: Readonly<Record<string, readonly string[]>>;
  /** What is wrong with the table: a statement, a check or a departure that does not exist or fit. */
  readonly problems: readonly string[];
}

/** A freedom as the account lists it: the table's row, with every check that relies on it. */
export interface FreedomLine extends Freedom {
  /** The checks that rely on it: its statements' checks, then those it names. */
  readonly checks: readonly string[];
}

const CHECK_BY_ID: ReadonlyMap<string, CheckDefinition> = new Map(
  Object.values(CHECKS).map((c) => [c.id, c]),
);
const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** What a freedom names that does not exist, or says what the document does not. */
function freedomProblems(f: Freedom, statements: ReadonlyMap<string, Statement>): string[] {
  const at = `freedom ${f.id}`;
  const { lifecycle } = serviceContract();
  const touched = f.statements.flatMap((id) => statements.get(id) ?? []);
  const says = collapse(f.says);
  return [
    ...f.statements
      .filter((id) => !statements.has(id))
      .map((id) => `${at} touches the statement ${id}, which spec/statements.yaml lacks`),
    ...f.checks
      .filter((id) => !CHECK_BY_ID.has(id))
      .map((id) => `${at} names the check ${id}, which contracts/checks/definitions.ts lacks`),
    ...(touched.length > 0 && !touched.some((s) => collapse(s.text).includes(says))
      ? [`${at}: "${f.says}" is in none of its statements' texts (the document's own words)`]
      : []),
    ...(touched.some((s) => s.section === f.section)
      ? []
      : [`${at} is in ${f.section}, but none of its statements is`]),
    ...f.variations.flatMap((v) =>
      v.departs.flatMap((id) => {
        const check = CHECK_BY_ID.get(id);
        if (check === undefined)
          return [`${at} ${v.id} departs from the check ${id}, which does not exist`];
        return checkBasis(check, lifecycle).documented
          ? [
              `${at} ${v.id} departs from ${id}, a check of a documented rule: that is a break, ` +
                'not a freedom',
            ]
          : [];
      }),
    ),
  ];
}

/** The checks that rely on a freedom: those of the statements it touches, then those it names. */
function relyingChecks(f: Freedom, statements: ReadonlyMap<string, Statement>): string[] {
  const fromRows = f.statements.flatMap((id) => statements.get(id)?.checks ?? []);
  return [...new Set([...fromRows, ...f.checks])];
}

export function freedomAccount(input: {
  readonly freedoms: readonly Freedom[];
  readonly statements: readonly Statement[];
}): FreedomAccount {
  const statements = new Map(input.statements.map((s) => [s.id, s]));
  const list = input.freedoms.map((f): FreedomLine => ({
    ...f,
    room: collapse(f.room),
    checks: relyingChecks(f, statements),
  }));
  const byCheck: Record<string, string[]> = {};
  for (const line of list) for (const check of line.checks) (byCheck[check] ??= []).push(line.id);
  const variations = input.freedoms.flatMap((f) => f.variations);
  return {
    freedoms: list.length,
    variations: variations.length,
    pending: variations.filter((v) => v.pending !== undefined).length,
    list,
    byCheck: Object.fromEntries(Object.entries(byCheck).sort(([a], [b]) => a.localeCompare(b))),
    problems: input.freedoms.flatMap((f) => freedomProblems(f, statements)),
  };
}

/** The account as a terminal reads it: one paragraph per freedom, its checks and its variations. */
export function renderFreedomAccount(account: FreedomAccount, tableName: string): string {
  const head =
    `${tableName}: ${account.freedoms} freedoms the document leaves, ${account.variations} ` +
    `variations (${account.pending} the suite cannot yet be run on)`;
  const lines = account.list.flatMap((f) => [
    `  ${f.section.padEnd(5)} ${f.id}: ${f.room}`,
    `        relied on by: ${f.checks.length === 0 ? 'no check' : f.checks.join(', ')}`,
    ...f.variations.map((v) => {
      const notes = [
        ...(v.departs.length > 0 ? [`warns: ${v.departs.join(', ')}`] : []),
        ...(v.hides.length > 0 ? [`may hide: ${v.hides.join(', ')}`] : []),
        ...(v.pending === undefined ? [] : [`pending: ${v.pending}`]),
      ];
      return `        - ${v.id}${notes.length === 0 ? '' : ` (${notes.join('; ')})`}`;
    }),
  ]);
  const problems = account.problems.length === 0 ? [] : ['', 'Problems:', ...account.problems];
  return ['', head, ...lines, ...problems].join('\n');
}
