import type { CatalogModel } from '../keys/catalog.ts';
import { drawPlan } from '../plan/plan.ts';
import type { ServiceState } from '../service/service-state.ts';

/** What minting and keeping a task reads of the service. */
export type MintState = Pick<
  ServiceState,
  | 'apply'
  | 'clock'
  | 'codec'
  | 'lookup'
  | 'profile'
  | 'random'
  | 'settings'
  | 'shared'
  | 'stateFile'
  | 'store'
>;
import type { TaskExtras } from '../state/shared-state.ts';
import type { TaskRecord } from '../task/task-record.ts';
import { fieldsOf, planRandom, type PlanRecipe, type TaskBlueprint } from '../task-blueprint.ts';
import { drawIn } from '../task-id/task-id-share.ts';

/**
 * Draws one submission may take before it is refused (503): at 99 % of a share taken by identical
 * submissions of one user in one mock millisecond, 1000 draws all meet taken IDs once in 23,000.
 */
export const MAX_DRAWS = 1000;

export interface NewTask {
  readonly owner: string;
  readonly model: CatalogModel;
  readonly seconds: number;
  readonly scenario: string;
  readonly arg: string | undefined;
  /** The client named the scenario (no failure rate applies then). */
  readonly explicit: boolean;
}

/** A task's ID and what it is made of, not yet kept anywhere. */
export interface MintedTask {
  readonly id: string;
  readonly owner: string;
  readonly blueprint: TaskBlueprint;
  /** What does not fit in the ID (decisions/010). */
  readonly extras: TaskExtras | undefined;
}

/**
 * Mints a new task's ID (decisions/010): draws its plan seed in this process's share of the draws
 * (`task-id-share.ts`), encodes everything about the task in the ID, and draws again while the ID is
 * one this deployment already made that this process knows of (`TaskStore.has`): two identical
 * submissions of one user in one mock millisecond whose draws met. Redraws come from the same seeded
 * source, so a seed still replays a run. Changes nothing else; `undefined` after `MAX_DRAWS` draws.
 */
export function mintTask(state: MintState, request: NewTask): MintedTask | undefined {
  const createdAt = Math.floor(state.clock.now());
  for (let attempt = 0; attempt < MAX_DRAWS; attempt++) {
    const draw = drawIn(state.settings.taskIdShare, state.random);
    const minted = mintWith(state, request, createdAt, draw);
    if (!state.store.has(minted.id)) return minted;
  }
  return undefined;
}

/**
 * Keeps a minted task: its extras in the shared state (durably, before the ID is given out), and the
 * task in the lookup's cache and the listing. Throws `StateNotSavedError` when the extras cannot be
 * kept (nothing is created then).
 */
export function keepTask(state: MintState, minted: MintedTask): TaskRecord {
  const { id, owner, blueprint, extras } = minted;
  if (extras !== undefined) state.apply({ op: 'extras', task: id, extras });
  const task = state.lookup.recordOf(id, owner, blueprint);
  state.lookup.remember(task);
  state.store.add(id);
  state.stateFile?.created(id, { createdAt: blueprint.createdAt, draw: blueprint.recipe.draw });
  return task;
}

function mintWith(state: MintState, request: NewTask, createdAt: number, draw: number): MintedTask {
  const recipe: PlanRecipe = {
    draw,
    scenario: request.scenario,
    arg: request.arg,
    failByRate: !request.explicit && failsByRate(draw, state),
    profile: state.profile.unknownFirstMs[1] > 0 ? 'observed' : 'documented',
  };
  const blueprint: TaskBlueprint = {
    createdAt,
    model: request.model,
    seconds: request.seconds,
    recipe,
  };
  const { fields, extras } = fieldsOf(blueprint, state.settings.plans);
  const id = state.codec.encode(fields, request.owner, state.shared.generation);
  return { id, owner: request.owner, blueprint, extras };
}

/** Whether the service's failure rate makes this draw's otherwise succeeding task fail. */
function failsByRate(draw: number, state: MintState): boolean {
  const { failureRate, timing } = state.settings;
  if (failureRate === 0) return false;
  const plan = drawPlan({
    random: planRandom(draw),
    timing,
    failureRate,
    unknownFirstMs: state.profile.unknownFirstMs,
  });
  return plan.outcome === 'fail';
}
