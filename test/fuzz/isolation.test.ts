import { expect, it } from 'vitest';
import { fuzzIsolation } from './isolation.ts';
import { FuzzStats } from './oracle.ts';
import { FUZZ_TIMEOUT_MS, fuzzSeed } from './runners.ts';

// §5 as a property: 2–4 random users with random keys (plus the built-in keys), random interleavings of
// submit / status query (both forms) / download / HEAD / Range / native query / catalog, the clock moving
// in between. The properties are stated in isolation.ts.
const RUNS = 1000;

it(
  `isolation: ${RUNS} random interleavings, no cross-user read on any route`,
  () => {
    const seed = fuzzSeed();
    const stats = new FuzzStats();
    fuzzIsolation({ seed, runs: RUNS, stats });
    const { foreignAttempts, ownSuccesses, modelLists } = stats.isolation;
    console.log(
      `fuzz isolation: seed ${seed}, ${stats.cases.isolation} operations: ` +
        `${foreignAttempts} on other users' tasks, ${ownSuccesses} successes on ` +
        `own tasks, ${modelLists} catalog reads`,
    );
    expect(foreignAttempts).toBeGreaterThan(2000);
    expect(ownSuccesses).toBeGreaterThan(500);
  },
  FUZZ_TIMEOUT_MS,
);
