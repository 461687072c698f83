import { runContract, type ContractReport, type ContractTarget } from '../../../contracts/index.ts';
import type { CoreRequest } from '../../../mocks/core/http/http-types.ts';
import type { Defect } from '../../../mocks/defects/defect.ts';
import { createMockService, type MockService } from '../../../mocks/index.ts';
import { exitStatus } from '../../../cli/commands/contract-target.ts';
import { coreFetch } from '../../contracts/support/core-fetch.ts';
import { BASE_TARGET, FULL_MOCK, FULL_TARGET } from '../../contracts/support/in-process.ts';
import { VirtualClock } from '../../contracts/support/virtual-clock.ts';
import { generateDeployment, type Deployment, type GenerateOptions } from './deployment.ts';
import { ANSWER_PLAYERS } from './answer-players.ts';
import { LIFECYCLE_PLAYERS } from './lifecycle-players.ts';
import { behind, TRANSPORT_PLAYERS } from './transport-players.ts';

/** Every variation's player, by `freedom/variation` (a test holds it to the table: none missing). */
export const PLAYERS = { ...TRANSPORT_PLAYERS, ...ANSWER_PLAYERS, ...LIFECYCLE_PLAYERS };

/** The conforming deployment of a seed, from the committed table. */
export const conformingDeployment = (
  seed: number,
  limits: Pick<GenerateOptions, 'allow' | 'profiles'> = {},
): Deployment => generateDeployment(seed, { players: PLAYERS, ...limits });

/**
 * A deployment written on purpose: the variations named (`{'task-timing': 'minutes'}`, a `pending` one
 * too), every other freedom at its first (plainest) variation, on the documented profile unless
 * another is named; `seed` draws the variations' own parameters (a duration, a delay).
 */
export function chosenDeployment(
  choices: Readonly<Record<string, string>>,
  { profile = 'documented', seed = 0 }: { profile?: Deployment['profile']; seed?: number } = {},
): Deployment {
  return generateDeployment(seed, {
    players: PLAYERS,
    profiles: [profile],
    pending: true,
    allow: (f, v) => v.id === (choices[f.id] ?? f.variations[0]!.id),
  });
}

export interface DeploymentRun {
  readonly report: ContractReport;
  /** What `videotask contract` would exit with (cli/commands/contract-target.ts `exitStatus`). */
  readonly exit: { readonly code: 0 | 1 | 2; readonly why?: string | undefined };
  readonly service: MockService;
}

/**
 * Runs the contract suite against a deployment in-process, as `checkInProcess` runs it against the
 * mock: the full target (both users, a model the key may not use, a task expected to fail, the second
 * family when the deployment has it bound), a virtual clock. `defects` (a named defect, a generated
 * mutant) wrap the deployment's own wrappers: what they break stays broken (a freedom that rewrites a
 * field never mends a break of it), and they still see the core's paths and task IDs (the deployment's
 * layers sit outside every wrapper).
 */
export async function runDeployment(
  deployment: Deployment,
  options: { readonly defects?: readonly Defect[]; readonly target?: Partial<ContractTarget> } = {},
): Promise<DeploymentRun> {
  const service = createMockService({
    clock: { mode: 'manual', start: Date.UTC(2026, 10, 22) },
    seed: `conforming-${deployment.seed}`,
    ...FULL_MOCK,
    ...deployment.mock,
    wrap: [...deployment.wrap, ...(options.defects ?? [])],
    clientVerdicts: false,
  });
  const clock = new VirtualClock(service.clock);
  const handle = behind((request: CoreRequest) => service.handle(request), deployment.layers);
  const tracked = clock.track(coreFetch({ handle } as MockService));
  const fetch = deployment.fetchLayers.reduceRight((next, layer) => layer(next, clock), tracked);
  const report = await runContract(
    { ...BASE_TARGET, ...FULL_TARGET, ...deployment.target, ...options.target },
    { fetch, clock },
  );
  return { report, exit: exitStatus(report), service };
}

/** The failing checks of a run, `check (basis): message`, for a message. */
export const failuresOf = (report: ContractReport): string[] =>
  report.results
    .filter((r) => r.outcome === 'fail')
    .map((r) => `${r.id} (${r.basisText}): ${r.violations[0]?.message ?? ''}`);
