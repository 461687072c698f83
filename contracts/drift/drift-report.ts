import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { markdownText } from '../../src/text/markdown-text.ts';
import { writeTextAtomically } from '../../src/node/atomic-file.ts';
import { Redactor } from '../../src/redaction/redactor.ts';
import {
  ASPECT_LABEL,
  describeVerdict,
  driftCauses,
  driftSummaryLine,
  placeOf,
  type DriftCause,
} from './drift-causes.ts';
import type { DriftReport, DriftSide } from './run-drift.ts';

/**
 * A drift report a person reads in a minute (issue 35): the one-line summary, the contract verdicts
 * that differ (which documented rule one side breaks), then one line per cause with the places it
 * touches and one example, the notes folded; every difference in full in the Markdown's folded table
 * and the JSON.
 */

/** Notes the terminal shows before folding the rest into a count. */
const NOTES_SHOWN = 3;
/** A note's length in the terminal; the reports keep it whole. */
const NOTE_CHARS = 140;

const oneLine = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
};

const verdictsOf = (report: DriftReport) =>
  report.differences.filter((d) => d.aspect === 'verdict');

const complete = (report: DriftReport) =>
  report.a.stopped === undefined && report.b.stopped === undefined;

/** `http://127.0.0.1:4010 (key sk-…ce)`. */
const sideName = (side: DriftSide) => `${side.baseUrl} (key ${side.key})`;

/** The cause in the terminal: what differs, then where (with an example). */
function causeLines(cause: DriftCause, n: number): string[] {
  const where =
    cause.places.length === 1
      ? cause.example
      : `${cause.places.length} places (${cause.routes.join(', ')}), e.g. ${cause.example}`;
  return [`  ${n}. ${cause.what.join('; ')}`, `     ${where}`];
}

/** The summary a person reads in a terminal or a CI log; its last line is the whole verdict. */
export function renderDriftSummary(report: DriftReport): string {
  const { a, b } = report;
  const lines = [
    `drift: A ${sideName(a)}  vs  B ${sideName(b)}  (--tier ${report.tier})`,
    `  A: ${a.requests} requests, ${a.tasksCreated} tasks created · ${a.coverage}`,
    `  B: ${b.requests} requests, ${b.tasksCreated} tasks created · ${b.coverage}`,
  ];
  for (const [side, s] of [['A', a] as const, ['B', b] as const])
    if (s.stopped !== undefined) lines.push(`  ${side} stopped early: ${s.stopped}`);
  const verdicts = verdictsOf(report);
  if (verdicts.length > 0)
    lines.push(
      '',
      `Contract verdicts that differ (${verdicts.length}):`,
      ...verdicts.map((d) => `  ${describeVerdict(d)}`),
    );
  const causes = driftCauses(report.differences);
  if (causes.length > 0)
    lines.push(
      '',
      `Other differences, by cause (${causes.length} causes, ` +
        `${report.differences.length - verdicts.length} differences):`,
      ...causes.flatMap((cause, i) => causeLines(cause, i + 1)),
    );
  if (report.notes.length > 0) {
    const more = report.notes.length - NOTES_SHOWN;
    lines.push(
      '',
      `Notes (${report.notes.length}: what was not compared, and why):`,
      ...report.notes.slice(0, NOTES_SHOWN).map((n) => `  ${oneLine(n, NOTE_CHARS)}`),
      ...(more > 0 ? [`  … ${more} more in drift-report.md and .json (--report-dir)`] : []),
    );
  }
  lines.push('', driftSummaryLine(report.differences, complete(report)));
  return lines.join('\n');
}

/** Deployment-supplied text as one inert Markdown table cell or inline span. */
const md = markdownText;

const sideRow = (name: string, s: DriftSide) =>
  `| ${name} | ${md(s.baseUrl)} | \`${s.key}\` | ${s.requests} | ${s.tasksCreated} | ${md(s.coverage)} |`;

