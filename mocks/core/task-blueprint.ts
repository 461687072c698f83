import { SECOND_FAMILY } from '../../src/spec/second-family.ts';
import { BUILT_IN_MODELS, type CatalogModel } from './keys/catalog.ts';
import { drawPlan, type TaskPlan, type Timing } from './plan/plan.ts';
import type { ProfileName } from './profile/profile-names.ts';
import { createRandom, type Random } from './plan/random.ts';
import { EXTRAS_CODE, codeFor, scenarioCode } from './plan/scenario-codes.ts';
import { SCENARIOS } from './plan/scenarios.ts';
import type { TaskExtras } from './state/shared-state.ts';
import { fits, type TaskIdFields } from './task-id/task-id-layout.ts';

/**
 * Profiles by their index in a task ID (append only). Index 1 is the service's own profile's
 * unknown-first phase: `observed`'s, or a learned profile's (decisions/018).
 */
export const PROFILE_ORDER: readonly ProfileName[] = ['documented', 'observed'];

/** What a plan is drawn with besides its recipe: the service's timing and its profile's unknown phase. */
export interface PlanSettings {
  readonly timing: Timing;
  /** How long (ms range) a task of the service's profile reads `unknown` first. */
  readonly unknownFirstMs: readonly [number, number];
}

/** How a task's plan is drawn: the same recipe always gives the same plan. */
export interface PlanRecipe {
  /** Seeds the random source of this task's plan. */
  readonly draw: number;
  readonly scenario: string;
  readonly arg: string | undefined;
  /** An otherwise succeeding task that the service's failure rate made fail. */
  readonly failByRate: boolean;
  /** `documented`: no unknown-first phase; `observed`: the service profile's (PROFILE_ORDER). */
  readonly profile: ProfileName;
}

/** Everything a task is made of: what its ID (and, rarely, the extras) carries. */
export interface TaskBlueprint {
  readonly createdAt: number;
  readonly model: CatalogModel;
  /** Seconds of video asked for (what the task is charged for). */
  readonly seconds: number;
  readonly recipe: PlanRecipe;
}

const PLAN_SCENARIOS = new Map(SCENARIOS.map((s) => [s.name, s]));

/** The random source a task's plan is drawn from. */
export function planRandom(draw: number): Random {
  return createRandom(`plan/${draw}`);
}

/** The plan a recipe gives: the default draw, then the scenario's shaping (`scenarios.ts`). */
export function planFromRecipe(recipe: PlanRecipe, settings: PlanSettings): TaskPlan {
  const random = planRandom(recipe.draw);
  const base = drawPlan({
    random,
    timing: settings.timing,
    failureRate: recipe.failByRate ? 1 : 0,
    unknownFirstMs: recipe.profile === 'documented' ? [0, 0] : settings.unknownFirstMs,
  });
  if (recipe.scenario === 'succeed') return base;
  const scenario = PLAN_SCENARIOS.get(recipe.scenario);
  if (scenario?.plan === undefined) throw new RangeError(`No plan for scenario ${recipe.scenario}`);
  return scenario.plan(base, recipe.arg, random);
}

/** The fields of a blueprint's task ID, and the extras it needs when something does not fit. */
export function fieldsOf(
  blueprint: TaskBlueprint,
  settings: PlanSettings,
): { fields: TaskIdFields; extras: TaskExtras | undefined } {
  const { recipe } = blueprint;
  const code = codeFor(recipe.scenario, recipe.failByRate);
  const arg = code?.encodeArg(recipe.arg);
  const decoded =
    code === undefined || arg === undefined ? undefined : recipeOf(code.code, arg, recipe);
  // A code that drops the argument fits only if the scenario ignores it: the plans must be the same.
  const scenarioFits =
    decoded !== undefined &&
    (decoded.arg === recipe.arg ||
      samePlan(planFromRecipe(recipe, settings), planFromRecipe(decoded, settings)));
  const secondsFit = fits('seconds', blueprint.seconds);
  const extras: TaskExtras = {
    ...(scenarioFits ? {} : { scenario: recipe.scenario, arg: recipe.arg }),
    ...(secondsFit ? {} : { seconds: blueprint.seconds }),
  };
  const fields: TaskIdFields = {
    createdAt: blueprint.createdAt,
    draw: recipe.draw,
    model: BUILT_IN_MODELS.indexOf(blueprint.model),
    seconds: secondsFit ? blueprint.seconds : 0,
    scenario: scenarioFits ? code!.code : EXTRAS_CODE,
    arg: scenarioFits ? arg! : 0,
    profile: PROFILE_ORDER.indexOf(recipe.profile),
    extras: !(scenarioFits && secondsFit),
  };
  return { fields, extras: fields.extras ? extras : undefined };
}

/** The blueprint a task ID's fields (and extras) describe; `undefined` when they name nothing known. */
export function blueprintOf(
  fields: TaskIdFields,
  extras: TaskExtras | undefined,
): TaskBlueprint | undefined {
  const model = BUILT_IN_MODELS[fields.model];
  const profile = PROFILE_ORDER[fields.profile];
  if (model === undefined || profile === undefined || fields.extras !== (extras !== undefined))
    return undefined;
  const base = { draw: fields.draw, profile, failByRate: false };
  const named = extras?.scenario;
  const recipe =
    fields.scenario !== EXTRAS_CODE
      ? recipeOf(fields.scenario, fields.arg, base)
      : named !== undefined && PLAN_SCENARIOS.has(named)
        ? { ...base, scenario: named, arg: extras?.arg }
        : undefined;
  if (recipe === undefined) return undefined;
  return {
    createdAt: fields.createdAt,
    model,
    seconds: extras?.seconds ?? fields.seconds,
    recipe,
  };
}

function recipeOf(
  code: number,
  arg: number,
  base: Pick<PlanRecipe, 'draw' | 'profile'>,
): PlanRecipe | undefined {
  const scenario = scenarioCode(code);
  if (scenario === undefined) return undefined;
  return {
    draw: base.draw,
    profile: base.profile,
    scenario: scenario.scenario,
    arg: scenario.decodeArg(arg),
    failByRate: scenario.failByRate ?? false,
  };
}

function samePlan(a: TaskPlan, b: TaskPlan): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof TaskPlan>;
  for (const key of keys) if (!Object.is(a[key], b[key])) return false;
  return true;
}

/** The channel type a task was routed to: the second family only runs once bound (type 61, §1). */
export function platformOf(model: CatalogModel): string {
  return String(
    model.family === 'second' ? SECOND_FAMILY.pluginChannelType : SECOND_FAMILY.builtInChannelType,
  );
}

/** Quota units charged: the model's price per second × seconds. */
export function quotaOf(model: CatalogModel, seconds: number): number {
  return Math.round(seconds * model.pricePerSecond * 1000) / 1000;
}
