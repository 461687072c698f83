import type { components } from '../../../src/generated/mock-control.ts';
import { jsonResponse, type CoreResponse } from '../http-types.ts';
import { snapshot } from '../snapshot.ts';
import { SECOND_FAMILY_MODELS, type FamilyState } from '../catalog.ts';
import type { ServiceState } from '../service-state.ts';
import type { TaskRecord } from '../store.ts';

type Schemas = components['schemas'];

/** Control API errors (`spec/mock-control.yaml` `ControlError`). */
export function controlError(status: number, code: string, message: string): CoreResponse {
  return jsonResponse(status, { error: { code, message } });
}

export function clockState(state: ServiceState): Schemas['ClockState'] {
  return { now: state.clock.now(), mode: state.clock.mode, speed: state.clock.speed };
}

export function inspectTask(state: ServiceState, task: TaskRecord): Schemas['TaskInspection'] {
  const snap = snapshot(task.createdAt, task.plan, state.clock.now());
  const { plan } = task;
  const shownPlan: Schemas['TaskPlan'] = {
    queueMs: plan.queueMs,
    // JSON has no Infinity: a task that never finishes shows the largest safe integer.
    runMs: Number.isFinite(plan.runMs) ? plan.runMs : Number.MAX_SAFE_INTEGER,
    outcome: plan.outcome,
    scenario: plan.scenario,
  };
  if (plan.errorCode !== undefined) shownPlan.errorCode = plan.errorCode;
  if (plan.errorMessage !== undefined) shownPlan.errorMessage = plan.errorMessage;
  return { id: task.id, owner: task.owner, model: task.model, createdAt: task.createdAt, plan: shownPlan, status: snap.status, progress: snap.progress };
}

export function familyState(family: FamilyState): Schemas['FamilyBinding'] {
  return { bound: family.bound, channelType: family.bound ? 61 : 54, pluginVersion: family.pluginVersion, models: [...SECOND_FAMILY_MODELS] };
}

export function listTasks(state: ServiceState, query: string): CoreResponse {
  const owner = new URLSearchParams(query).get('owner');
  const tasks: Schemas['TaskInspection'][] = [];
  for (const task of state.store.values()) if (owner === null || task.owner === owner) tasks.push(inspectTask(state, task));
  return jsonResponse(200, { tasks });
}

export function advanceClock(state: ServiceState, body: unknown): CoreResponse {
  const ms = (body as { ms?: unknown } | null)?.ms;
  if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0) return controlError(400, 'invalid_request', 'Send {"ms": <non-negative integer>}: the milliseconds to move the clock forward');
  state.clock.advance(ms);
  return jsonResponse(200, clockState(state));
}
