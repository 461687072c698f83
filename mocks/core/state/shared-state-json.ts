import type { Outcome, TaskPlan } from '../plan/plan.ts';
import type { Operation, TaskExtras } from './shared-state.ts';
import { TASK_ID_PATTERN } from '../task-id/task-id-codec.ts';

/**
 * The shared state's parts as JSON (a state file's lines; later, messages between workers), and back
 * with every field checked. Readers call `fail(problem)`, which throws (a state file names the line).
 */
export type Fail = (problem: string) => never;

type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function onlyKeys(value: Json, allowed: readonly string[], fail: Fail, prefix = ''): void {
  const unknown = Object.keys(value).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) fail(`unknown field ${unknown.map((k) => prefix + k).join(', ')}`);
}

export function finite(value: unknown, name: string, fail: Fail): number {
  return typeof value === 'number' && Number.isFinite(value)
    ? value
    : fail(`${name} must be a number`);
}

export function integer(value: unknown, name: string, min: number, fail: Fail): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min
    ? value
    : fail(`${name} must be an integer ≥ ${min}`);
}

export function taskIdOf(value: unknown, name: string, fail: Fail): string {
  return typeof value === 'string' && TASK_ID_PATTERN.test(value)
    ? value
    : fail(`${name} must be a task ID (task_ and 32 letters or digits)`);
}

/** A plan as JSON: a stuck task's `runMs` (Infinity) is written `"Infinity"`. */
export function planToJson(plan: TaskPlan): Json {
  return Number.isFinite(plan.runMs) ? { ...plan } : { ...plan, runMs: 'Infinity' };
}

const PLAN_KEYS = [
  'unknownMs',
  'queueMs',
  'runMs',
  'outcome',
  'errorCode',
  'errorMessage',
  'scenario',
  'flakyEvery',
  'progressFloor',
];
const OUTCOMES: readonly string[] = ['succeed', 'fail', 'stuck'];

export function planFromJson(raw: unknown, fail: Fail, where = 'plan'): TaskPlan {
  if (!isObject(raw)) return fail(`${where} must be an object`);
  onlyKeys(raw, PLAN_KEYS, fail, `${where}.`);
  const runMs =
    raw['runMs'] === 'Infinity'
      ? Number.POSITIVE_INFINITY
      : finite(raw['runMs'], `${where}.runMs (or "Infinity")`, fail);
  const outcome = raw['outcome'];
  if (typeof outcome !== 'string' || !OUTCOMES.includes(outcome))
    fail(`${where}.outcome must be one of ${OUTCOMES.join(', ')}`);
  if (typeof raw['scenario'] !== 'string') fail(`${where}.scenario must be a string`);
  for (const key of ['errorCode', 'errorMessage'])
    if (raw[key] !== undefined && typeof raw[key] !== 'string')
      fail(`${where}.${key} must be a string`);
  const plan: { -readonly [K in keyof TaskPlan]: TaskPlan[K] } = {
    unknownMs: finite(raw['unknownMs'], `${where}.unknownMs`, fail),
    queueMs: finite(raw['queueMs'], `${where}.queueMs`, fail),
    runMs,
    outcome: outcome as Outcome,
    scenario: raw['scenario'],
  };
  if (raw['errorCode'] !== undefined) plan.errorCode = raw['errorCode'] as string;
  if (raw['errorMessage'] !== undefined) plan.errorMessage = raw['errorMessage'] as string;
  if (raw['flakyEvery'] !== undefined)
    plan.flakyEvery = integer(raw['flakyEvery'], `${where}.flakyEvery`, 1, fail);
  if (raw['progressFloor'] !== undefined)
    plan.progressFloor = finite(raw['progressFloor'], `${where}.progressFloor`, fail);
  return plan;
}

export function extrasFromJson(raw: unknown, fail: Fail, where = 'extras'): TaskExtras {
  if (!isObject(raw)) return fail(`${where} must be an object`);
  onlyKeys(raw, ['scenario', 'arg', 'seconds'], fail, `${where}.`);
  for (const key of ['scenario', 'arg'])
    if (raw[key] !== undefined && typeof raw[key] !== 'string')
      fail(`${where}.${key} must be a string`);
  const extras: { -readonly [K in keyof TaskExtras]: TaskExtras[K] } = {};
  if (raw['scenario'] !== undefined) extras.scenario = raw['scenario'] as string;
  if (raw['arg'] !== undefined) extras.arg = raw['arg'] as string;
  if (raw['seconds'] !== undefined)
    extras.seconds = finite(raw['seconds'], `${where}.seconds`, fail);
  return extras;
}

/** An operation as JSON (its plan, if any, with `planToJson`). */
export function operationToJson(operation: Operation): Json {
  return operation.op === 'force' ? { ...operation, plan: planToJson(operation.plan) } : operation;
}

/** An operation from JSON; `advance` is not one a file holds (it keeps clock positions instead). */
export function operationFromJson(raw: unknown, fail: Fail): Operation {
  if (!isObject(raw)) return fail('op must be an object');
  const keys = (...names: string[]) => onlyKeys(raw, ['op', ...names], fail, 'op.');
  switch (raw['op']) {
    case 'force':
      keys('task', 'plan');
      return {
        op: 'force',
        task: taskIdOf(raw['task'], 'op.task', fail),
        plan: planFromJson(raw['plan'], fail, 'op.plan'),
      };
    case 'bind':
    case 'reset': {
      const field = raw['op'] === 'bind' ? 'bound' : 'familyBound';
      keys(field);
      if (typeof raw[field] !== 'boolean') fail(`op.${field} must be true or false`);
      return raw['op'] === 'bind'
        ? { op: 'bind', bound: raw[field] }
        : { op: 'reset', familyBound: raw[field] };
    }
    case 'extras':
      keys('task', 'extras');
      return {
        op: 'extras',
        task: taskIdOf(raw['task'], 'op.task', fail),
        extras: extrasFromJson(raw['extras'], fail, 'op.extras'),
      };
    case 'request-id':
      keys('id');
      if (typeof raw['id'] !== 'string') fail('op.id must be a string');
      return { op: 'request-id', id: raw['id'] };
    case 'query':
      keys('task');
      return { op: 'query', task: taskIdOf(raw['task'], 'op.task', fail) };
    default:
      return fail(
        `op.op must be force, bind, reset, extras, request-id or query, got ${JSON.stringify(raw['op'])}`,
      );
  }
}
