import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeAtomically } from '../../src/node/atomic-file.ts';
import type { Redactor } from '../../src/redaction/redactor.ts';
import type { ModelVerification } from './model-verification.ts';
import { renderMarkdown } from './render-markdown.ts';

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

/**
 * `verification-2026-11-22T101530Z`: sortable, one per run (the time of day keeps two runs of one day
 * apart).
 */
export function recordStem(date: Date): string {
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
