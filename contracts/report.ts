import type { CoverageReport } from './coverage.ts';
import type { ExitStatus } from './exit-status.ts';
import type { Retries } from './run-context.ts';
import type { UnconfirmedSubmission } from './run-context.ts';
import type { FailingTask, FamilyTarget } from './target.ts';
import type { CheckResult, Outcome } from './verdicts.ts';

/**
 * What a contract run found: the shape of `contract-report.json` (spec/contract-report.schema.json).
 * Rendered by report-summary.ts (the terminal) and report-junit.ts (CI), written by report-files.ts.
 */
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
   * CLI exits 2, unless a documented check failed (then 1).
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
   * Inputs the deployment showed to be wrong (a key without quota or permission, a model the key may
   * not use, a second key it refuses, a model its catalog does not list): never a verdict on it; the
   * CLI exits 2 and says what to fix (1 when a documented check failed besides).
   */
  readonly inputErrors: readonly string[];
  /** The 429s the run waited out and asked again (§7), submissions and queries (schema 1.3). */
  readonly retries: Readonly<Retries>;
  /** The CLI's exit status for this run and why (contracts/exit-status.ts; schema 1.3). */
  readonly exit: ExitStatus;
  /** Things worth knowing that are not checks (e.g. the second family's visibility). */
  readonly notes: readonly string[];
}
