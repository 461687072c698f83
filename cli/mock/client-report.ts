import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeTextAtomically } from '../../src/node/atomic-file.ts';
import type { ClientReport } from '../../mocks/core/client-verdicts/client-report.ts';
import {
  renderClientJUnit,
  renderClientSummary,
} from '../../mocks/core/client-verdicts/report-text.ts';

/** The files `videotask mock --client-report DIR` writes on exit. */
const CLIENT_REPORT_FILES = {
  json: 'client-report.json',
  summary: 'client-report.txt',
  junit: 'client-report.junit.xml',
} as const;

/** Makes the report directory now, so that a bad `--client-report` fails at start, not on exit. */
export function prepareClientReportDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
}

/**
 * Writes the report as JSON, a readable summary and JUnit XML, each atomically (with `mode`, less the
 * umask, when given: `videotask proxy` writes 0600). Returns the paths.
 */
export async function writeClientReport(
  dir: string,
  report: ClientReport,
  options: { readonly mode?: number } = {},
): Promise<string[]> {
  const texts: [string, string][] = [
    [CLIENT_REPORT_FILES.json, `${JSON.stringify(report, null, 2)}\n`],
    [CLIENT_REPORT_FILES.summary, renderClientSummary(report)],
    [CLIENT_REPORT_FILES.junit, renderClientJUnit(report)],
  ];
  const paths: string[] = [];
  for (const [name, text] of texts) {
    const path = join(dir, name);
    await writeTextAtomically(path, text, options);
    paths.push(path);
  }
  return paths;
}
