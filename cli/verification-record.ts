import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelVerification } from './family-verification.ts';

/**
 * The verification record of one `videotask verify-family` run (§9 step 5): `verification-<time>.json`
 * for machines and `.md` for people, written atomically (temporary file, then rename). Never holds a
 * key: the token appears masked (`sk-…abcd`).
 */
export interface VerificationRun {
  readonly kind: 'videotask verify-family';
  readonly formatVersion: 1;
  /** ISO time the run started. */
  readonly date: string;
  readonly baseUrl: string;
  /** Masked. */
  readonly apiKey: string;
  readonly dryRun: boolean;
  readonly settings: {
    readonly endpoint: 'POST /v1/videos';
    readonly seconds: number;
    /** `--seconds` or why the value is an assumption. */
    readonly secondsSource: string;
    readonly prompt: string;
    readonly poll: {
      readonly initialMs: number;
      readonly factor: number;
      readonly maxMs: number;
      readonly maxAttempts: number;
      readonly timeoutMs: number;
    };
    readonly pluginName: string | null;
  };
  readonly ok: boolean;
  readonly exitCode: number;
  readonly models: readonly ModelVerification[];
}

export const DEFAULT_REPORT_DIR = 'verification-records';

/** `verification-2026-11-22T101530Z`: sortable, one per run (the time of day keeps two runs of one day apart). */
export function recordStem(date: Date): string {
  return `verification-${date
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '')}`;
}

/** The two paths of a run's record in `dir`, not taken by an earlier run (`-2`, `-3`, … appended if needed). */
export function recordPaths(dir: string, date: Date): { json: string; md: string } {
  const stem = recordStem(date);
  for (let n = 1; ; n++) {
    const base = join(dir, n === 1 ? stem : `${stem}-${n}`);
    if (!existsSync(`${base}.json`) && !existsSync(`${base}.md`))
      return { json: `${base}.json`, md: `${base}.md` };
  }
}

/** Writes both files atomically. */
export function writeRecord(run: VerificationRun, paths: { json: string; md: string }): void {
  writeAtomically(paths.json, `${JSON.stringify(run, null, 2)}\n`);
  writeAtomically(paths.md, renderMarkdown(run));
}

function writeAtomically(path: string, text: string): void {
  const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, text, { flag: 'wx' });
    renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // nothing was left behind
    }
    throw error;
  }
}

/** Makes sure records can be written before any task is created. Throws the file system's error. */
export function prepareReportDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const probe = join(dir, `.videotask-write-check.${randomBytes(4).toString('hex')}`);
  writeFileSync(probe, '');
  unlinkSync(probe);
}

export function renderMarkdown(run: VerificationRun): string {
  const failed = run.models.filter((m) => !m.ok);
  const day = run.date.slice(0, 10);
  const poll = run.settings.poll;
  const lines: string[] = [
    `# Second-family verification, ${run.date}`,
    '',
    `- Service: ${run.baseUrl}`,
    `- Test token: \`${run.apiKey}\``,
    `- Result: ${failed.length === 0 ? `**passed** for ${run.models.length === 1 ? 'the model' : `all ${run.models.length} models`}` : `**failed** for ${failed.length} of ${run.models.length} model(s)`}${run.dryRun ? ' (dry run: catalog check only)' : ''}`,
    `- Task: ${run.settings.endpoint} with \`metadata.duration\` ${run.settings.seconds} s (${run.settings.secondsSource})`,
    `- Polling (§8): first ${poll.initialMs / 1000} s, ×${poll.factor}, up to ${poll.maxMs / 1000} s, at most ${poll.maxAttempts} queries, total timeout ${poll.timeoutMs / 1000} s`,
    '',
    '| model | result | task ID | final status | bytes | sha256 | container | submit | to final state | download |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...run.models.map((m) =>
      row([
        m.model,
        m.ok ? 'passed' : `failed at step ${m.failedStep?.step ?? '?'}`,
        m.taskId ?? '—',
        m.finalStatus ?? '—',
        m.bytes?.toString() ?? '—',
        m.sha256 === null ? '—' : `\`${m.sha256}\``,
        m.containerSignature ?? '—',
        ms(m.timings.submitMs),
        ms(m.timings.toFinalStateMs),
        ms(m.timings.downloadMs),
      ]),
    ),
    '',
  ];
  for (const m of run.models) {
    lines.push(`## ${m.model}: ${m.ok ? 'passed' : 'failed'}`, '');
    lines.push(
      `Started ${m.date}${m.requestId === null ? '' : `; request ID \`${m.requestId}\``}${m.taskId === null ? '' : `; task \`${m.taskId}\``}.`,
      '',
    );
    lines.push('| step | check | outcome | detail |', '|---|---|---|---|');
    for (const s of m.steps) lines.push(row([String(s.step), s.name, s.outcome, s.detail]));
    lines.push('');
    if (m.failedStep !== null) {
      lines.push(
        `**Failed at step ${m.failedStep.step} (${m.failedStep.name}).**${m.errorCode === null && m.errorMessage === null ? '' : ` Error${m.httpStatus === null ? '' : ` HTTP ${m.httpStatus}`}${m.errorCode === null ? '' : ` \`${m.errorCode}\``}${m.errorMessage === null ? '' : `: ${inline(m.errorMessage)}`}`}`,
        '',
      );
      lines.push(`**Next:** ${inline(m.advice ?? '')}`, '');
    }
    lines.push(`Usage and charge: ${inline(m.usage.detail)}`, '');
  }
  lines.push('## Next (§9 step 5)', '');
  if (run.dryRun) lines.push('A dry run checks the catalog only: run without --dry-run to verify.');
  else if (failed.length === 0)
    lines.push(
      `Every model passed: update the verification date of the catalog and of the service document to ${day}.`,
    );
  else
    lines.push(
      `Do not update the verification date. Keep this record (task ID, error code, redacted message) and investigate by the error message; fix what the "Next" lines name and run \`videotask verify-family\` again (${failed.map((m) => m.model).join(', ')}).`,
    );
  lines.push('');
  return lines.join('\n');
}

function row(cells: readonly string[]): string {
  return `| ${cells.map(inline).join(' | ')} |`;
}

function inline(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

function ms(value: number | null): string {
  return value === null ? '—' : `${value} ms`;
}
