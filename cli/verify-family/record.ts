/**
 * The record of a whole `videotask verify-family` run (§9 step 5): what it holds, where its two files go
 * and how they are written, the `.md` half for people, and the console's account of the run.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownCode, markdownText } from '../../src/text/markdown-text.ts';
import { writeAtomically } from '../../src/node/atomic-file.ts';
import type { Redactor } from '../../src/redaction/redactor.ts';
import { exitStatusOf, type RunFindings } from '../../contracts/exit-status.ts';
import { OTHER_RATIOS_HEADER, type ModelVerification } from './model-record.ts';
import { DEFAULT_SECONDS, type VerifyFamilyOptions } from './settings.ts';

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

/**
 * `verification-2026-11-22T101530Z`: sortable, one per run (the time of day keeps two runs of one day
 * apart).
 */
function recordStem(date: Date): string {
  return `verification-${date
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '')}`;
}

/**
 * The two paths of a run's record in `dir`, not taken by an earlier run (`-2`, `-3`, … appended if
 * needed).
 */
export function recordPaths(dir: string, date: Date): { json: string; md: string } {
  const stem = recordStem(date);
  for (let n = 1; ; n++) {
    const base = join(dir, n === 1 ? stem : `${stem}-${n}`);
    if (!existsSync(`${base}.json`) && !existsSync(`${base}.md`))
      return { json: `${base}.json`, md: `${base}.md` };
  }
}

/**
 * Writes both files atomically, readable by their owner only (0600: a record names the deployment and
 * what it answered), every text through `redactor` (the record is redacted again as a whole, whatever
 * a step let through).
 */
export async function writeRecord(
  run: VerificationRun,
  paths: { json: string; md: string },
  redactor: Redactor,
): Promise<void> {
  const safe = redactor.redactDeep(run);
  const text = (content: string) => [new TextEncoder().encode(redactor.redact(content))];
  const ownerOnly = { mode: 0o600 };
  await writeAtomically(
    paths.json,
    text(`${JSON.stringify(safe, null, 2)}\n`),
    () => {},
    ownerOnly,
  );
  await writeAtomically(paths.md, text(renderMarkdown(safe)), () => {}, ownerOnly);
}

/** Makes sure records can be written before any task is created. Throws the file system's error. */
export function prepareReportDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const probe = join(dir, `.videotask-write-check.${randomBytes(4).toString('hex')}`);
  writeFileSync(probe, '');
  unlinkSync(probe);
}

const ASSUMED_SECONDS =
  `assumed: ${DEFAULT_SECONDS} s is the default, the smallest the mock and the gateway plugin ` +
  "accept; the document does not show the family's durations (§8), pass --seconds N to state it";

/** The whole run as recorded (§9 step 5): settings, outcome and every model's record. */
export function verificationRun(input: {
  readonly started: Date;
  readonly baseUrl: string;
  readonly maskedKey: string;
  readonly options: VerifyFamilyOptions;
  readonly results: readonly ModelVerification[];
  readonly interrupted: boolean;
}): VerificationRun {
  const { options, results } = input;
  const { poll } = options;
  const ok = results.every((r) => r.ok);
  return {
    kind: 'videotask verify-family',
    formatVersion: 1,
    date: input.started.toISOString(),
    baseUrl: input.baseUrl,
    apiKey: input.maskedKey,
    dryRun: options.dryRun,
    settings: {
      endpoint: 'POST /v1/videos',
      seconds: options.seconds,
      secondsSource: options.secondsGiven ? 'given with --seconds' : ASSUMED_SECONDS,
      prompt: options.prompt,
      poll: {
        initialMs: poll.initialIntervalMs,
        factor: poll.factor,
        maxMs: poll.maxIntervalMs,
        maxAttempts: poll.maxAttempts,
        timeoutMs: poll.timeoutMs,
      },
      pluginName: options.pluginName ?? null,
    },
    ok,
    exitCode: input.interrupted ? 130 : exitStatusOf(findingsOf(results)).code,
    models: results,
  };
}

/**
 * What the models' verifications found, for the one exit status rule (contracts/exit-status.ts): a
 * model failing a step is a failure, unless its input was wrong (`inputError`), which is exit 2 alone.
 */
export function findingsOf(results: readonly ModelVerification[]): RunFindings {
  return {
    failures: results.filter((r) => !r.ok && r.inputError === null).length,
    inputErrors: results.flatMap((r) =>
      r.inputError === null ? [] : [`${r.model}: ${r.inputError}`],
    ),
    unjudged: [],
  };
}

