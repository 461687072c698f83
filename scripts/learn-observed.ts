/**
 * Learns the mock's built-in `observed` profile (mocks/profiles/observed.json) the way a user learns
 * any deployment's (decisions/018): `videotask learn` against a deployment with the deployed gateway's
 * habits — the held-out `gateway` test deployment (test/deployments/gateway.ts, written from
 * reference-gateway-facts.md, no departures), its second family bound, the run's key a token that may
 * not use `video-lite-v1` (so the profile learns how the gateway refuses a forbidden model, §5) — at its
 * own timing, `--runs` times into the same file (each run widens the timing ranges).
 *
 *   npx tsx scripts/learn-observed.ts [--runs 3] [--speed 1] [--out mocks/profiles/observed.json]
 *
 * At speed 1 a run takes one to two minutes (the gateway's poller moves tasks every 15 s).
 */
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { learnCommand } from '../cli/commands/learn.ts';
import { DEFAULT_KEYS, startDeployment } from '../test/deployments/index.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    speed: { type: 'string', default: '1' },
    out: { type: 'string', default: 'mocks/profiles/observed.json' },
  },
});
const runs = Number(values.runs);
const speed = Number(values.speed);
if (!(runs >= 1) || !(speed > 0)) throw new Error('--runs and --speed take positive numbers');

const FORBIDDEN = 'video-lite-v1';
const [alice, bob] = DEFAULT_KEYS;
const keys = [{ ...alice!, models: alice!.models.filter((m) => m !== FORBIDDEN) }, bob!];
const gateway = await startDeployment('gateway', { speed, familyBound: true, port: 4020, keys });
const [owner, other] = gateway.keys;
const poll = ['--poll-initial', String(1 / speed), '--poll-max', String(5 / speed)];
try {
  rmSync(values.out, { force: true });
  for (let run = 1; run <= runs; run++) {
    console.error(`learn-observed: run ${run} of ${runs} against ${gateway.url}`);
    const code = await learnCommand.run([
      ...['--base-url', gateway.url, '--api-key', owner!.key, '--other-api-key', other!.key],
      ...['--failing-prompt', 'a red kite that should fail'],
      ...['--family-model', 'alt-video-v2', '--plugin', 'alt-video'],
      ...['--forbidden-model', FORBIDDEN],
      ...[
        '--name',
        'observed',
        '--out',
        values.out,
        '--poll-timeout',
        String(600 / speed),
        ...poll,
      ],
    ]);
    if (code !== 0) throw new Error(`videotask learn exited ${code}`);
  }
} finally {
  await gateway.close();
}
