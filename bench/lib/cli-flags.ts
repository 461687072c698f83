// A benchmark's command line (bench/*.ts): its own flags, plus the two every one takes, and how a
// wrong one is told: one line naming it, exit 2, never a stack trace.
import { relative } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Flags = NonNullable<ParseArgsConfig['options']>;

/** A flag the benchmark cannot take (unknown, or a value it cannot use). */
export class BenchFlagError extends Error {
  override readonly name = 'BenchFlagError';
}

/**
 * Parses `flags` (strictly: an unknown flag is an error), plus `--out FILE` (default
 * `bench/results/NAME.json`, unless `flags` declares `out`) and `-h`/`--help`, which prints `usage`
 * and exits. From here on a `BenchFlagError` (this parse's, or a number's: `./cli-numbers.ts`) ends
 * the run with one line.
 */
export function benchFlags<const T extends Flags>(
  bench: { readonly name: string; readonly usage: string },
  flags: T,
) {
  process.on('uncaughtException', (error) => {
    if (toldFlagError(error)) process.exit(2);
    console.error(error.stack ?? error.message);
    process.exit(1);
  });
  const options = {
    out: { type: 'string', default: `bench/results/${bench.name}.json` },
    // A bench whose results file depends on its other flags declares `out` itself, without a default.
    ...flags,
    help: { type: 'boolean', short: 'h', default: false },
  } as const;
  let values;
  try {
    ({ values } = parseArgs({ options, strict: true }));
  } catch (error) {
    throw new BenchFlagError((error as Error).message);
  }
  // Its type resolves where `flags` is known (the caller's); here it is opaque.
  if ((values as { readonly help?: boolean }).help === true) {
    console.log(bench.usage);
    process.exit(0);
  }
  return values;
}

/**
 * Tells a `BenchFlagError` in one line, with what to do next, and sets exit code 2; false for any
 * other error (the caller prints its stack). Called for errors thrown anywhere in a bench: its top
 * level (`benchFlags` listens) and its `main` (`runMain`).
 */
export function toldFlagError(error: unknown): boolean {
  if (!(error instanceof BenchFlagError)) return false;
  const script = relative(process.cwd(), process.argv[1] ?? 'the benchmark');
  console.error(`${script}: ${error.message} (--help lists its flags)`);
  process.exitCode = 2;
  return true;
}
