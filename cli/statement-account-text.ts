import type { AccountLine, StatementAccount } from '../contracts/statement-account.ts';
import { KIND_LABEL, STATEMENT_KINDS, kindCount } from '../src/spec/statements-table.ts';

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

export function renderAccount(account: StatementAccount, tableName: string): string {
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
