import { writeFileSync } from 'node:fs';
import type { Verdict } from './mutant-run.ts';

/**
 * Prints a kill score and the survivors; appends the line to $VIDEOTASK_SCORE_FILE when set (the
 * figures in README and docs/contracts.md).
 */
export function printScore(
  what: string,
  verdicts: readonly Verdict[],
  total: number,
  extra = '',
): string {
  const killed = verdicts.filter((v) => v.killed);
  const strict = killed.filter((v) => v.strict).length;
  const line =
    `${what}: ${killed.length}/${total} killed (${killed.length - strict} by ` +
    `documented checks in a default run, ${strict} by assumption checks ` +
    `under --strict)${extra}`;
  const survivors = verdicts.filter((v) => !v.killed).map((v) => `  SURVIVED ${v.name}`);
  console.log([`\n${line}`, ...survivors].join('\n'));
  const file = process.env['VIDEOTASK_SCORE_FILE'];
  if (file !== undefined) writeFileSync(file, `${line}\n`, { flag: 'a' });
  return line;
}
