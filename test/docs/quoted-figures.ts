import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/**
 * Figures the docs quote that a test can compute (issue 35 item 4): each test that computes one reads
 * every place the docs quote it and holds them to what it measured, so a figure cannot go stale
 * silently. A figure no test computes carries the date it was measured instead.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every number the first group of `pattern` captures in `file` (`1.6`, `1,083`), in order. */
export function quotedFigures(file: string, pattern: RegExp): number[] {
  const text = readFileSync(`${ROOT}${file}`, 'utf8');
  const flags = pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`;
  return [...text.matchAll(new RegExp(pattern.source, flags))].map((m) =>
    Number(m[1]!.replace(/,/g, '')),
  );
}

/**
 * Holds every figure `pattern` finds in `file` to `measured`, within `tolerance` (a fraction: a
 * figure rounded for a reader, or one that moves a little with each commit); at least one must be
 * there (a reworded sentence must not pass by matching nothing).
 */
export function expectQuoted(file: string, pattern: RegExp, measured: number, tolerance = 0): void {
  const quoted = quotedFigures(file, pattern);
  expect(quoted.length, `${file} quotes no figure matching ${pattern}`).toBeGreaterThan(0);
  for (const figure of quoted)
    expect(
      Math.abs(figure - measured) <= tolerance * measured,
      `${file} quotes ${figure} for ${pattern}; measured now: ${measured} ` +
        `(within ${tolerance * 100}%): update the figure`,
    ).toBe(true);
}
