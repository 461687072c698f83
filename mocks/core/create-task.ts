import type { CatalogModel } from './catalog.ts';
import { drawPlan } from './plan.ts';
import type { ServiceState } from './service-state.ts';
import type { TaskRecord } from './store.ts';
import { fieldsOf, planRandom, type PlanRecipe, type TaskBlueprint } from './task-blueprint.ts';

/** Plan seeds fill the ID's 27-bit `draw` field. */
const DRAWS = 2 ** 27;

export interface NewTask {
  readonly owner: string;
  readonly model: CatalogModel;
  readonly seconds: number;
  readonly scenario: string;
  readonly arg: string | undefined;
  /** The client named the scenario (no failure rate applies then). */
  readonly explicit: boolean;
}

/**
 * Creates a task: draws its plan seed, encodes everything about it in its ID (decisions/010), keeps what
 * does not fit in the shared state's extras (durably, before the ID is given out), and lists it.
 * Throws `StateNotSavedError` when the extras cannot be kept (nothing is created then).
 */
export function createTask(state: ServiceState, request: NewTask): TaskRecord {
  const { settings, profile } = state;
  const draw = state.random.int(0, DRAWS - 1);
  const recipe: PlanRecipe = {
    draw,
    scenario: request.scenario,
    arg: request.arg,
    failByRate: !request.explicit && failsByRate(draw, state),
    profile: profile.unknownFirstMs[1] > 0 ? 'observed' : 'documented',
  };
  const blueprint: TaskBlueprint = {
    createdAt: Math.floor(state.clock.now()),
    model: request.model,
    seconds: request.seconds,
    recipe,
  };
  const { fields, extras } = fieldsOf(blueprint, settings.plans);
  const id = state.codec.encode(fields, request.owner, state.shared.generation);
  if (extras !== undefined) state.apply({ op: 'extras', task: id, extras });
  const task = state.lookup.recordOf(id, request.owner, blueprint);
  state.lookup.remember(task);
  state.store.add(id);
  state.stateFile?.created(id);
  return task;
}

/** Whether the service's failure rate makes this draw's otherwise succeeding task fail. */
function failsByRate(draw: number, state: ServiceState): boolean {
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
