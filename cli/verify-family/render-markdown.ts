import type { ModelVerification } from './model-verification.ts';
import { OTHER_RATIOS_HEADER } from './submit-step.ts';
import type { VerificationRun } from './verification-record.ts';

/** The `.md` half of a verification record (§9 step 5): for people, one section per model. */
export function renderMarkdown(run: VerificationRun): string {
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
    `- Service: ${run.baseUrl}`,
    `- Test token: \`${run.apiKey}\``,
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
  ]);
}

function modelSection(m: ModelVerification): string[] {
  const requestId =
    m.clientRequestId === null ? '' : `; client request ID \`${m.clientRequestId}\``;
  const task = m.taskId === null ? '' : `; task \`${m.taskId}\``;
  const lines = [`## ${m.model}: ${m.ok ? 'passed' : 'failed'}`, ''];
  lines.push(`Started ${m.date}${requestId}${task}.`, '');
  if (m.otherRatios !== null)
    lines.push(
      `Billing header of the submission answer (${OTHER_RATIOS_HEADER}, raw): ` +
        `${inline(m.otherRatios)}`,
      '',
    );
  lines.push('| step | check | outcome | detail |', '|---|---|---|---|');
  for (const s of m.steps) lines.push(row([String(s.step), s.name, s.outcome, s.detail]));
  lines.push('');
  if (m.failedStep !== null) {
    const failedAt = `**Failed at step ${m.failedStep.step} (${m.failedStep.name}).**`;
    lines.push(`${failedAt}${errorSummary(m)}`, '');
    lines.push(`**Next:** ${inline(m.advice ?? '')}`, '');
  }
  lines.push(`Usage and charge: ${inline(m.usage.detail)}`, '');
  return lines;
}

/** ` Error HTTP 400 \`code\`: message`, or nothing when no error was recorded. */
function errorSummary(m: ModelVerification): string {
  if (m.errorCode === null && m.errorMessage === null) return '';
  const status = m.httpStatus === null ? '' : ` HTTP ${m.httpStatus}`;
  const code = m.errorCode === null ? '' : ` \`${m.errorCode}\``;
  const message = m.errorMessage === null ? '' : `: ${inline(m.errorMessage)}`;
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
  const again = failed.map((m) => m.model).join(', ');
  return (
    'Do not update the verification date. Keep this record (task ID, error code, redacted message) ' +
    'and investigate by the error message; fix what the "Next" lines name and run ' +
    `\`videotask verify-family\` again (${again}).`
  );
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
