import type { CellCoverage } from './coverage.ts';
import { CALLER_LABEL } from './matrix/index.ts';
import type { ContractReport } from './report.ts';
import type { CheckResult } from './verdicts.ts';
import { xmlText } from '../src/xml-text.ts';

const esc = xmlText;

function checkCase(r: CheckResult): string {
  const detail = r.violations
    .map(
      (v) => `${v.message}${v.evidence?.excerpt === undefined ? '' : `\n  ${v.evidence.excerpt}`}`,
    )
    .join('\n');
  let inner = '';
  if (r.outcome === 'fail')
    inner = `<failure message="${esc(r.violations[0]?.message ?? r.title)}">${esc(detail)}</failure>`;
  else if (r.outcome === 'warn')
    inner = `<system-out>${esc(`WARNING (assumption): ${detail}`)}</system-out>`;
  else if (r.outcome === 'skip') inner = `<skipped message="${esc(r.skipped ?? '')}"/>`;
  return `    <testcase classname="videotask.contract" name="${esc(`${r.id} (${r.basisText})`)}">${inner}</testcase>`;
}

/** A cell: observed with its rules (failing ones as a failure), or skipped with why it was not observed. */
function cellCase(c: CellCoverage): string {
  const name = `${c.request} · ${c.state} · ${CALLER_LABEL[c.caller]}`;
  const rules = Object.entries(c.rules);
  let inner: string;
  if (!c.observed) inner = `<skipped message="${esc(`not observed: ${c.reason ?? ''}`)}"/>`;
  else {
    const failed = rules.filter(([, o]) => o === 'fail').map(([r]) => r);
    const judged = `rules judged: ${rules.map(([r, o]) => `${r} ${o}`).join(', ')}`;
    const unjudged = c.unjudged.length === 0 ? '' : `\nrules not judged: ${c.unjudged.join(', ')}`;
    inner =
      failed.length > 0
        ? `<failure message="${esc(`broken here: ${failed.join(', ')}`)}">${esc(judged)}</failure>`
        : `<system-out>${esc(judged + unjudged)}</system-out>`;
  }
  return `    <testcase classname="videotask.contract.coverage" name="${esc(name)}">${inner}</testcase>`;
}

function suite(
  name: string,
  cases: string[],
  failures: number,
  skipped: number,
  report: ContractReport,
): string[] {
  const time = (report.durationMs / 1000).toFixed(3);
  return [
    `  <testsuite name="${esc(name)}" tests="${cases.length}" ` +
      `failures="${failures}" skipped="${skipped}" ` +
      `timestamp="${report.startedAt}" time="${time}">`,
    ...cases,
    '  </testsuite>',
  ];
}

/**
 * JUnit XML: one testsuite of checks (fail → <failure>, warn → <system-out>, skip → <skipped>) and one
 * of coverage, a testcase per cell of the observation space: a cell the run did not observe is
 * <skipped> with the reason, so CI never shows it as passed.
 */
export function renderJUnit(report: ContractReport): string {
  const cells = report.coverage.cells;
  const cellFailures = cells.filter((c) => Object.values(c.rules).includes('fail')).length;
  const cellSkips = cells.filter((c) => !c.observed).length;
  const c = report.counts;
  const tests = report.results.length + cells.length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="videotask contract" tests="${tests}" ` +
      `failures="${c.fail + cellFailures}" skipped="${c.skip + cellSkips}" ` +
      `time="${(report.durationMs / 1000).toFixed(3)}">`,
    ...suite(report.target.baseUrl, report.results.map(checkCase), c.fail, c.skip, report),
    ...suite(
      `${report.target.baseUrl} coverage (${report.coverage.line})`,
      cells.map(cellCase),
      cellFailures,
      cellSkips,
      report,
    ),
    '</testsuites>',
    '',
  ].join('\n');
}