function folded(summary: string, body: readonly string[]): string[] {
  return ['', '<details>', `<summary>${summary}</summary>`, '', ...body, '', '</details>'];
}

const placesCell = (c: DriftCause) =>
  c.places.length === 1 ? '1' : `${c.places.length} (${md(c.routes.join(', '))})`;

function causeRows(causes: readonly DriftCause[]): string[] {
  if (causes.length === 0) return [];
  return [
    '',
    '## Other differences, by cause',
    '',
    '| # | what differs | places | example |',
    '|---|---|---|---|',
    ...causes.map(
      (c, i) =>
        `| ${i + 1} | ${c.what.map(md).join('<br>')} | ${placesCell(c)} | ` + `${md(c.example)} |`,
    ),
    ...causes.flatMap((c, i) =>
      c.places.length === 1
        ? []
        : folded(
            `cause ${i + 1}: its ${c.places.length} places`,
            c.places.map((p) => `- ${md(p)}`),
          ),
    ),
  ];
}

/** The same as Markdown (a CI job summary, a pull request comment); the deployments' text escaped. */
export function renderDriftMarkdown(report: DriftReport): string {
  const { a, b } = report;
  const verdicts = verdictsOf(report);
  const lines = [
    `# Drift: ${md(driftSummaryLine(report.differences, complete(report)).replace(/^DRIFT: /, ''))}`,
    '',
    '| side | base URL | key | requests | tasks | coverage |',
    '|---|---|---|---|---|---|',
    sideRow('A', a),
    sideRow('B', b),
    '',
    `Tier \`${report.tier}\`, started ${report.startedAt}, ${Math.round(report.durationMs / 1000)} s.`,
  ];
  for (const [side, s] of [['A', a] as const, ['B', b] as const])
    if (s.stopped !== undefined) lines.push('', `${side} stopped early: ${md(s.stopped)}`);
  if (verdicts.length > 0)
    lines.push(
      '',
      '## Contract verdicts that differ',
      '',
      ...verdicts.map((d) => `- ${md(describeVerdict(d))}`),
    );
  lines.push(...causeRows(driftCauses(report.differences)));
  if (report.differences.length > 0)
    lines.push(
      ...folded(`Every difference (${report.differences.length})`, [
        '| where | what | field | A | B | steps |',
        '|---|---|---|---|---|---|',
        ...report.differences.map(
          (d) =>
            `| ${md(placeOf(d))} | ${ASPECT_LABEL[d.aspect]} | ${md(d.where)} | ` +
            `${md(d.a)} | ${md(d.b)} | ${md(d.steps.join(', '))} |`,
        ),
      ]),
    );
  if (report.notes.length > 0)
    lines.push(
      ...folded(
        `Notes (${report.notes.length}): what was not compared, and why`,
        report.notes.map((n) => `- ${md(n)}`),
      ),
    );
  return `${lines.join('\n')}\n`;
}

/** The JSON report: the run's report, with its one-line summary and its differences by cause. */
export function driftReportJson(report: DriftReport): string {
  const summary = driftSummaryLine(report.differences, complete(report));
  const causes = driftCauses(report.differences);
  return `${JSON.stringify({ summary, ...report, causes }, null, 2)}\n`;
}

/**
 * Writes `drift-report.json` and `drift-report.md` into `dir` atomically, each through `redactor` and
 * readable by their owner only (0600, as the contract reports: they name the deployments); returns
 * their paths.
 */
export async function writeDriftReports(
  report: DriftReport,
  dir: string,
  redactor: Redactor = new Redactor([]),
): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const files: [string, string][] = [
    ['drift-report.json', driftReportJson(report)],
    ['drift-report.md', renderDriftMarkdown(report)],
  ];
  const written: string[] = [];
  for (const [name, text] of files) {
    const path = join(dir, name);
    await writeTextAtomically(path, redactor.redact(text), { mode: 0o600 });
    written.push(path);
  }
  return written;
}
