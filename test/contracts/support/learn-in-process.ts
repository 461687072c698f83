import type { ContractTarget, LearnedProfile } from '../../../contracts/index.ts';
import { runDrift, type DriftRun } from '../../../contracts/drift/index.ts';
import { runLearn, type Learned } from '../../../contracts/learn/index.ts';
import { createMockService, type MockOptions, type MockService } from '../../../mocks/index.ts';
import type { RunOptions } from '../../../contracts/run-contract.ts';
import { coreFetch } from './core-fetch.ts';
import { BASE_TARGET } from './in-process.ts';
import { VirtualClock } from './virtual-clock.ts';

/** One side of an in-process run: the mock (a deployment it plays) and the target's changes. */
export interface Side {
  readonly mock: MockOptions;
  readonly target?: Partial<ContractTarget>;
}

/** A fresh mock on a manual clock, and how a run reaches it: its core in-process, on virtual time. */
export function inProcess(
  mock: MockOptions,
  seed = 'learn',
): {
  service: MockService;
  run: RunOptions;
} {
  const service = createMockService({
    clock: { mode: 'manual', start: Date.UTC(2026, 10, 22) },
    seed,
    ...mock,
  });
  const clock = new VirtualClock(service.clock);
  return { service, run: { fetch: clock.track(coreFetch(service)), clock } };
}

/** The target of a side: the in-process one, a budget with room for the learning probes. */
export const targetOf = (side: Side): ContractTarget => ({
  ...BASE_TARGET,
  budget: 3,
  ...side.target,
});

/** `videotask learn` in-process against the mock `side.mock` plays (refining `into` when given). */
export async function learnInProcess(
  side: Side,
  options: { into?: LearnedProfile; seed?: string } = {},
): Promise<Learned & { service: MockService }> {
  const { service, run } = inProcess(side.mock, options.seed);
  const learned = await runLearn(targetOf(side), { ...run, into: options.into });
  return { ...learned, service };
}

/** `videotask drift` in-process between two mocks. */
export async function driftInProcess(a: Side, b: Side): Promise<DriftRun> {
  const left = inProcess(a.mock, 'drift-a');
  const right = inProcess(b.mock, 'drift-b');
  return runDrift(targetOf(a), targetOf(b), { a: left.run, b: right.run });
}
