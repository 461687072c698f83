import { documentUnits, type DocumentUnit } from './document-units.ts';
import type { Statement } from './statements-table.ts';

/**
 * Finds each statement of the table in the document, by its words, and says what does not match:
 * a sentence or row of the document in no statement (`new`), a statement whose words changed
 * (`changed`, paired with the new words most like them), moved to another section (`moved`), or are
 * gone (`removed`), and two statements claiming the same words (`overlap`). Every message about a
 * statement says what is mapped to it, so whoever updates the document sees what to review.
 */
export type TraceProblemKind = 'new' | 'changed' | 'moved' | 'removed' | 'overlap';

export interface TraceProblem {
  readonly kind: TraceProblemKind;
  readonly section: string;
  /** The statement of the table it is about (not for `new`). */
  readonly statement?: string | undefined;
  /** The document's words now (not for `removed`). */
  readonly text?: string | undefined;
  /** Where in the document (not for `removed`). */
  readonly line?: number | undefined;
  /** One paragraph, lines indented, ready to print. */
  readonly message: string;
}

export interface Trace {
  readonly units: readonly DocumentUnit[];
  /** The units each statement was found at. */
  readonly found: ReadonlyMap<string, readonly DocumentUnit[]>;
  readonly problems: readonly TraceProblem[];
}

export interface TraceOptions {
  /** How messages name the document: `spec/service-document.md`. */
  readonly documentName?: string;
  /** How messages name the table. */
  readonly tableName?: string;
}

/** Word sets closer than this (Dice coefficient) are the same statement, changed. */
const SAME_STATEMENT = 0.5;

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
const joined = (units: readonly DocumentUnit[]) => units.map((u) => u.text).join(' ');

/** The consecutive units of one block whose words are `text`, starting at a unit not yet claimed. */
function locate(
  text: string,
  section: string,
  blocks: readonly (readonly DocumentUnit[])[],
  claimed: ReadonlyMap<DocumentUnit, string>,
): DocumentUnit[] | undefined {
  for (const block of blocks) {
    if (block[0]!.section !== section) continue;
    for (let start = 0; start < block.length; start++) {
      if (claimed.has(block[start]!)) continue;
      let words = '';
      for (let end = start; end < block.length && words.length < text.length; end++) {
        words = words === '' ? block[end]!.text : `${words} ${block[end]!.text}`;
        if (words === text) return block.slice(start, end + 1);
      }
    }
  }
  return undefined;
}

const wordsOf = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9_]+/g) ?? []);

/** Dice coefficient of the two texts' word sets: 1 for the same words, 0 for none in common. */
export function similarity(a: string, b: string): number {
  const left = wordsOf(a);
  const right = wordsOf(b);
  if (left.size + right.size === 0) return 1;
  let common = 0;
  for (const word of left) if (right.has(word)) common++;
  return (2 * common) / (left.size + right.size);
}

/** Runs of consecutive unclaimed units of one block: the words no statement holds. */
function unclaimedRuns(
  blocks: readonly (readonly DocumentUnit[])[],
  claimed: ReadonlyMap<DocumentUnit, string>,
): DocumentUnit[][] {
  const runs: DocumentUnit[][] = [];
  for (const block of blocks) {
    let run: DocumentUnit[] = [];
    for (const unit of block) {
      if (!claimed.has(unit)) run.push(unit);
      else if (run.length > 0) {
        runs.push(run);
        run = [];
      }
    }
    if (run.length > 0) runs.push(run);
  }
  return runs;
}

const quote = (text: string) => `"${text}"`;

/** The units grouped by block, in reading order. */
function blocksOf(units: readonly DocumentUnit[]): DocumentUnit[][] {
  const blocks: DocumentUnit[][] = [];
  for (const unit of units) {
    const last = blocks.at(-1);
    if (last !== undefined && last[0]!.block === unit.block) last.push(unit);
    else blocks.push([unit]);
  }
  return blocks;
}

/** What the table maps to a statement, one clause per kind of place, for messages. */
export function describeMapping(statement: Statement): string {
  const tests = statement.mock.map((t) => `${t.file} ${quote(t.test)}`);
  const clauses = [
    statement.checks.length > 0 ? `contract checks ${statement.checks.join(', ')}` : undefined,
    statement.clientRules.length > 0
      ? `client rules ${statement.clientRules.join(', ')}`
      : undefined,
    statement.rules.length > 0 ? `x-lifecycle rules ${statement.rules.join(', ')}` : undefined,
    statement.spec.length > 0 ? `spec ${statement.spec.join(', ')}` : undefined,
    tests.length > 0 ? `played by ${tests.join('; ')}` : undefined,
    statement.reason === undefined ? undefined : `reason: ${statement.reason}`,
    statement.gap === undefined ? undefined : `gap: ${statement.gap}`,
    statement.clientReason === undefined ? undefined : `client reason: ${statement.clientReason}`,
  ].filter((clause) => clause !== undefined);
  return clauses.length === 0 ? 'nothing' : clauses.join('\n    ');
}

