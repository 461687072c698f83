/**
 * The long fuzz run: the same properties as test/fuzz/*.test.ts (in `npm test`, bounded), with many
 * more cases.
 *
 *   npx tsx scripts/fuzz.ts [--cases 100000] [--socket-cases N] [--isolation-runs N] [--seed N] [--json]
 *
 * --cases           core cases (requests handled in-process), default 100000
 * --socket-cases    raw requests to the node:http host over TCP, default cases / 20 (at least 300)
 * --isolation-runs  random multi-user interleavings, default cases / 50 (at least 200)
 * --seed            fast-check seed, default 20261122 (the bounded run's) or FUZZ_SEED
 * --json            print the summary as JSON
 *
 * Exit 0 when every property held, 1 with the failing case (and the seed to replay it), 2 for bad usage.
 */
import { fuzzIsolation } from '../test/fuzz/isolation.ts';
import { FuzzStats } from '../test/fuzz/oracle.ts';
import { fuzzCore, fuzzSeed, fuzzSocket } from '../test/fuzz/runners.ts';

const USAGE =
  'usage: npx tsx scripts/fuzz.ts [--cases N] [--socket-cases N] [--isolation-runs N] [--seed N] [--json]';

function parseArgs(argv: readonly string[]): {
  cases: number;
  socketCases: number;
  isolationRuns: number;
  seed: number;
  json: boolean;
} {
  const values = new Map<string, string>();
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--json') json = true;
    else if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else if (['--cases', '--socket-cases', '--isolation-runs', '--seed'].includes(arg)) {
      const value = argv[++i];
      if (value === undefined) usage(`${arg} needs a value`);
      values.set(arg, value);
    } else usage(`unknown argument ${arg}`);
  }
  const number = (name: string, fallback: number, min: number): number => {
    const raw = values.get(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) usage(`${name} must be an integer ≥ ${min}, got "${raw}"`);
    return n;
  };
  const cases = number('--cases', 100_000, 1);
  return {
    cases,
    socketCases: number('--socket-cases', Math.max(300, Math.round(cases / 20)), 0),
    isolationRuns: number('--isolation-runs', Math.max(200, Math.round(cases / 50)), 0),
    seed: number('--seed', fuzzSeed(), Number.MIN_SAFE_INTEGER),
    json,
  };
}

function usage(problem: string): never {
  console.error(`${problem}\n${USAGE}`);
  process.exit(2);
}

const CORE_BATCH_RUNS = 2000;

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const stats = new FuzzStats();
  const seconds: Record<string, number> = {};
  const timed = async (name: string, run: () => Promise<void> | void) => {
    const started = performance.now();
    await run();
    seconds[name] = Math.round((performance.now() - started) / 100) / 10;
    process.stderr.write(`fuzz ${name}: done in ${seconds[name]} s\n`);
  };
  try {
    await timed('core', () => {
      // Batches of fresh seeds (seed, seed+1, …) until the case count is reached: each batch replays alone.
      for (let batch = 0; stats.cases.core < options.cases; batch++) {
        const runs = Math.min(
          CORE_BATCH_RUNS,
          Math.max(1, Math.ceil((options.cases - stats.cases.core) / 4.5)),
        );
        fuzzCore({ seed: options.seed + batch, runs, stats });
        process.stderr.write(`fuzz core: ${stats.cases.core} cases\r`);
      }
      process.stderr.write('\n');
    });
    if (options.socketCases > 0)
      await timed('socket', () =>
        fuzzSocket({ seed: options.seed, runs: options.socketCases, stats }),
      );
    if (options.isolationRuns > 0)
      await timed('isolation', () =>
        fuzzIsolation({ seed: options.seed, runs: options.isolationRuns, stats }),
      );
  } catch (error) {
    console.error((error as Error).message);
    console.error(`\ncases before the failure: ${JSON.stringify(stats.cases)}`);
    process.exit(1);
  }
  const summary = { seed: options.seed, seconds, ...stats.summary() };
  if (options.json) return console.log(JSON.stringify(summary, null, 2));
  const line = (label: string, value: unknown) =>
    console.log(`${label.padEnd(22)}${typeof value === 'string' ? value : JSON.stringify(value)}`);
  console.log(`fuzz: every property held (seed ${options.seed})`);
  line('core', `${stats.cases.core} cases in ${seconds['core']} s`);
  line('socket', `${stats.cases.socket} cases in ${seconds['socket'] ?? 0} s`);
  line(
    'isolation',
    `${options.isolationRuns} interleavings, ${stats.cases.isolation} operations in ${seconds['isolation'] ?? 0} s`,
  );
  line('statuses (core)', summary.statuses.core);
  line('statuses (socket)', summary.statuses.socket);
  line('5xx allowed', summary.allowed5xx);
  line('socket outcomes', summary.socketOutcomes);
  line('isolation', summary.isolation);
}

await main();
