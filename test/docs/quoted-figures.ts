import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/**
 * Figures the docs quote that a test can compute (issue 35 item 4): each test that computes one reads
 * every place the docs quote it and holds them to what it measured, so a figure cannot go stale
 * silently. A figure no test computes carries the date it was measured instead.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every number the first group of `pattern` captures in `file` (`1.6`, `1,083`), as written. */
export function quotedFigures(file: string, pattern: RegExp): string[] {
  const text = readFileSync(`${ROOT}${file}`, 'utf8');
  const flags = pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`;
  return [...text.matchAll(new RegExp(pattern.source, flags))].map((m) => m[1]!);
}

/** Half a unit of the last digit a figure shows: `37` is right from 36.5 to 37.5, `1.6` from 1.55. */
const halfUnit = (figure: string) => 0.5 * 10 ** -(figure.split('.')[1]?.length ?? 0);

/**
 * Holds every figure `pattern` finds in `file` to `measured`: right to the digits it shows (`37 KB`
 * for 36.6), or within `within` (a fraction, for a figure that moves a little with every commit and
 * is quoted as "about"). At least one must be there: a reworded sentence must not pass by matching
 * nothing.
 */
export function expectQuoted(
  file: string,
  pattern: RegExp,
  measured: number,
  within?: number,
): void {
  const quoted = quotedFigures(file, pattern);
  expect(quoted.length, `${file} quotes no figure matching ${pattern}`).toBeGreaterThan(0);
  for (const text of quoted) {
    const figure = Number(text.replace(/,/g, ''));
    const allowed = within === undefined ? halfUnit(text) : within * measured;
    expect(
      Math.abs(figure - measured) <= allowed + 1e-9,
      `${file} quotes ${text} for ${pattern}; measured now: ${measured}: update the figure`,
    ).toBe(true);
  }
}
