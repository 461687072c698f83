import { xmlText } from '../../../src/text/xml-text.ts';
import type { ClientReport, ClientVerdict } from './client-report.ts';

const OUTCOME_WORD = { violation: 'VIOLATION', advice: 'ADVICE', note: 'NOTE' } as const;

/**
 * One verdict as a person reads it: what, who, the requests it was judged on, what to do instead.
 *
 * @example
 * VIOLATION no-resubmission (§3) by sk-…lice (alice), task task_…, 1×
 *   submitted task_… again (the same model, prompt and parameters) while it was unfinished: …
 *     POST /v1/videos  2026-11-22T00:00:00.000Z  200
 *   do instead: Keep polling the same task. Do not resubmit (§3 rule 1).
 */
export function formatVerdict(v: ClientVerdict): string {
  const who = v.user === undefined ? v.caller : `${v.caller} (${v.user})`;
  const task = v.taskId === undefined ? '' : `, task ${v.taskId}`;
  const row = v.situation === undefined ? '' : ` (§7 "${v.situation}")`;
  return [
    `${OUTCOME_WORD[v.outcome]} ${v.rule} (${v.section}) by ${who}${task}, ${v.count}×`,
    `  ${v.message}`,
    ...v.requests.map(
      (r) => `    ${r.method} ${r.path}  ${r.at}  ${r.status}${r.lost === true ? ' (lost)' : ''}`,
    ),
    `  do instead${row}: ${v.advice}`,
  ].join('\n');
}

/** The report as a readable summary: counts, every verdict, the situations never met, the rules not judged. */
export function renderClientSummary(report: ClientReport): string {
  const { counts } = report;
  const lines = [
    `videotask mock: client report at ${report.generatedAt} (mock time)`,
    `${counts.violations} violation(s), ${counts.advice} advice, ${counts.notes} note(s) from ` +
      `${counts.callers} caller(s) in ${counts.requests} request(s)`,
    '',
    ...report.verdicts.flatMap((v) => [formatVerdict(v), '']),
  ];
  const unmet = report.coverage.situations.filter((s) => s.applicable && !s.met);
  if (unmet.length > 0) {
    lines.push('Your tests never showed your client:');
    for (const s of unmet) lines.push(`  - ${s.description} (${s.section}): ${s.produce}`);
    lines.push('');
  }
  const notJudged = report.rules.filter((r) => !r.judged);
  lines.push(
    `Not judged from traffic: ${notJudged.map((r) => `${r.id} (${r.section})`).join(', ')}.`,
  );
  lines.push(...toolLines(report.tools), ...limitLines(report.limits));
  const left = report.limits;
  if (left.requestsNotJudged > 0)
    lines.push(
      `Not judged: ${left.requestsNotJudged} request(s) the judging failed on (answered all the ` +
        `same; a bug in the mock, please report it): ${left.firstJudgeFailure ?? 'no reason kept'}.`,
    );
  return `${lines.join('\n')}\n`;
}

/** What the project's own tools sent (decisions/045): set apart, and what was judged all the same. */
function toolLines(tools: ClientReport['tools']): string[] {
  const lines: string[] = [];
  if (tools.requests > 0) {
    const each = Object.entries(tools.byTool).map(([tool, n]) => `${tool} ${n}`);
    lines.push(
      `Set apart: ${tools.requests} request(s) the project's own tools marked ` +
        `(${tools.header}: ${each.join(', ')}): not the client's doings, no verdict.`,
    );
  }
  if (tools.notCovered > 0)
    lines.push(
      `Judged as the client's: ${tools.notCovered} marked request(s) about the client's own tasks ` +
        '(or a client-retry that retried nothing): a mark gives no cover where the mock can tell.',
    );
  return lines;
}

/** The limits a report reached: what it did not count as any caller's, and what it did not keep. */
function limitLines(left: ClientReport['limits']): string[] {
  const lines: string[] = [];
  if (left.requestsOfUnknownKeys > 0)
    lines.push(
      `Not callers: ${left.requestsOfUnknownKeys} request(s) with keys the mock does not know ` +
        '(each answered 401; they take no caller’s place).',
    );
  if (left.requestsOfUntrackedCallers > 0)
    lines.push(
      `The caller table is full (maxCallers ${left.maxCallers}): ` +
        `${left.requestsOfUntrackedCallers} request(s) of further callers were counted, not judged.`,
    );
  const dropped = Object.values(left.verdictsNotListed).reduce((a, b) => a + b, 0);
  if (left.tasksForgotten > 0 || dropped > 0)
    lines.push(
      `Limits reached: ${left.tasksForgotten} task(s) forgotten, ${dropped} breach(es) not listed.`,
    );
  return lines;
}

/**
 * JUnit XML for a client team's CI: one test case per judged rule (a violation fails it; advice and
 * notes go to its output), one per situation of the coverage (never met: skipped, with how to
 * produce it), and the rules traffic cannot judge as skipped with why.
 */
export function renderClientJUnit(report: ClientReport): string {
  const byRule = new Map<string, ClientVerdict[]>();
  for (const v of report.verdicts) byRule.set(v.rule, [...(byRule.get(v.rule) ?? []), v]);
  const ruleCases = report.rules.map((rule) => {
    const name = `${rule.id} (${rule.section}, ${rule.outcome})`;
    if (!rule.judged)
      return testCase(
        'rules',
        name,
        `<skipped message="${xmlText(`not judged: ${rule.why ?? ''}`)}"/>`,
      );
    const verdicts = byRule.get(rule.id) ?? [];
    const text = verdicts.map(formatVerdict).join('\n\n');
    if (verdicts.length === 0) return testCase('rules', name, '');
    if (rule.outcome === 'violation')
      return testCase(
        'rules',
        name,
        `<failure message="${xmlText(verdicts[0]!.message)}">${xmlText(text)}</failure>`,
      );
    return testCase('rules', name, `<system-out>${xmlText(text)}</system-out>`);
  });
  const coverageCases = report.coverage.situations.map((s) => {
    const name = `${s.id}: ${s.description}`;
    if (!s.applicable)
      return testCase('coverage', name, '<skipped message="not applicable: no caller used it"/>');
    if (!s.met)
      return testCase(
        'coverage',
        name,
        `<skipped message="${xmlText(`never met: ${s.produce}`)}"/>`,
      );
    return testCase(
      'coverage',
      name,
      `<system-out>${xmlText(`met by ${s.callers.join(', ')}`)}</system-out>`,
    );
  });
  const failures = report.rules.filter(
    (r) => r.outcome === 'violation' && (byRule.get(r.id)?.length ?? 0) > 0,
  ).length;
  const ruleSkips = report.rules.filter((r) => !r.judged).length;
  const coverageSkips = report.coverage.situations.filter((s) => !s.applicable || !s.met).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuites name="videotask client report">',
    suite('videotask.client-rules', ruleCases, failures, ruleSkips, report.generatedAt),
    suite('videotask.client-coverage', coverageCases, 0, coverageSkips, report.generatedAt),
    '</testsuites>',
    '',
  ].join('\n');
}

function testCase(kind: string, name: string, inner: string): string {
  return `    <testcase classname="videotask.client-${kind}" name="${xmlText(name)}">${inner}</testcase>`;
}

function suite(
  name: string,
  cases: string[],
  failures: number,
  skipped: number,
  at: string,
): string {
  return [
    `  <testsuite name="${name}" tests="${cases.length}" failures="${failures}" ` +
      `skipped="${skipped}" timestamp="${at}">`,
    ...cases,
    '  </testsuite>',
  ].join('\n');
}
