// A benchmark's command line (bench/*.ts): its own flags, plus the two every one takes.
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Flags = NonNullable<ParseArgsConfig['options']>;

/**
 * Parses `flags` (strictly: an unknown flag is an error), plus `--out FILE` (default
 * `bench/results/NAME.json`) and `-h`/`--help`, which prints `usage` and exits.
 */
export function benchFlags<const T extends Flags>(
  bench: { readonly name: string; readonly usage: string },
  flags: T,
) {
  const options = {
    ...flags,
    out: { type: 'string', default: `bench/results/${bench.name}.json` },
    help: { type: 'boolean', short: 'h', default: false },
  } as const;
  const { values } = parseArgs({ options, strict: true });
  // Its type resolves where `flags` is known (the caller's); here it is opaque.
  if ((values as { readonly help?: boolean }).help === true) {
    console.log(bench.usage);
    process.exit(0);
  }
  return values;
}
