import {
  runContract,
  type ContractReport,
  type ContractTarget,
  type RunOptions,
} from '../../../contracts/index.ts';
import { SECOND_FAMILY_MODELS } from '../../../mocks/core/keys/catalog.ts';
import type { MockToken } from '../../../mocks/core/keys/tokens.ts';
import { createMockService, type MockOptions, type MockService } from '../../../mocks/index.ts';
import { coreFetch } from './core-fetch.ts';
import { VirtualClock } from './virtual-clock.ts';

/**
 * §8's schedule in simulated time, starting at 1 s instead of 5 s so that every phase of a mock task
 * is seen (unknown 0.5–2.5 s in the observed profile, queued 2–8 s, running 20–60 s); its 30 s ceiling
 * is also how long after the end the suite looks again.
 */
export const VIRTUAL_POLL = {
  initialIntervalMs: 1_000,
  factor: 1.5,
  maxIntervalMs: 30_000,
  timeoutMs: 15 * 60_000,
  maxAttempts: 60,
};

/** The target every in-process run starts from: alice and bob, the default model, two tasks. */
export const BASE_TARGET: ContractTarget = {
  baseUrl: 'http://contract.test',
  apiKey: 'sk-mock-alice',
  otherApiKey: 'sk-mock-bob',
  model: 'video-pro-v1',
  tier: 'lifecycle',
  budget: 2,
  strict: false,
  poll: VIRTUAL_POLL,
  // An in-process answer cannot hang; no timer per request.
  requestTimeoutMs: Number.POSITIVE_INFINITY,
};

/**
 * A vip key whose token may not use `video-lite-v1` (§5: the token's permissions), so that the run has
 * a forbidden model to submit; every other model of its group, the second family's included.
 */
const VIP_WITHOUT_LITE: MockToken = {
  key: 'sk-mock-vip-no-lite',
  user: 'vip',
  group: 'vip',
  models: ['video-pro-v1', ...SECOND_FAMILY_MODELS],
  description: 'vip, but not video-lite-v1',
};

/**
 * The configuration that observes every cell of the matrix: the gateway's habits (a task says `unknown`
 * first), a task the operator expects to fail (`[mock:fail]`), the second family bound with its native
 * path named (the vip key may use it), and a model the key may not use. The self-proof runs every
 * mutant against it.
 */
export const FULL_MOCK: MockOptions = {
  profile: 'observed',
  familyBound: true,
  tokens: [VIP_WITHOUT_LITE],
};
export const FULL_TARGET: Partial<ContractTarget> = {
  apiKey: VIP_WITHOUT_LITE.key,
  failing: { prompt: 'videotask contract check [mock:fail]' },
  family: { model: 'alt-video-v2', plugin: 'alt-video' },
  forbiddenModel: 'video-lite-v1',
  budget: 5,
};

/**
 * Runs the contract suite against a fresh mock in-process: its core answers through `coreFetch`, and
 * a virtual clock moves the mock's manual clock whenever the run waits. Deterministic for one seed.
 */
export async function checkInProcess(
  mock: MockOptions = {},
  target: Partial<ContractTarget> = {},
  options: Pick<RunOptions, 'onProgress' | 'onTraffic'> = {},
): Promise<{ report: ContractReport; service: MockService }> {
  const service = createMockService({
    clock: { mode: 'manual', start: Date.UTC(2026, 10, 22) },
    seed: 'self-proof',
    ...mock,
  });
  const clock = new VirtualClock(service.clock);
  const report = await runContract(
    { ...BASE_TARGET, ...target },
    { ...options, fetch: clock.track(coreFetch(service)), clock },
  );
  return { report, service };
}
