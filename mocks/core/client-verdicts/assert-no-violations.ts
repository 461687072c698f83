import type { ClientOutcome } from '../../../src/spec/client-rules.ts';
import type { ClientReport, ClientVerdict } from './client-report.ts';
import { formatVerdict } from './report-text.ts';

export interface ClientAssertionOptions {
  /** The outcomes that fail. Default: `['violation']` (advice and notes only inform). */
  readonly fail?: readonly ClientOutcome[] | undefined;
  /** Rules a test breaks on purpose (their IDs), left out. */
  readonly ignore?: readonly string[] | undefined;
  /** Forget the verdicts once read, so that the next test is judged on its own traffic. */
  readonly clear?: boolean | undefined;
}

/** Thrown by `assertNoClientViolations`: the verdicts, each as `formatVerdict` prints it. */
export class ClientVerdictError extends Error {
  override readonly name = 'ClientVerdictError';
  constructor(readonly verdicts: readonly ClientVerdict[]) {
    const rules = [...new Set(verdicts.map((v) => `${v.rule} (${v.section})`))].join(', ');
    super(
      `The client broke ${verdicts.length === 1 ? 'a rule' : `${verdicts.length} rules`} of the ` +
        `service document: ${rules}\n\n${verdicts.map(formatVerdict).join('\n\n')}\n`,
    );
  }
}

interface ReportSource {
  clientReport(): ClientReport;
  readonly clientVerdicts?: { clear(): void } | undefined;
}

/**
 * Fails a test whose client broke a client rule (docs/client-verdicts.md): throws a
 * `ClientVerdictError` listing each verdict with its section, requests and advice. A thrown error
 * fails a test in vitest, Jest and node:test alike.
 *
 * @example
 * afterEach(() => assertNoClientViolations(service, { clear: true }));
 */
export function assertNoClientViolations(
  source: ReportSource | ClientReport,
  options: ClientAssertionOptions = {},
): void {
  const report = 'clientReport' in source ? source.clientReport() : source;
  if (options.clear === true && 'clientReport' in source) source.clientVerdicts?.clear();
  const fail = new Set<ClientOutcome>(options.fail ?? ['violation']);
  const ignore = new Set(options.ignore ?? []);
  const failing = report.verdicts.filter((v) => fail.has(v.outcome) && !ignore.has(v.rule));
  if (failing.length > 0) throw new ClientVerdictError(failing);
}
