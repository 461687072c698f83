/**
 * The exit status of every command that judges a deployment (contract, learn, drift, verify-family,
 * monitor), said once (issue 31 item 3, decisions/040):
 *
 * - **1** when a documented failure was found, whatever else happened in the run: CI must never read a
 *   break as a configuration problem. What could not be checked, and why, is said beside it.
 * - **2** when the run's input is wrong (a key without quota or permission, a model the key may not
 *   use, a refused second key, a base URL where nothing answers like the service) or nothing the run
 *   was asked to judge could be judged (the target stopped answering, no task could be followed).
 * - **0** otherwise.
 */

/** What a run found, as far as its exit status goes. */
export interface RunFindings {
  /** Documented failures found (for drift: the differences). */
  readonly failures: number;
  /** Inputs the deployment showed to be wrong, each saying what to fix. */
  readonly inputErrors: readonly string[];
  /** Why what the run was asked to judge could not be judged, each with what to do. */
  readonly unjudged: readonly string[];
}

export type ExitCode = 0 | 1 | 2;

export interface ExitStatus {
  readonly code: ExitCode;
  /** Why, when the status is not 0 or the run left something unchecked; for stderr and the report. */
  readonly why?: string | undefined;
}

/** The exit status of a run that found `findings` (the rule above). */
export function exitStatusOf(findings: RunFindings): ExitStatus {
  const { failures, inputErrors, unjudged } = findings;
  const input =
    inputErrors.length === 0 ? [] : [`the run's input is wrong: ${inputErrors.join(' ')}`];
  if (failures > 0) {
    const besides = [...input, ...unjudged];
    return besides.length === 0
      ? { code: 1 }
      : {
          code: 1,
          why:
            `${failures} documented failure(s) found (exit 1 whatever else happened); besides, ` +
            `what could not be checked: ${besides.join(' ')}`,
        };
  }
  if (input.length > 0) return { code: 2, why: [...input, ...unjudged].join(' ') };
  if (unjudged.length > 0) return { code: 2, why: unjudged.join(' ') };
  return { code: 0 };
}

/** What a contract report found (`report.ts`), for `exitStatusOf`. */
export function contractFindings(report: {
  readonly counts: { readonly fail: number };
  readonly inputErrors: readonly string[];
  readonly stopped?: string | undefined;
  readonly noTaskFollowed?: string | undefined;
  readonly tasksCreated: number;
  readonly unconfirmed: readonly unknown[];
  readonly coverage: { readonly line: string };
}): RunFindings {
  const { coverage } = report;
  const unjudged: string[] = [];
  if (report.noTaskFollowed !== undefined)
    unjudged.push(`${report.noTaskFollowed}. ${coverage.line}.`);
  else if (
    report.stopped === undefined &&
    report.tasksCreated === 0 &&
    report.unconfirmed.length > 0
  )
    unjudged.push(
      `no submission was confirmed: ${report.unconfirmed.length} answered neither a task nor a ` +
        'refusal (listed as unconfirmed, with their request IDs), so no task could be followed. ' +
        `${coverage.line}. Look those request IDs up in the service's logs; a longer ` +
        '--request-timeout may help a slow service.',
    );
  if (report.stopped !== undefined)
    unjudged.push(
      `the target could not be checked to the end: ${report.stopped}. ${coverage.line}. Check ` +
        'that the service is up (a longer --request-timeout may help a slow one).',
    );
  return { failures: report.counts.fail, inputErrors: report.inputErrors, unjudged };
}