/** Step 5 of each model, once the record's place is known: passed, or kept for investigation. */
export function markRecorded(
  results: readonly ModelVerification[],
  paths: { readonly json: string },
  started: Date,
): void {
  const day = started.toISOString().slice(0, 10);
  for (const r of results) {
    const s = r.steps.find((x) => x.step === 5)!;
    if (r.ok)
      Object.assign(s, {
        outcome: 'passed',
        detail:
          `recorded in ${paths.json} and .md: update the verification date of the catalog and of ` +
          `the document to ${day} (§9 step 5)`,
      });
    else
      s.detail =
        `not verified: this record (${paths.json} and .md) is kept for investigation by the error ` +
        'message (§9 step 5); do not update the verification date';
  }
}

/**
 * The `.md` half of a verification record (§9 step 5): for people, one section per model. Whatever a
 * deployment or the command line supplied (model names, task IDs, statuses, headers, error codes and
 * messages, step details that quote them) goes through `markdownText` or `markdownCode`: it shows as
 * written and never renders as a link, an image, HTML or a new cell (issue 33 item 11).
 */
function renderMarkdown(run: VerificationRun): string {
  const lines: string[] = [...header(run), ...overview(run)];
  for (const m of run.models) lines.push(...modelSection(m));
  lines.push('## Next (§9 step 5)', '', nextStep(run), '');
  return lines.join('\n');
}

function header(run: VerificationRun): string[] {
  const failed = run.models.filter((m) => !m.ok).length;
  const total = run.models.length;
  const passedFor = total === 1 ? 'the model' : `all ${total} models`;
  const result =
    failed === 0 ? `**passed** for ${passedFor}` : `**failed** for ${failed} of ${total} model(s)`;
  const dry = run.dryRun ? ' (dry run: catalog check only)' : '';
  const { endpoint, seconds, secondsSource, poll } = run.settings;
  const polling =
    `first ${poll.initialMs / 1000} s, ×${poll.factor}, up to ${poll.maxMs / 1000} s, ` +
    `at most ${poll.maxAttempts} queries, total timeout ${poll.timeoutMs / 1000} s`;
  return [
    `# Second-family verification, ${run.date}`,
    '',
    `- Service: ${markdownText(run.baseUrl)}`,
    `- Test token: ${markdownCode(run.apiKey)}`,
    `- Result: ${result}${dry}`,
    `- Task: ${endpoint} with \`metadata.duration\` ${seconds} s (${secondsSource})`,
    `- Polling (§8): ${polling}`,
    '',
  ];
}

const OVERVIEW_COLUMNS = [
  'model',
  'result',
  'task ID',
  'final status',
  'bytes',
  'sha256',
  'container',
  'submit',
  'to final state',
  'download',
];

function overview(run: VerificationRun): string[] {
  const divider = `|${'---|'.repeat(OVERVIEW_COLUMNS.length)}`;
  return [`| ${OVERVIEW_COLUMNS.join(' | ')} |`, divider, ...run.models.map(overviewRow), ''];
}

function overviewRow(m: ModelVerification): string {
  return row([
    markdownText(m.model),
    m.ok ? 'passed' : `failed at step ${m.failedStep?.step ?? '?'}`,
    markdownText(m.taskId ?? '—'),
    markdownText(m.finalStatus ?? '—'),
    m.bytes?.toString() ?? '—',
    m.sha256 === null ? '—' : `\`${m.sha256}\``, // computed here: hex
    markdownText(m.containerSignature ?? '—'),
    ms(m.timings.submitMs),
    ms(m.timings.toFinalStateMs),
    ms(m.timings.downloadMs),
  ]);
}

function modelSection(m: ModelVerification): string[] {
  const clientRequestId =
    m.clientRequestId === null ? '' : `; client request ID ${markdownCode(m.clientRequestId)}`;
  const task = m.taskId === null ? '' : `; task ${markdownCode(m.taskId)}`;
  const lines = [`## ${markdownText(m.model)}: ${m.ok ? 'passed' : 'failed'}`, ''];
  lines.push(`Started ${m.date}${clientRequestId}${task}.`, '');
  if (m.otherRatios !== null)
    lines.push(
      `Billing header of the submission answer (${OTHER_RATIOS_HEADER}, raw): ` +
        `${markdownText(m.otherRatios)}`,
      '',
    );
  lines.push('| step | check | outcome | detail |', '|---|---|---|---|');
  for (const s of m.steps)
    lines.push(row([String(s.step), s.name, s.outcome, markdownText(s.detail)]));
  lines.push('');
  if (m.failedStep !== null) {
    const failedAt = `**Failed at step ${m.failedStep.step} (${m.failedStep.name}).**`;
    lines.push(`${failedAt}${errorSummary(m)}`, '');
    lines.push(`**Next:** ${markdownText(m.advice ?? '')}`, '');
  }
  lines.push(`Usage and charge: ${markdownText(m.usage.detail)}`, '');
  return lines;
}

