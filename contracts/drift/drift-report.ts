import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { writeTextAtomically } from '../../src/node/atomic-file.ts';
import { Redactor } from '../../src/redaction/redactor.ts';
import type { Difference } from './compare-profiles.ts';
import type { DriftReport } from './run-drift.ts';

const ASPECT_LABEL: Readonly<Record<Difference['aspect'], string>> = {
  status: 'status',
  'content-type': 'content type',
  body: 'body',
  headers: 'header',
  timing: 'timing',
  observed: 'observed',
  lifecycle: 'lifecycle',
  content: 'content',
  identifiers: 'identifiers',
  verdict: 'contract verdict',
};

/** `getVideo · queued · owner · ok`. */
const placeOf = (d: Difference) =>
  [d.cell.split(' ').join(' · '), d.situation].filter((p) => p !== '').join(' · ');

function grouped(differences: readonly Difference[]): Map<string, Difference[]> {
  const groups = new Map<string, Difference[]>();
  for (const d of differences) groups.set(placeOf(d), [...(groups.get(placeOf(d)) ?? []), d]);
  return groups;
}

const plural = (n: number) => `${n} difference${n === 1 ? '' : 's'}`;

const countsLine = (report: DriftReport) =>
  Object.entries(report.counts)
    .map(([aspect, n]) => `${ASPECT_LABEL[aspect as Difference['aspect']]} ${n}`)
    .join(', ');

/** The summary a person reads in a terminal or a CI log. */
export function renderDriftSummary(report: DriftReport): string {
  const { a, b } = report;
  const lines = [
    `drift: A ${a.baseUrl}  vs  B ${b.baseUrl}  (--tier ${report.tier})`,
    `  A: ${a.requests} requests, ${a.tasksCreated} tasks created · ${a.coverage}`,
    `  B: ${b.requests} requests, ${b.tasksCreated} tasks created · ${b.coverage}`,
  ];
  for (const [side, s] of [['A', a] as const, ['B', b] as const])
    if (s.stopped !== undefined) lines.push(`  ${side} stopped early: ${s.stopped}`);
  for (const [place, differences] of grouped(report.differences)) {
    const steps = [...new Set(differences.flatMap((d) => d.steps))];
    lines.push('', `  ${place}${steps.length > 0 ? `  [${steps.join(', ')}]` : ''}`);
    for (const d of differences) {
      const where = d.where === '' ? '' : ` ${d.where}`;
      lines.push(`    ${ASPECT_LABEL[d.aspect]}${where}: A ${d.a} · B ${d.b}`);
    }
  }
  for (const note of report.notes) lines.push(`  note: ${note}`);
  lines.push(
    '',
    report.differences.length === 0
      ? report.ok
        ? 'no difference: B answers every step as A does'
        : 'no difference seen, but a side stopped before the sequence was done'
      : `DRIFT: ${plural(report.differences.length)} (${countsLine(report)})`,
  );
  return lines.join('\n');
}

const cellText = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The same as Markdown (a CI job summary, a pull request comment). */
export function renderDriftMarkdown(report: DriftReport): string {
  const { a, b } = report;
  const lines = [
    `# Drift: ${report.differences.length === 0 ? 'no difference' : plural(report.differences.length)}`,
    '',
    '| side | base URL | key | requests | tasks | coverage |',
    '|---|---|---|---|---|---|',
    `| A | ${a.baseUrl} | \`${a.key}\` | ${a.requests} | ${a.tasksCreated} | ${cellText(a.coverage)} |`,
    `| B | ${b.baseUrl} | \`${b.key}\` | ${b.requests} | ${b.tasksCreated} | ${cellText(b.coverage)} |`,
    '',
    `Tier \`${report.tier}\`, started ${report.startedAt}, ${Math.round(report.durationMs / 1000)} s.`,
  ];
  if (report.differences.length > 0)
    lines.push(
      '',
      '| where | what | field | A | B | steps |',
      '|---|---|---|---|---|---|',
      ...report.differences.map(
        (d) =>
          `| ${cellText(placeOf(d))} | ${ASPECT_LABEL[d.aspect]} | ${cellText(d.where)} | ` +
          `${cellText(d.a)} | ${cellText(d.b)} | ${cellText(d.steps.join(', '))} |`,
      ),
    );
  if (report.notes.length > 0) lines.push('', ...report.notes.map((n) => `- ${n}`));
  return `${lines.join('\n')}\n`;
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
    ['drift-report.json', `${JSON.stringify(report, null, 2)}\n`],
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
