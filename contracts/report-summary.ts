import { renderCoverage } from './coverage-grid.ts';
import type { ContractReport } from './report.ts';
import type { CheckResult, Outcome, Violation } from './verdicts.ts';

const MARK: Record<Outcome, string> = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', skip: 'SKIP' };
const ORDER: Outcome[] = ['fail', 'warn', 'pass', 'skip'];

function targetLine(report: ContractReport): string {
  const t = report.target;
  const extras = [
    t.strict ? 'strict' : undefined,
    t.failing === undefined ? undefined : 'a failing task',
    t.family === undefined ? undefined : `native path of ${t.family.plugin} (${t.family.model})`,
    t.forbiddenModel === undefined ? undefined : `forbidden model ${t.forbiddenModel}`,
  ].filter(Boolean);
  const more = extras.length === 0 ? '' : `, ${extras.join(', ')}`;
  return (
    `videotask contract — ${t.baseUrl} (key ${t.key}, model ${t.model}, tier ` +
    `${t.tier}, budget ${t.budget}${more})`
  );
}

/**
 * A violation and how to reproduce it: the message (with task, request and status), then what arrived,
 * the deployment's request ID, an excerpt of the body, and the request as a curl line.
 */
export function violationLines(v: Violation, indent: string): string[] {
  const e = v.evidence;
  const status = e?.status === undefined ? undefined : `HTTP ${e.status}`;
  const where = [e?.taskId, e?.request, status].filter(Boolean).join(' · ');
  const more = `${indent}  `;
  return [
    `${indent}${v.message}${where === '' ? '' : ` [${where}]`}`,
    ...(e?.actual === undefined ? [] : [`${more}actual: ${e.actual}`]),
    ...(e?.serviceRequestId === undefined ? [] : [`${more}request ID: ${e.serviceRequestId}`]),
    ...(e?.excerpt === undefined ? [] : [`${more}excerpt: ${e.excerpt}`]),
    ...(e?.curl === undefined ? [] : [`${more}reproduce: ${e.curl}`]),
  ];
}

/** Violations shown per failing or warning check in the summary (all of them are in the reports). */
const SHOWN = 3;

function checkLines(r: CheckResult): string[] {
  const broken = r.outcome === 'fail' || r.outcome === 'warn';
  // The statements of the document it judges, beside the section (spec/statements.yaml ids).
  const statements = broken && r.statements.length > 0 ? ` (${r.statements.join(', ')})` : '';
  const skipped = r.outcome === 'skip' ? ` — skipped: ${r.skipped}` : '';
  const lines = [
    `${MARK[r.outcome]}  ${r.id.padEnd(32)} ${r.basisText.padEnd(16)} ${r.title}${statements}${skipped}`,
  ];
  if (!broken) return lines;
  lines.push(`      expected: ${r.expected}`);
  for (const v of r.violations.slice(0, SHOWN)) lines.push(...violationLines(v, '      '));
  if (r.violations.length > SHOWN)
    lines.push(`      … ${r.violations.length - SHOWN} more (all in contract-report.json)`);
  return lines;
}

/** The 429s waited out and asked again, when there were any: `2 retries after 429`. */
function retriesText(report: ContractReport): string {
  const { submissions, queries } = report.retries;
  const all = submissions + queries;
  if (all === 0) return '';
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return (
    ` · ${count(all, 'retry', 'retries')} after 429 (${count(submissions, 'submission', 'submissions')}, ` +
    `${count(queries, 'query', 'queries')})`
  );
}

/** What the run cost: confirmed tasks, and submissions that may have created one (never "0 created" alone). */
function costLines(report: ContractReport): { count: string; lines: string[] } {
  const unconfirmed = report.unconfirmed;
  const count =
    unconfirmed.length === 0
      ? `${report.tasksCreated} task(s) created`
      : `${report.tasksCreated} task(s) created, ${unconfirmed.length} unconfirmed (may have created a task)`;
  const lines = unconfirmed.map((u) => {
    const service =
      u.serviceRequestId === undefined ? '' : `, service request ID ${u.serviceRequestId}`;
    const ids = `X-Request-Id ${u.clientRequestId}${service}`;
    return `unconfirmed  ${u.request}: ${u.answered} — may have created a task (${ids})`;
  });
  return { count, lines };
}

function resultLine(report: ContractReport): string {
  if (!report.ok) {
    const besides =
      report.exit.why === undefined ? '' : ' It is exit 1 whatever else the run could not check.';
    return `Result: the deployment breaks documented behaviour (see FAIL above).${besides}`;
  }
  if (report.inputErrors.length > 0)
    return (
      "Result: the run's input is wrong (see input error above): what it saw broke no documented " +
      'rule, but it could not check what the input was for. Fix the input and run again.'
    );
  if (report.stopped !== undefined)
    return (
      `Result: the run stopped early (${report.stopped}); what it saw broke no ` +
      `documented rule, but it could not check the rest.`
    );
  if (report.noTaskFollowed !== undefined)
    return (
      `Result: ${report.noTaskFollowed}; what the run saw broke no documented rule, but the ` +
      'lifecycle went unchecked.'
    );
  const unconfirmed =
    report.unconfirmed.length === 0
      ? ''
      : ` ${report.unconfirmed.length} submission(s) unconfirmed: check them (above) before running again.`;
  return (
    `Result: the deployment follows the documented behaviour wherever the ` +
    `run looked (coverage above).${unconfirmed}`
  );
}

/** The readable summary: one line per check with its basis, details under failures and warnings, then the coverage. */
export function renderSummary(report: ContractReport): string {
  const sorted = [...report.results].sort(
    (a, b) => ORDER.indexOf(a.outcome) - ORDER.indexOf(b.outcome) || a.id.localeCompare(b.id),
  );
  const c = report.counts;
  const cost = costLines(report);
  return [
    targetLine(report),
    ...sorted.flatMap(checkLines),
    ...report.inputErrors.map((error) => `input error  ${error}`),
    ...report.notes.map((note) => `note  ${note}`),
    ...cost.lines,
    ...(report.stopped === undefined ? [] : [`stopped  ${report.stopped}`]),
    '',
    ...renderCoverage(report.coverage),
    '',
    `${c.pass} passed, ${c.fail} failed, ${c.warn} warned, ${c.skip} skipped ` +
      `· ${cost.count}${retriesText(report)} · ${report.requests} requests · ` +
      `${(report.durationMs / 1000).toFixed(1)} s`,
    report.coverage.line,
    resultLine(report),
  ].join('\n');
}
