import {
  type AccountLine,
  statementAccount,
  type StatementAccount,
  type StatementProof,
} from '../../contracts/statement-account.ts';
import type { StatementPart } from '../../contracts/statement-proof.ts';
import { selfProofCases } from '../self-proof-cases.ts';
import { checkDescribed, checkExtensions } from '../../src/spec/index.ts';
import {
  CONTROL_SPEC_PATH,
  loadSpecFile,
  SERVICE_DOCUMENT_PATH,
  SERVICE_SPEC_PATH,
} from '../../src/spec/load-spec-file.ts';
import { documentStatements } from '../../src/spec/statements.ts';
import { documentFreedoms } from '../../src/spec/freedoms.ts';
import {
  freedomAccount,
  renderFreedomAccount,
  type FreedomAccount,
} from '../../contracts/freedom-account.ts';
import type { Command } from '../command.ts';
import { parseFlags, readOptionFile, UsageError } from '../options.ts';
import { KIND_LABEL, kindCount, STATEMENT_KINDS } from '../../src/spec/statements-table.ts';

const TABLE = 'spec/statements.yaml';
const FREEDOMS = 'spec/freedoms.yaml';

const HELP = `Usage: videotask lint-spec [FILE...] [--trace [--all] [--json]] [--document FILE]

Validates each OpenAPI file (default: the service spec and the mock control spec) and, without FILE,
that ${TABLE} holds every statement of the service document (spec/service-document.md): a
statement added or changed in the document is named, with what is mapped to the old one.

  --trace          print the account, what to act on first: the gaps (a part of a statement no
                   self-proof case proves), the statements judged by assumption checks only, those
                   judged on one side only (a deployment or a client), the server rules no check can
                   judge. A statement counts as judged only where a generated mutant or a named
                   defect that breaks it is caught by one of its own checks, part by part
  --all            with --trace: also each statement's parts with the cases that prove them, every
                   statement no check or client rule judges, and the room the document leaves
                   (${FREEDOMS}) with the checks that rely on each part of it
  --json           the account as JSON (counts: statements, judged, clientRules, gaps, unmapped; proof:
                   judged, judgedInPart, assumptionOnly, reasons, unproven; proofByStatement: each
                   statement's parts as judged, assumptionOnly, reasons, gaps; \`freedoms\`: the room
                   the document leaves and the checks that rely on each part of it)
  --document FILE  trace this copy of the service document instead (a new version, a draft)

Exit 0 when everything holds, 1 when a spec is invalid or the table misses or misnames something.`;

export const lintSpecCommand: Command = {
  name: 'lint-spec',
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      {
        trace: { type: 'boolean' },
        json: { type: 'boolean' },
        all: { type: 'boolean' },
        document: { type: 'string' },
      },
      true,
    );
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    if ((values.json === true || values.all === true) && values.trace !== true)
      throw new UsageError(
        `${values.json === true ? '--json' : '--all'} prints the account of --trace: add --trace`,
      );
    const traced = values.trace === true || values.document !== undefined;
    if (traced && positionals.length > 0)
      throw new UsageError('--trace and --document read the service spec: give no FILE with them');
    const account = positionals.length === 0 ? accountOf(values.document) : undefined;
    if (values.trace === true)
      return printAccount(account!, values.json === true, values.all === true);
    const failed = await lintFiles(
      positionals.length > 0 ? positionals : [SERVICE_SPEC_PATH, CONTROL_SPEC_PATH],
      !traced,
    );
    return account === undefined
      ? exit(failed)
      : exit(failed + printTraceCheck(account) + printFreedomsCheck(freedomsOf()));
  },
};

const exit = (failed: number) => (failed === 0 ? 0 : 1);

/** The account of the committed table against the document (or a copy of it). */
function accountOf(documentPath: string | undefined): StatementAccount {
  const path = documentPath ?? SERVICE_DOCUMENT_PATH;
  const { text: document } = readOptionFile('--document', path);
  return statementAccount({
    document,
    documentName: documentPath ?? 'spec/service-document.md',
    statements: documentStatements(),
    cases: selfProofCases(),
  });
}

