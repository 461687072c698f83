import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckResult, Outcome } from './verdicts.ts';

export interface ContractReport {
  readonly target: {
    readonly baseUrl: string;
    readonly key: string;
    readonly model: string;
    readonly tier: string;
    readonly budget: number;
    readonly strict: boolean;
  };
  readonly startedAt: string;
  readonly durationMs: number;
  /** Tasks the run created (never more than the budget). */
  readonly tasksCreated: number;
  readonly requests: number;
  readonly counts: Readonly<Record<Outcome, number>>;
  /** No documented check failed (and, with --strict, no assumed one either). */
  readonly ok: boolean;
  readonly results: readonly CheckResult[];
  /** Things worth knowing that are not checks (e.g. the second family's visibility). */
  readonly notes: readonly string[];
}

const MARK: Record<Outcome, string> = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', skip: 'SKIP' };

/** The readable summary: one line per check with its basis; details under failures and warnings. */
export function renderSummary(report: ContractReport): string {
  const lines: string[] = [];
  const t = report.target;
  lines.push(
    `videotask contract — ${t.baseUrl} (key ${t.key}, model ${t.model}, tier ${t.tier}, budget ${t.budget}${t.strict ? ', strict' : ''})`,
  );
  const order: Outcome[] = ['fail', 'warn', 'pass', 'skip'];
  const sorted = [...report.results].sort(
    (a, b) => order.indexOf(a.outcome) - order.indexOf(b.outcome) || a.id.localeCompare(b.id),
  );
  for (const r of sorted) {
    lines.push(
      `${MARK[r.outcome]}  ${r.id.padEnd(44)} ${r.basisText}${r.outcome === 'skip' ? ` — ${r.skipped}` : ''}`,
    );
    if (r.outcome === 'fail' || r.outcome === 'warn') {
      for (const v of r.violations.slice(0, 3)) {
        const e = v.evidence;
        const where = [
          e?.taskId,
          e?.request,
          e?.status === undefined ? undefined : `HTTP ${e.status}`,
        ]
          .filter(Boolean)
          .join(' · ');
        lines.push(`      ${v.message}${where === '' ? '' : ` [${where}]`}`);
        if (e?.excerpt !== undefined) lines.push(`        ${e.excerpt}`);
      }
      if (r.violations.length > 3) lines.push(`      … ${r.violations.length - 3} more`);
    }
  }
  for (const note of report.notes) lines.push(`note  ${note}`);
  const c = report.counts;
  lines.push('');
  lines.push(
    `${c.pass} passed, ${c.fail} failed, ${c.warn} warned, ${c.skip} skipped · ${report.tasksCreated} task(s) created · ${report.requests} requests · ${(report.durationMs / 1000).toFixed(1)} s`,
  );
  lines.push(
    report.ok
      ? 'Result: the deployment follows the documented behaviour.'
      : 'Result: the deployment breaks documented behaviour (see FAIL above).',
  );
  return lines.join('\n');
}

/** JUnit XML: one testcase per check; fail → <failure>, warn → <system-out> note, skip → <skipped>. */
export function renderJUnit(report: ContractReport): string {
  const esc = (s: string) =>
    s.replace(
      /[<>&"']/g,
      (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[ch]!,
    );
  const cases = report.results.map((r) => {
    const name = `${r.id} (${r.basisText})`;
    const detail = r.violations
      .map(
        (v) =>
          `${v.message}${v.evidence?.excerpt === undefined ? '' : `\n  ${v.evidence.excerpt}`}`,
      )
      .join('\n');
    let inner = '';
    if (r.outcome === 'fail')
      inner = `<failure message="${esc(r.violations[0]?.message ?? r.title)}">${esc(detail)}</failure>`;
    else if (r.outcome === 'warn')
      inner = `<system-out>${esc(`WARNING (assumption): ${detail}`)}</system-out>`;
    else if (r.outcome === 'skip') inner = `<skipped message="${esc(r.skipped ?? '')}"/>`;
    return `    <testcase classname="videotask.contract" name="${esc(name)}">${inner}</testcase>`;
  });
  const c = report.counts;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="videotask contract" tests="${report.results.length}" failures="${c.fail}" skipped="${c.skip}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="${esc(report.target.baseUrl)}" tests="${report.results.length}" failures="${c.fail}" skipped="${c.skip}" timestamp="${report.startedAt}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** Writes `contract-report.json` and `contract-junit.xml` atomically into `dir`. */
export function writeReports(report: ContractReport, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const files: [string, string][] = [
    ['contract-report.json', `${JSON.stringify(report, null, 2)}\n`],
    ['contract-junit.xml', renderJUnit(report)],
  ];
  return files.map(([name, text]) => {
    const path = join(dir, name);
    writeFileSync(`${path}.tmp`, text);
    renameSync(`${path}.tmp`, path);
    return path;
  });
}
