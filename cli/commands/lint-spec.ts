import {
  type AccountLine,
  statementAccount,
  type StatementAccount,
} from '../../contracts/statement-account.ts';
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

const HELP = `Usage: videotask lint-spec [FILE...] [--trace [--json]] [--document FILE]

Validates each OpenAPI file (default: the service spec and the mock control spec) and, without FILE,
that ${TABLE} holds every statement of the service document (spec/service-document.md): a
statement added or changed in the document is named, with what is mapped to the old one.

  --trace          print the account: statements by kind, how many are judged by contract checks,
                   by client rules, played by the mock, and each one that is not, with its reason
  --json           the account as JSON (counts: statements, judged, clientRules, client, reasons,
                   unmapped; and each statement not judged, with why; \`freedoms\`: the room the
                   document leaves, ${'${FREEDOMS}'}, and the checks that rely on each part of it)
  --document FILE  trace this copy of the service document instead (a new version, a draft)

Exit 0 when everything holds, 1 when a spec is invalid or the table misses or misnames something.`;

export const lintSpecCommand: Command = {
  name: 'lint-spec',
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      { trace: { type: 'boolean' }, json: { type: 'boolean' }, document: { type: 'string' } },
      true,
    );
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    if (values.json === true && values.trace !== true)
      throw new UsageError('--json prints the account of --trace: add --trace');
    const traced = values.trace === true || values.document !== undefined;
    if (traced && positionals.length > 0)
      throw new UsageError('--trace and --document read the service spec: give no FILE with them');
    const account = positionals.length === 0 ? accountOf(values.document) : undefined;
    if (values.trace === true) return printAccount(account!, values.json === true);
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

function printAccount(account: StatementAccount, json: boolean): number {
  const freedoms = freedomsOf();
  console.log(
    json
      ? JSON.stringify({ ...account, freedoms }, null, 2)
      : renderAccount(account, TABLE) + renderFreedomAccount(freedoms, FREEDOMS),
  );
  return exit(account.problems.length + account.unmapped + freedoms.problems.length);
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

function renderAccount(account: StatementAccount, tableName: string): string {
  const kinds = STATEMENT_KINDS.filter((k) => account.byKind[k] > 0)
    .map((k) => kindCount(account.byKind[k], k))
    .join(', ');
  const s = account.server;
  const c = account.client;
  const clientRules = account.clientRulesDeclared
    ? `${account.clientRules} (client rules and recommendations: ${c.judged} of ${c.total}, ` +
      `${c.reasons} with a reason none can, ${c.unjudged} not judged yet)`
    : `${account.clientRules} (the spec declares no x-client-rules)`;
  const serverNotJudged = account.notJudged.filter((item) => item.kind === 'server');
  const clientIds = new Set(account.clientNotJudged.map((item) => item.id));
  return [
    `${tableName}: ${plural(account.statements, 'statement')}, ${account.unmapped} unmapped`,
    `  by kind: ${kinds}`,
    `  judged by contract checks: ${account.judged} (server rules: ${s.judged} of ${s.total}, ` +
      `${s.reasons} with a reason none can, ${s.unjudged} not judged yet)`,
    `  judged by client rules: ${clientRules}`,
    `  played by the mock (or the project's own client and tools), in a named test: ${account.mock}`,
    `  gaps, parts no check judges yet although one could: ${account.gaps}`,
    ...listing('Server rules no contract check judges', serverNotJudged),
    ...listing('Gaps', account.gapList),
    ...listing('Client rules and recommendations no client rule judges', account.clientNotJudged),
    ...listing(
      'Other statements no check or client rule judges',
      account.notJudged.filter((item) => item.kind !== 'server' && !clientIds.has(item.id)),
    ),
    ...listing('Not played by the mock', account.notPlayed),
    ...(account.problems.length === 0 ? [] : ['', 'Problems:', ...account.problems]),
  ].join('\n');
}