/** Validates OpenAPI files: each is `ok` or `invalid` with the reason. Returns how many failed. */
async function lintFiles(files: readonly string[], lint: boolean): Promise<number> {
  if (!lint) return 0;
  let failed = 0;
  for (const file of files) {
    try {
      const doc = await loadSpecFile(file);
      checkExtensions(doc);
      checkDescribed(doc);
      console.log(`ok ${file}`);
    } catch (error) {
      failed++;
      console.error(`invalid ${file}: ${(error as Error).message}`);
    }
  }
  return failed;
}

/** The table's verdict in one line, or each problem. Returns 1 when there is one. */
function printTraceCheck(account: StatementAccount): number {
  if (account.problems.length === 0 && account.unmapped === 0) {
    console.log(
      `ok ${TABLE}: ${account.statements} statements hold every sentence and table row ` +
        `of the service document`,
    );
    return 0;
  }
  console.error(`${TABLE} does not account for the service document:`);
  for (const problem of account.problems) console.error(problem);
  return 1;
}

function printAccount(account: StatementAccount, json: boolean, all: boolean): number {
  const freedoms = freedomsOf();
  console.log(
    json
      ? JSON.stringify({ ...account, freedoms }, null, 2)
      : renderAccount(account, TABLE, all) + freedomLines(freedoms, all),
  );
  return exit(account.problems.length + account.unmapped + freedoms.problems.length);
}

/** The room the document leaves: its one head line, or with `--all` each freedom and what relies on it. */
function freedomLines(freedoms: FreedomAccount, all: boolean): string {
  const text = renderFreedomAccount(freedoms, FREEDOMS);
  return all ? text : `${text.split('\n').slice(0, 2).join('\n')} (each with --all)`;
}

/** The room the document leaves (spec/freedoms.yaml) and the checks that rely on each part of it. */
function freedomsOf(): FreedomAccount {
  return freedomAccount({ freedoms: documentFreedoms(), statements: documentStatements() });
}

/** The freedom table's verdict in one line, or each problem. Returns 1 when there is one. */
function printFreedomsCheck(account: FreedomAccount): number {
  if (account.problems.length === 0) {
    console.log(
      `ok ${FREEDOMS}: ${account.freedoms} freedoms, ${account.variations} variations, ` +
        'each naming statements and checks that exist',
    );
    return 0;
  }
  console.error(`${FREEDOMS} names what does not exist:`);
  for (const problem of account.problems) console.error(problem);
  return 1;
}

/** `videotask lint-spec --trace`: the account of the statement table, for a terminal. */

const SHORT = 88;
const short = (text: string) => (text.length <= SHORT ? text : `${text.slice(0, SHORT - 1)}…`);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function itemLines(item: AccountLine): string[] {
  return [
    `  ${item.section.padEnd(5)} ${item.id} (${KIND_LABEL[item.kind]}): "${short(item.text)}"`,
    `        ${item.why}`,
  ];
}

function listing(title: string, items: readonly AccountLine[]): string[] {
  return items.length === 0 ? [] : ['', `${title} (${items.length}):`, ...items.flatMap(itemLines)];
}

const partLine = (p: StatementPart) =>
  `${p.part}${p.checks.length === 0 ? '' : ` (${p.checks.join(', ')})`}` +
  `${p.cases.length === 0 ? '' : `: ${p.cases.join(', ')}`}${p.why === undefined ? '' : `: ${p.why}`}`;

/** A statement's parts of one status, one line each, under its id. */
function partListing(
  title: string,
  proofs: readonly StatementProof[],
  pick: (p: StatementProof) => readonly StatementPart[],
): string[] {
  const picked = proofs.filter((p) => pick(p).length > 0);
  if (picked.length === 0) return [];
  return [
    '',
    `${title} (${picked.length}):`,
    ...picked.flatMap((p) => [
      `  ${p.section.padEnd(5)} ${p.id} (${KIND_LABEL[p.kind]})`,
      ...pick(p).map((part) => `        ${partLine(part)}`),
    ]),
  ];
}

