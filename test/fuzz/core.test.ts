import { expect, it } from 'vitest';
import { FuzzStats } from './oracle.ts';
import { FUZZ_TIMEOUT_MS, fuzzCore, fuzzSeed } from './runners.ts';

// The service core in-process (`service.handle`): random worlds (profiles, family binding, rate limits,
// admin token, body limits, tasks of several users in every state) and 1–8 random or malformed calls
// each, on every route of the table and near misses. The properties are in oracle.ts.
// Bounded here (a fixed seed; FUZZ_SEED=<n> replays another); `npx tsx scripts/fuzz.ts` runs it at length.
const RUNS = 1500;

it(
  `core: ${RUNS} random worlds, never an exception, a 5xx unasked or an error that is not valid JSON`,
  () => {
    const seed = fuzzSeed();
    const stats = new FuzzStats();
    fuzzCore({ seed, runs: RUNS, stats });
    console.log(
      `fuzz core: seed ${seed}, ${stats.cases.core} cases, statuses ${JSON.stringify(stats.summary().statuses.core)}`,
    );
    expect(stats.cases.core).toBeGreaterThanOrEqual(5000);
  },
  FUZZ_TIMEOUT_MS,
);
