import { afterAll, describe, expect, it } from 'vitest';
import { DOCUMENTED_POLL, type ContractTarget } from '../../contracts/index.ts';
import { runDrift } from '../../contracts/drift/index.ts';
import { runLearn } from '../../contracts/learn/index.ts';
import { startMockServer, type RunningMockServer } from '../../mocks/index.ts';
import {
  DEFAULT_KEYS,
  DEPLOYMENT_NAMES,
  startDeployment,
  type DeploymentName,
  type RunningDeployment,
} from '../deployments/index.ts';
import { FULL_MOCK } from './support/in-process.ts';

// Issue 21's proof, over real HTTP against the three held-out deployments (test/deployments/: written
// for this, importing nothing of ours): learn each from one run, serve the profile with the mock, and
// drift between the deployment and the mock finds no difference on the whole sequence — status,
// content type, shape and value kinds, headers, delivery, IDs, verdicts — and the mock's tasks keep
// to the learned timing. Each deployment runs 10× its own timing (tasks end within ~8 s).

const POLL = { ...DOCUMENTED_POLL, initialIntervalMs: 100, maxIntervalMs: 500, timeoutMs: 60_000 };
const FAILS = 'a red kite that should fail';

/**
 * A model the run's key may not use (§5), on both sides: alice's token without `video-lite-v1` on the
 * deployment, the mock's `sk-mock-vip-no-lite` on the replay; so the profile learns how each deployment
 * refuses it.
 */
const FORBIDDEN = 'video-lite-v1';
const [ALICE, BOB] = DEFAULT_KEYS;
const KEYS = [{ ...ALICE!, models: ALICE!.models.filter((m) => m !== FORBIDDEN) }, BOB!];
const MOCK_KEYS = [FULL_MOCK.tokens![0]!.key, 'sk-mock-bob'] as const;

function target(url: string, keys: readonly [string, string], failing: string): ContractTarget {
  return {
    baseUrl: url,
    apiKey: keys[0],
    otherApiKey: keys[1],
    model: 'video-pro-v1',
    tier: 'lifecycle',
    budget: 6,
    strict: false,
    poll: POLL,
    requestTimeoutMs: 10_000,
    failing: { prompt: failing },
    family: { model: 'alt-video-v2', plugin: 'alt-video' },
    forbiddenModel: FORBIDDEN,
  };
}

const running: { close(): Promise<void> }[] = [];
afterAll(() => Promise.all(running.map((r) => r.close())));

async function deployment(name: DeploymentName): Promise<RunningDeployment> {
  const started = await startDeployment(name, {
    speed: 10,
    familyBound: true,
    keys: KEYS,
    // problem-json refuses a key's 11th task within a minute (429): room for both runs here.
    ...(name === 'problem-json' ? { submissionBudget: { tasks: 100, windowMs: 2_000 } } : {}),
  });
  running.push(started);
  return started;
}

describe('a deployment the project never saw, learned once and served by the mock', () => {
  it.concurrent.each(DEPLOYMENT_NAMES)(
    '%s: drift between it and the mock of its profile finds no difference',
    async (name) => {
      const real = await deployment(name);
      const keys = [real.keys[0]!.key, real.keys[1]!.key] as const;
      const staging = target(real.url, keys, FAILS);
      const learned = await runLearn(staging);
      expect(learned.report.ok).toBe(true);
      expect(learned.report.inputErrors).toEqual([]);
      // The suite's refusal probes are situations of their own: how this deployment refuses each.
      const situations = [
        'empty-prompt',
        'file-upload',
        'forbidden-model',
        'invalid-json',
        'missing-model',
        'missing-prompt',
        'model-not-string',
        'ok',
        'prompt-not-string',
        'unknown-model',
        // The gateway reads a form (its empty prompt is refused as such); the others refuse it 415.
        ...(name === 'gateway' ? [] : ['unsupported-media-type']),
      ];
      expect(Object.keys(learned.profile.answers['createVideo n/a owner']!).sort()).toEqual(
        situations.sort(),
      );

      const mock: RunningMockServer = await startMockServer({
        port: 0,
        profile: learned.profile,
        familyBound: true,
        tokens: FULL_MOCK.tokens,
      });
      running.push(mock);
      const replay = target(mock.url, MOCK_KEYS, `${FAILS} [mock:fail]`);
      // As `videotask drift --against-profile` runs it: B replays the profile, so a cell the learn
      // run never saw (a queued look the 0–26 ms queue rarely shows) is a note, not a difference
      // (decisions/038).
      const { report } = await runDrift(staging, replay, { bReplays: learned.profile });
      expect(report.differences, JSON.stringify(report.differences, null, 2)).toEqual([]);
      expect(report.ok).toBe(true);
      expect(report.b.tasksCreated).toBe(5);

      // Every task the mock ran kept to the timing the profile learned.
      const { unknown, queued, running: run } = learned.profile.lifecycle.phases;
      for (const id of mock.service.store.ids()) {
        const plan = mock.service.store.get(id)!.plan;
        expect(plan.unknownMs).toBeGreaterThanOrEqual(unknown[0]);
        expect(plan.unknownMs).toBeLessThanOrEqual(unknown[1]);
        expect(plan.queueMs - plan.unknownMs).toBeGreaterThanOrEqual(queued[0]);
        expect(plan.queueMs - plan.unknownMs).toBeLessThanOrEqual(queued[1]);
        if (plan.scenario === 'succeed') expect(plan.runMs).toBeLessThanOrEqual(run[1]);
      }
    },
    120_000,
  );
});
