import { describeBasis, serviceContract, serviceSpec } from '../src/spec/index.ts';
import { documentSections } from '../src/spec/document-units.ts';
import {
  KIND_LABEL,
  STATEMENT_KINDS,
  kindCount,
  type Statement,
} from '../src/spec/statements-table.ts';
import { CHECKS } from './checks/definitions.ts';
import {
  CLIENT_KINDS,
  declaredClientRules,
  statementAccount,
  type StatementAccount,
} from './statement-account.ts';
import type { SelfProofCase } from './statement-proof.ts';
import { checkBasis, type CheckDefinition } from './verdicts.ts';

/**
 * docs/statements.md: the statement table as a page a QA lead (or a client team) reads, section by
 * section of the document: each statement, its kind, the contract checks that judge it with their
 * basis, the client rules that judge it on a client's traffic with their outcome, what plays it, and
 * why it is not judged where it is not. Written by `npm run generate`; a test keeps it fresh.
 */
export interface PageInput {
  /** The service document's Markdown (for its section titles and the account). */
  readonly document: string;
  readonly statements: readonly Statement[];
  /** The self-proof's cases (cli/self-proof-cases.ts): what proves each statement judged. */
  readonly cases: readonly SelfProofCase[];
}

const BY_ID = new Map<string, CheckDefinition>(Object.values(CHECKS).map((c) => [c.id, c]));
const CLIENT_RULES = declaredClientRules(serviceSpec);

/** A table cell: one line, pipes escaped. */
const cell = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

function judgedBy(s: Statement): string {
  const { lifecycle } = serviceContract();
  const checks = s.checks.map((id) => {
    const check = BY_ID.get(id);
    return `\`${id}\` (${check === undefined ? 'unknown check' : describeBasis(checkBasis(check, lifecycle))})`;
  });
  const clientRules = s.clientRules.map((id) => {
    const rule = CLIENT_RULES?.get(id);
    const outcome =
      rule === undefined ? 'unknown rule' : rule.judged ? rule.outcome : 'not judged from traffic';
    return `client rule \`${id}\` (${outcome}${rule === undefined ? '' : `, ${rule.section}`})`;
  });
  return [...checks, ...clientRules].join(', ');
}

const playedBy = (s: Statement) =>
  [...new Set(s.mock.map((t) => `\`${t.file.replace(/^test\//, '')}\``))].join(', ');

function whyColumn(s: Statement, account: StatementAccount): string {
  const gap = account.gapList.find((line) => line.id === s.id)?.why;
  if (gap !== undefined) return `**Not judged yet:** ${gap}`;
  const open = CLIENT_KINDS.has(s.kind)
    ? account.clientNotJudged.find((line) => line.id === s.id)?.why
    : undefined;
  if (open !== undefined)
    return s.note === undefined ? open : `${open}${/[.!?]$/.test(open) ? '' : '.'} ${s.note}`;
  const why = account.notJudged.find((line) => line.id === s.id)?.why;
  if (why !== undefined) return why;
  return s.note ?? '';
}

function row(s: Statement, account: StatementAccount): string {
  const cells = [s.id, s.text, KIND_LABEL[s.kind], judgedBy(s), playedBy(s), whyColumn(s, account)];
  return `| ${cells.map(cell).join(' | ')} |`;
}

function clientSummary(account: StatementAccount): string {
  if (!account.clientRulesDeclared)
    return `- Judged by client rules: ${account.clientRules} (the spec declares no x-client-rules).`;
  const c = account.client;
  return (
    `- **Client rules and recommendations judged by a client rule of the mock: ${c.judged} of ` +
    `${c.total}**; ${c.reasons} with a reason none can (traffic cannot show it); ${c.unjudged} not ` +
    `judged yet. Statements judged by client rules in all (server rules that bind clients too): ` +
    `${account.clientRules}; how the mock judges them: [client-verdicts.md](client-verdicts.md).`
  );
}

function summary(account: StatementAccount): string[] {
  const kinds = STATEMENT_KINDS.map((kind) => kindCount(account.byKind[kind], kind)).join(', ');
  const { server: s, proof: p } = account;
  return [
    `- **${account.statements} statements** (${kinds}); ${account.unmapped} of the document's ` +
      `sentences and rows in none.`,
    `- **Server rules judged by a contract check, proven per statement: ${s.judged} of ${s.total}** ` +
      `(a generated mutant or a named defect that breaks the statement is caught by its own check, ` +
      `part by part: [decisions/052](../decisions/052-judged-means-proven-per-statement.md)); ` +
      `${s.reasons} with a reason none can; ${s.unjudged} not judged yet. Of the ${p.named} ` +
      `statements that name a check: ${p.judged} judged, ${p.judgedInPart} judged in part, ` +
      `${p.assumptionOnly} by assumption checks only (a warning; a failure with --strict), ` +
      `${p.reasons} with reasons only, ${p.unproven} unproven. ` +
      `${account.gaps} statements have a part no check or self-proof case judges yet although one ` +
      `could (**Not judged yet** below).`,
    clientSummary(account),
    `- Played by the mock or the project's own tools: ${account.mock}.`,
  ];
}

export function renderStatementPage(input: PageInput): string {
  const account = statementAccount({
    document: input.document,
    statements: input.statements,
    cases: input.cases,
  });
  const titles = new Map(documentSections(input.document).map((s) => [s.section, s.title]));
  const sections = [...new Set(input.statements.map((s) => s.section))];
  const header = [
    '| ID | Statement | Kind | Judged by (basis) | Played by | Not judged because / note |',
    '|---|---|---|---|---|---|',
  ];
  return [
    '# The service document, statement by statement',
    '',
    '<!-- Generated from spec/statements.yaml by `npm run generate`; do not edit. -->',
    '',
    'Every sentence and table row of the service document (`spec/service-document.md`) is one ' +
      'statement below, in its own words, with its kind, the contract checks that judge it on a ' +
      'deployment and their basis (a documented rule fails a run, an assumption warns), the client ' +
      'rules that judge it on a client’s traffic to the mock and their outcome (violation, advice, ' +
      'note; or not judged from traffic, and why), the tests that show the mock (or the project’s ' +
      'own client and tools) playing it, and why it is not judged where it is not. The contract ' +
      'report names these IDs beside the section of each failure. ' +
      'Source: `spec/statements.yaml`; the account on a terminal: `npx videotask lint-spec --trace`; ' +
      'design: [decisions/020](../decisions/020-statement-traceability.md).',
    '',
    ...summary(account),
    ...sections.flatMap((section) => [
      '',
      `## ${section === 'intro' ? 'Introduction' : `${section} ${titles.get(section) ?? ''}`.trim()}`,
      '',
      ...header,
      ...input.statements.filter((s) => s.section === section).map((s) => row(s, account)),
    ]),
    '',
  ].join('\n');
}
