import type { ModelVerification } from './model-verification.ts';
import { OTHER_RATIOS_HEADER } from './submit-step.ts';
import type { VerificationRun } from './verification-record.ts';

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
  return (
    `${failed.length} of ${total} model(s) failed (${where}): do not update the verification date; ` +
    'keep the record and investigate by the error message (§9 step 5).'
  );
}