/** ` Error HTTP 400 \`code\`: message`, or nothing when no error was recorded. */
function errorSummary(m: ModelVerification): string {
  if (m.errorCode === null && m.errorMessage === null) return '';
  const status = m.httpStatus === null ? '' : ` HTTP ${m.httpStatus}`;
  const code = m.errorCode === null ? '' : ` ${markdownCode(m.errorCode)}`;
  const message = m.errorMessage === null ? '' : `: ${markdownText(m.errorMessage)}`;
  return ` Error${status}${code}${message}`;
}

function nextStep(run: VerificationRun): string {
  const failed = run.models.filter((m) => !m.ok);
  if (run.dryRun) return 'A dry run checks the catalog only: run without --dry-run to verify.';
  if (failed.length === 0)
    return (
      'Every model passed: update the verification date of the catalog and of the service ' +
      `document to ${run.date.slice(0, 10)}.`
    );
  const again = failed.map((m) => markdownText(m.model)).join(', ');
  return (
    'Do not update the verification date. Keep this record (task ID, error code, redacted message) ' +
    'and investigate by the error message; fix what the "Next" lines name and run ' +
    `\`videotask verify-family\` again (${again}).`
  );
}

/** A table row of cells already made Markdown (through `markdownText` where a deployment supplied them). */
function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

function ms(value: number | null): string {
  return value === null ? '—' : `${value} ms`;
}

/**
 * The console's account of a run: one line per model (passed, or where it failed, the task and what
 * to check next), then the closing line saying what to do with the verification date (§9 step 5).
 */
export function runSummary(run: VerificationRun): string {
  const width = Math.max(...run.models.map((m) => m.model.length));
  return run.models.flatMap((m) => modelLines(m, width, run.dryRun)).join('\n');
}

function modelLines(m: ModelVerification, width: number, dryRun: boolean): string[] {
  const name = m.model.padEnd(width);
  const indent = `${' '.repeat(width)}          `;
  if (m.ok) return [`${name}  passed  ${dryRun ? DRY_PASS : passedDetail(m)}`];
  const failed = m.steps.find((s) => s.outcome === 'failed')!;
  const lines = [`${name}  FAILED  at step ${failed.step} (${failed.name}): ${failed.detail}`];
  if (m.taskId !== null) lines.push(`${indent}${taskFacts(m)}`);
  lines.push(`${indent}next: ${m.advice}`);
  return lines;
}

const DRY_PASS = 'listed by /v1/models (dry run: nothing submitted)';

function passedDetail(m: ModelVerification): string {
  const video = `${m.bytes} bytes, ${m.containerSignature}, sha256 ${m.sha256}`;
  const usage = m.usage.exposed ? JSON.stringify(m.usage.fields) : 'not exposed by the service';
  return `${m.taskId} ${m.finalStatus}; ${video}; usage: ${usage}${otherRatios(m, '; ')}`;
}

/** `task task_…, last status failed, error code X`: what an administrator looks up. */
function taskFacts(m: ModelVerification): string {
  const status = m.finalStatus === null ? '' : `, last status ${m.finalStatus}`;
  const code = m.errorCode === null ? '' : `, error code ${m.errorCode}`;
  return `task ${m.taskId}${status}${code}${otherRatios(m, ', ')}`;
}

function otherRatios(m: ModelVerification, separator: string): string {
  return m.otherRatios === null ? '' : `${separator}${OTHER_RATIOS_HEADER} ${m.otherRatios}`;
}

/** What to do next, for the whole run. */
export function closingLine(run: VerificationRun): string {
  const failed = run.models.filter((m) => !m.ok);
  const total = run.models.length;
  if (run.exitCode === 130)
    return (
      'Interrupted: tasks in progress go on (follow them with `videotask wait TASK_ID`); the record ' +
      'shows where each model stopped.'
    );
  if (run.dryRun)
    return failed.length === 0
      ? 'Dry run: every model is listed; run without --dry-run to verify (one task per model).'
      : `Dry run: ${failed.length} of ${total} model(s) not listed; nothing was submitted or written.`;
  if (failed.length === 0)
    return (
      `All ${total} model(s) passed: update the verification date of the catalog and of the ` +
      `service document to ${run.date.slice(0, 10)} (§9 step 5).`
    );
  const where = failed.map((m) => `${m.model} at step ${m.failedStep?.step}`).join(', ');
  const inputs = failed.filter((m) => m.inputError !== null).map((m) => m.model);
  const input =
    inputs.length === 0
      ? ''
      : ` ${inputs.join(', ')}: the run's input is wrong (the test token's permission or quota, §5): ` +
        'fix the token and run again.';
  return (
    `${failed.length} of ${total} model(s) failed (${where}): do not update the verification date; ` +
    `keep the record and investigate by the error message (§9 step 5).${input}`
  );
}
