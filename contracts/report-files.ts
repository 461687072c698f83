import { join } from 'node:path';
import { writeTextAtomicallySync } from '../src/node/atomic-file.ts';
import { Redactor } from '../src/redaction/redactor.ts';
import type { ContractReport } from './report.ts';
import { renderJUnit } from './report-junit.ts';

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
 * Writes `text` to `path` atomically (never half written), readable by its owner only (0600, whatever
 * the umask, even over a stale file), creating its folder; returns `path`.
 */
export function writePrivateFile(path: string, text: string): string {
  writeTextAtomicallySync(path, text, { mode: 0o600, createFolder: true });
  return path;
}
