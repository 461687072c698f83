import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CoverageReport } from './coverage.ts';
import { Redactor } from '../src/redaction/redactor.ts';
import type { UnconfirmedSubmission } from './run-context.ts';
import { renderJUnit } from './report-junit.ts';
import type { FailingTask, FamilyTarget } from './target.ts';
import type { CheckResult, Outcome } from './verdicts.ts';

export { renderJUnit } from './report-junit.ts';
export { renderSummary } from './report-summary.ts';

export interface ContractReport {
  /** What wrote the report: `{name: 'videotask', version}`. */
  readonly tool: { readonly name: string; readonly version: string };
  /** The version of this shape, described by spec/contract-report.schema.json. */
  readonly schemaVersion: string;
  readonly target: {
    readonly baseUrl: string;
    readonly key: string;
    readonly model: string;
    readonly tier: string;
    readonly budget: number;
    readonly strict: boolean;
    readonly failing?: FailingTask | undefined;
    readonly family?: FamilyTarget | undefined;
    readonly forbiddenModel?: string | undefined;
  };
  readonly startedAt: string;
  readonly durationMs: number;
  /** Tasks the run created, as their answers confirmed (with `unconfirmed`, never more than the budget). */
  readonly tasksCreated: number;
  /** Submissions not clearly refused that named no task: each may have created one (§7). */
  readonly unconfirmed: readonly UnconfirmedSubmission[];
  /** Why the run stopped before it was done (the target stopped answering, the deadline), if it did. */
  readonly stopped?: string | undefined;
  /**
   * Why no lifecycle task could be followed although the run submitted (every submission refused,
   * rate limited or unconfirmed, or every task it created left unfollowed because its queries stayed
   * rate limited past every wait or failing past the retries): the lifecycle went unchecked and the
   * CLI exits 2.
   */
  readonly noTaskFollowed?: string | undefined;
  readonly requests: number;
  readonly counts: Readonly<Record<Outcome, number>>;
  /** No documented check failed (and, with --strict, no assumed one either). */
  readonly ok: boolean;
  readonly results: readonly CheckResult[];
  /** Which cells of the observation space the run observed, which rules it judged there, and why not the others. */
  readonly coverage: CoverageReport;
  /**
   * Inputs the deployment showed to be wrong (a second key it refuses, a model its catalog does not
   * list): never a verdict on it; the CLI exits 2 and says what to fix.
   */
  readonly inputErrors: readonly string[];
  /** Things worth knowing that are not checks (e.g. the second family's visibility). */
  readonly notes: readonly string[];
}

/**
 * Writes `contract-report.json` and `contract-junit.xml` atomically into `dir`, readable by their owner
 * only (0600: a report names the deployment and what it answered), each through `redactor`.
 */
export function writeReports(
  report: ContractReport,
  dir: string,
  redactor: Redactor = new Redactor([]),
): string[] {
  const files: [string, string][] = [
    ['contract-report.json', `${JSON.stringify(report, null, 2)}\n`],
    ['contract-junit.xml', renderJUnit(report)],
  ];
  return files.map(([name, text]) => writePrivateFile(join(dir, name), redactor.redact(text)));
}

/**
 * Writes `text` to `path` atomically (a temporary file renamed over it: never half written), readable
 * by its owner only (0600, whatever the umask, even over a stale file), creating its folder.
 */
export function writePrivateFile(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
  return path;
}
