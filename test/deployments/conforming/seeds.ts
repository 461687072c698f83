/** The command that replays one seed's deployment and prints the suite's verdict. */
export const REPRODUCE = 'npx tsx test/deployments/conforming/reproduce.ts';

/** The seeds CI runs: 1–200. */
export const CI_SEEDS = { from: 1, to: 200 } as const;

/**
 * The seeds to run: `CONFORMING_SEEDS` (`17`, `1000-1199`, `3,17,40`) when set, else the fixed CI set.
 * A wrong value is refused, naming it.
 */
export function conformingSeeds(given = process.env['CONFORMING_SEEDS']): number[] {
  if (given === undefined || given.trim() === '') return range(CI_SEEDS.from, CI_SEEDS.to);
  return given.split(',').flatMap((part) => {
    const m = /^\s*(\d+)(?:\s*-\s*(\d+))?\s*$/.exec(part);
    if (m === null)
      throw new RangeError(
        `CONFORMING_SEEDS=${given}: give seeds as 17, 1000-1199 or 3,17,40 (whole numbers)`,
      );
    return range(Number(m[1]), Number(m[2] ?? m[1]));
  });
}

function range(from: number, to: number): number[] {
  if (to < from) throw new RangeError(`CONFORMING_SEEDS: the range ${from}-${to} is empty`);
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
