import { afterAll, describe, expect, it } from 'vitest';
import { documentFreedoms } from '../../src/spec/freedoms.ts';
import { describeDeployment, variationKey } from '../deployments/conforming/deployment.ts';
import {
  chosenDeployment,
  conformingDeployment,
  failuresOf,
  runDeployment,
} from '../deployments/conforming/run-deployment.ts';
import { drawInputs } from '../deployments/conforming/run-inputs.ts';
import { conformingSeeds, REPRODUCE } from '../deployments/conforming/seeds.ts';

// The false-alarm side of the self-proof, generated (issue 31 item 2, decisions/042): deployments that
// combine at random what the document leaves open (spec/freedoms.yaml), each played in-process by the
// mock, and run with inputs drawn too (a smaller budget, the free tier, no second key, …: run-inputs.ts).
// The suite must give exit 0 on every one: no documented check failing, and no exit 2 (each lets
// a lifecycle task be followed within the run's time). A warning is allowed only from a check of an
// assumption one of its variations departs from (the table says which). A fixed seed set here; any
// seed by hand: CONFORMING_SEEDS=1000-1199 npx vitest run test/contracts/conforming.e2e.test.ts, or
// one with `npx tsx test/deployments/conforming/reproduce.ts SEED`.
// In the e2e lane although it starts no process: 200 whole contract runs (decisions/034).
const SEEDS = conformingSeeds();
const drawn = new Set<string>();
const falseAlarms: number[] = [];
const started = process.cpuUsage();

describe('the contract suite on conforming deployments generated from the freedom table', () => {
  it.each(SEEDS)('seed %i: exit 0, no documented failure', async (seed) => {
    const deployment = conformingDeployment(seed);
    for (const c of deployment.choices) drawn.add(variationKey(c.freedom, c.variation));
    const inputs = drawInputs(deployment);
    const { report, exit } = await runDeployment(deployment, { target: inputs.target });
    const warned = report.results.filter((r) => r.outcome === 'warn').map((r) => r.id);
    const unexplained = warned.filter((id) => !deployment.departs.has(id));
    const ok = exit.code === 0 && unexplained.length === 0;
    if (!ok) falseAlarms.push(seed);
    expect(
      { exit: exit.code, failures: failuresOf(report), unexplainedWarnings: unexplained },
      [
        `${describeDeployment(deployment)}; run with ${inputs.text}`,
        exit.why ?? '',
        `reproduce: ${REPRODUCE} ${seed}`,
      ].join('\n'),
    ).toEqual({ exit: 0, failures: [], unexplainedWarnings: [] });
  });

  it('together draw every variation the suite can be run on', (ctx) => {
    if (SEEDS.length < 200) ctx.skip(); // a hand-picked few seeds draw only some
    const playable = documentFreedoms().flatMap((f) =>
      f.variations.filter((v) => v.pending === undefined).map((v) => variationKey(f.id, v.id)),
    );
    expect(playable.filter((key) => !drawn.has(key))).toEqual([]);
  });
});

// A variation the suite cannot yet be run on says why (`pending`); the generator leaves it out. This
// holds the table to it: each still gives a wrong verdict. When one passes, its reason is gone: delete
// its `pending` line in spec/freedoms.yaml, and the generator draws it from then on.
const PENDING = documentFreedoms().flatMap((f) =>
  f.variations.flatMap((v) =>
    v.pending === undefined ? [] : [[variationKey(f.id, v.id), f.id, v.id, v.pending] as const],
  ),
);

// Today none is pending (issue 31 items 4 and 5 and the native answer's ID found in its envelope
// took the last ones out); the holding stays for the next.
describe.runIf(PENDING.length > 0)('a variation the table marks pending', () => {
  it.each(PENDING)(
    '%s still gives a wrong verdict (%s=%s: %s)',
    async (_key, freedom, variation) => {
      const { report, exit } = await runDeployment(chosenDeployment({ [freedom]: variation }));
      expect(
        exit.code === 0 && failuresOf(report).length === 0,
        'it passes now: delete its pending line in spec/freedoms.yaml',
      ).toBe(false);
    },
  );
});

// With the CLI's default budget (2), a deployment that rate limits the first submission on each path,
// or every request once, creating no task: each 429 is retried with backoff (§7) and takes no unit of
// the budget, so a lifecycle task is still followed (issue 31 item 4, decisions/040). The generator's
// runs draw the budget of 2 with these variations too (run-inputs.ts); these hold it on every one.
describe('with the default budget (2), a deployment that rate limits', () => {
  it.each(['first-submission-retry-after', 'first-submission-bare', 'every-request-once'])(
    '%s: exit 0, the 429s retried',
    async (variation) => {
      const deployment = chosenDeployment({ 'rate-limiting': variation });
      const { report, exit } = await runDeployment(deployment, { target: { budget: 2 } });
      expect({ exit: exit.code, failures: failuresOf(report) }).toEqual({ exit: 0, failures: [] });
      expect(report.retries.submissions).toBeGreaterThan(0);
    },
  );
});

afterAll(() => {
  const cpu = process.cpuUsage(started);
  const seconds = ((cpu.user + cpu.system) / 1e6).toFixed(1);
  const line =
    `conforming deployments: ${SEEDS.length} tried, ${falseAlarms.length} false alarms` +
    `${falseAlarms.length === 0 ? '' : ` (seeds ${falseAlarms.join(', ')})`}, ` +
    `${drawn.size} variations drawn; ${seconds} s CPU`;
  console.log(`\n${line}`);
});
