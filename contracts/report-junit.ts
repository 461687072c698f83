import { renderCoverage } from './coverage-grid.ts';
import type { CellCoverage } from './coverage.ts';
import { CALLER_LABEL } from './matrix/index.ts';
import type { ContractReport } from './report.ts';
import { violationLines } from './report-summary.ts';
import type { CheckResult } from './verdicts.ts';
import { xmlText } from '../src/text/xml-text.ts';

const esc = xmlText;
const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** The area a check belongs to, as CI dashboards group test cases: `videotask.contract.content`. */
const classname = (r: CheckResult) => `videotask.contract.${r.id.split('.')[0]!}`;

/** Every violation with its reproduction (expected, actual, request ID, excerpt, curl). */
function details(r: CheckResult): string {
  return [`expected: ${r.expected}`, ...r.violations.flatMap((v) => violationLines(v, ''))].join(
    '\n',
  );
}

/** One check, one test case: fail → <failure>, warn → passes with <system-out>, skip → <skipped>. */
function checkCase(r: CheckResult): string {
  let inner = '';
  if (r.outcome === 'fail')
    inner =
      `<failure message="${esc(r.violations[0]?.message ?? r.title)}" ` +
      `type="${esc(r.basisText)}">${esc(details(r))}</failure>`;
  else if (r.outcome === 'warn')
    inner = `<system-out>${esc(`WARNING (assumption): ${details(r)}`)}</system-out>`;
  else if (r.outcome === 'skip') inner = `<skipped message="${esc(r.skipped ?? '')}"/>`;
  const name = `${r.id}: ${r.title} (${r.basisText})`;
  return (
    `    <testcase classname="${classname(r)}" name="${esc(name)}" ` +
    `time="${seconds(r.durationMs)}">${inner}</testcase>`
  );
}

/**
 * An input error as a test case of its own with an `<error>` (JUnit's "could not run"), never a
 * `<failure>` of a check: a dashboard shows a key or model to fix, not a service violation.
 */
function inputCase(error: string, index: number): string {
  return (
    `    <testcase classname="videotask.contract.input-error" name="${esc(`input error ${index + 1}`)}" ` +
    `time="0"><error type="input error" message="${esc(error)}">${esc(error)}</error></testcase>`
  );
}

/** A cell of the coverage as a property: `ok`, the rules that broke there, or why it was not observed. */
function cellProperty(c: CellCoverage): string {
  const name = `coverage: ${c.request} · ${c.state} · ${CALLER_LABEL[c.caller]}`;
  const rules = Object.entries(c.rules);
  const broken = (outcome: string) => rules.filter(([, o]) => o === outcome).map(([r]) => r);
  let value: string;
  if (!c.observed) value = `not observed: ${c.reason ?? ''}`;
  else if (broken('fail').length > 0) value = `FAIL: ${broken('fail').join(', ')}`;
  else if (broken('warn').length > 0) value = `warn: ${broken('warn').join(', ')}`;
  else value = 'ok';
  return `      <property name="${esc(name)}" value="${esc(value)}"/>`;
}

/**
 * JUnit XML as CI dashboards read it (Jenkins, GitLab, GitHub test reporters): one test case per check,
 * classname per area (`videotask.contract.submission`, `.task`, `.content`, `.catalog`, …), its time,
 * failures counted once per check; an input error is a test case with an `<error>`, never a
 * `<failure>`. The coverage is no test: each cell is a property of the suite (ok,
 * the rules that broke there, or not observed and why) and the grid is its system-out, so a cell the
 * run did not observe never reads as passed.
 */
export function renderJUnit(report: ContractReport): string {
  const c = report.counts;
  const time = seconds(report.durationMs);
  const inputs = report.inputErrors.length;
  const counts =
    `tests="${report.results.length + inputs}" failures="${c.fail}" errors="${inputs}" ` +
    `skipped="${c.skip}" time="${time}"`;
  const t = report.target;
  const properties = [
    ['tool', `${report.tool.name} ${report.tool.version}`],
    ['target.baseUrl', t.baseUrl],
    ['target.model', t.model],
    ['target.tier', t.tier],
    ['target.strict', String(t.strict)],
    ['tasks.created', String(report.tasksCreated)],
    ['coverage', report.coverage.line],
    ['exit', `${report.exit.code}${report.exit.why === undefined ? '' : `: ${report.exit.why}`}`],
    [
      'retries.429',
      `${report.retries.submissions} submission(s), ${report.retries.queries} query(ies)`,
    ],
    ...report.inputErrors.map((e) => ['input error', e]),
  ].map(([name, value]) => `      <property name="${esc(name!)}" value="${esc(value!)}"/>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="videotask contract" ${counts}>`,
    `  <testsuite name="${esc(`videotask contract: ${t.baseUrl}`)}" ${counts} ` +
      `timestamp="${report.startedAt}">`,
    '    <properties>',
    ...properties,
    ...report.coverage.cells.map(cellProperty),
    '    </properties>',
    ...report.inputErrors.map(inputCase),
    ...report.results.map(checkCase),
    `    <system-out>${esc(renderCoverage(report.coverage).join('\n'))}</system-out>`,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