function headLines(account: StatementAccount, tableName: string): string[] {
  const kinds = STATEMENT_KINDS.filter((k) => account.byKind[k] > 0)
    .map((k) => kindCount(account.byKind[k], k))
    .join(', ');
  const { proof: p, server: s, client: c } = account;
  const clientRules = account.clientRulesDeclared
    ? `${account.clientRules} (client rules and recommendations: ${c.judged} of ${c.total}, ` +
      `${c.reasons} with a reason none can, ${c.unjudged} not judged yet)`
    : `${account.clientRules} (the spec declares no x-client-rules)`;
  return [
    `${tableName}: ${plural(account.statements, 'statement')}, ${account.unmapped} unmapped`,
    `  by kind: ${kinds}`,
    `  judged by contract checks, proven per statement: ${p.judged} of the ${p.named} that name ` +
      `one (server rules: ${s.judged} of ${s.total}); ${p.judgedInPart} judged in part, ` +
      `${p.assumptionOnly} by assumptions only, ${p.reasons} with reasons only, ${p.unproven} unproven ` +
      `(${p.cases} self-proof cases)`,
    `  server rules with a reason no check can judge them: ${s.reasons}; not judged yet: ${s.unjudged}`,
    `  judged by client rules: ${clientRules}`,
    `  played by the mock (or the project's own client and tools), in a named test: ${account.mock}`,
    `  gaps, statements with a part no check judges yet although one could: ${account.gaps}`,
  ];
}

/**
 * What a reader acts on, first (issue 35 item 6): the gaps, the statements judged by assumptions
 * only, those judged on one side only, and the server rules no check can judge. Further sections
 * (the document's freedoms, issue 31) are added to this list.
 */
function actionSections(account: StatementAccount): string[][] {
  const proofs = account.proofByStatement;
  return [
    listing(
      'Gaps: a part of the statement no self-proof case proves, or no check judges yet',
      account.gapList,
    ),
    partListing(
      'Judged by assumption checks only (a warning; a failure only with --strict)',
      proofs.filter((p) => p.class === 'assumption-only'),
      (p) => p.assumptionOnly,
    ),
    listing('Judged on one side only (a deployment or a client)', account.oneSided),
    listing(
      'Server rules no contract check judges',
      account.notJudged.filter((item) => item.kind === 'server'),
    ),
  ];
}

/** Everything else, with `--all`: each statement's parts and every statement not judged. */
function fullSections(account: StatementAccount): string[][] {
  const clientIds = new Set(account.clientNotJudged.map((item) => item.id));
  const proofs = account.proofByStatement;
  return [
    partListing('Parts judged, and the self-proof cases that break them', proofs, (p) => p.judged),
    partListing('Parts judged by assumption checks', proofs, (p) => p.assumptionOnly),
    partListing('Parts no case can break, and why', proofs, (p) => p.reasons),
    listing('Client rules and recommendations no client rule judges', account.clientNotJudged),
    listing(
      'Other statements no check or client rule judges',
      account.notJudged.filter((item) => item.kind !== 'server' && !clientIds.has(item.id)),
    ),
    listing('Not played by the mock', account.notPlayed),
  ];
}

function renderAccount(account: StatementAccount, tableName: string, all: boolean): string {
  return [
    ...headLines(account, tableName),
    ...actionSections(account).flat(),
    ...(all
      ? fullSections(account).flat()
      : [
          '',
          "The whole account (each statement's parts and the self-proof cases that prove them, every " +
            'statement not judged): --all; as data: --json.',
        ]),
    ...(account.problems.length === 0 ? [] : ['', 'Problems:', ...account.problems]),
  ].join('\n');
}