interface Pairing {
  readonly statement: Statement;
  readonly run: DocumentUnit[];
  readonly score: number;
}

/** Orphaned statements paired with the unclaimed words most like them, best pairs first. */
function pairUp(orphans: readonly Statement[], runs: readonly DocumentUnit[][]): Pairing[] {
  const candidates = orphans
    .flatMap((statement) =>
      runs.map((run) => ({ statement, run, score: similarity(statement.text, joined(run)) })),
    )
    .filter((c) => c.score >= SAME_STATEMENT)
    .sort((a, b) => b.score - a.score);
  const pairs: Pairing[] = [];
  const used = new Set<unknown>();
  for (const candidate of candidates) {
    if (used.has(candidate.statement) || used.has(candidate.run)) continue;
    used.add(candidate.statement).add(candidate.run);
    pairs.push(candidate);
  }
  return pairs;
}

interface Names {
  readonly document: string;
  readonly table: string;
}

/** Each statement located at unclaimed words; those whose words are not there, or already taken. */
function locateAll(statements: readonly Statement[], blocks: readonly (readonly DocumentUnit[])[]) {
  const claimed = new Map<DocumentUnit, string>();
  const found = new Map<string, readonly DocumentUnit[]>();
  const orphans: Statement[] = [];
  const overlaps: TraceProblem[] = [];
  for (const statement of statements) {
    const text = collapse(statement.text);
    const at = locate(text, statement.section, blocks, claimed);
    const taken = at === undefined ? locate(text, statement.section, blocks, new Map()) : undefined;
    if (at !== undefined) {
      for (const unit of at) claimed.set(unit, statement.id);
      found.set(statement.id, at);
    } else if (taken === undefined) orphans.push(statement);
    else
      overlaps.push({
        kind: 'overlap',
        section: statement.section,
        statement: statement.id,
        text,
        line: taken[0]!.line,
        message:
          `${statement.section} statement ${statement.id} claims words another statement ` +
          `(${claimed.get(taken[0]!) ?? '?'}) already holds: ${quote(text)}`,
      });
  }
  return { claimed, found, orphans, overlaps };
}

function changed({ statement, run }: Pairing, names: Names): TraceProblem {
  const now = joined(run);
  const { section, line } = run[0]!;
  const same = now === collapse(statement.text);
  const moved = section !== statement.section;
  const what = moved
    ? `moved from ${statement.section} to ${section}${same ? '' : ' and changed'}`
    : 'changed';
  return {
    kind: moved && same ? 'moved' : 'changed',
    section,
    statement: statement.id,
    text: now,
    line,
    message:
      `${section} statement ${statement.id} ${what} (${names.document} line ${line}):\n` +
      `  was: ${statement.text}\n  now: ${now}\n` +
      `  mapped to it: ${describeMapping(statement)}\n` +
      `  → review what is mapped against the new words, then update ${statement.id} in ${names.table}`,
  };
}

function added(run: readonly DocumentUnit[], names: Names): TraceProblem {
  const text = joined(run);
  const { section, line } = run[0]!;
  return {
    kind: 'new',
    section,
    text,
    line,
    message:
      `${section} a statement of ${names.document} (line ${line}) is in no statement of ` +
      `${names.table}:\n  ${text}\n` +
      `  → add it with its kind and where it lives (spec, mock, check or reason)`,
  };
}

function removed(statement: Statement, names: Names): TraceProblem {
  return {
    kind: 'removed',
    section: statement.section,
    statement: statement.id,
    message:
      `${statement.section} statement ${statement.id} is no longer in ${names.document}:\n` +
      `  was: ${statement.text}\n  mapped to it: ${describeMapping(statement)}\n` +
      `  → remove it from ${names.table}, and what only it needed`,
  };
}

/** Traces every statement of `statements` in the Markdown of the document. */
export function traceStatements(
  markdown: string,
  statements: readonly Statement[],
  options: TraceOptions = {},
): Trace {
  const names = {
    document: options.documentName ?? 'the document',
    table: options.tableName ?? 'spec/statements.yaml',
  };
  const units = documentUnits(markdown);
  const blocks = blocksOf(units);
  const { claimed, found, orphans, overlaps } = locateAll(statements, blocks);
  const runs = unclaimedRuns(blocks, claimed);
  const pairs = pairUp(orphans, runs);
  const paired = new Set<unknown>(pairs.flatMap((p) => [p.statement, p.run]));
  const problems = [
    ...overlaps,
    ...pairs.map((pair) => changed(pair, names)),
    ...runs.filter((run) => !paired.has(run)).map((run) => added(run, names)),
    ...orphans.filter((s) => !paired.has(s)).map((s) => removed(s, names)),
  ];
  const line = (p: TraceProblem) => p.line ?? Number.POSITIVE_INFINITY;
  return { units, found, problems: problems.sort((a, b) => line(a) - line(b)) };
}
