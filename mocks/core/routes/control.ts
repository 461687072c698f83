import type { components } from '../../../src/generated/mock-control.ts';
import { advanceProblem } from '../clock.ts';
import { controlError } from '../http/errors.ts';
import { jsonResponse, type CoreResponse } from '../http/http-types.ts';
import { forcePlan, snapshot } from '../plan/snapshot.ts';
import { UPSTREAM_FAILURES } from '../plan/plan.ts';
import { SCENARIOS } from '../plan/scenarios.ts';
import { SECOND_FAMILY_MODELS, type FamilyState } from '../keys/catalog.ts';
import { SECOND_FAMILY } from '../../../src/spec/second-family.ts';
import type { ServiceState } from '../service/service-state.ts';
import { TaskRecord } from '../task/task-record.ts';

type Schemas = components['schemas'];

/**
 * What the control API reads of the service (spec/mock-control.yaml): the clock, the tasks, the
 * family's binding, the profile and defects it reports, its verdicts and the changes it makes.
 */
export type ControlState = Pick<
  ServiceState,
  'apply' | 'clientVerdicts' | 'clock' | 'defectNames' | 'family' | 'profile' | 'reset' | 'store'
>;

export function clockState(state: ControlState): Schemas['ClockState'] {
  return { now: state.clock.now(), mode: state.clock.mode, speed: state.clock.speed };
}

export function inspectTask(state: ControlState, task: TaskRecord): Schemas['TaskInspection'] {
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
  return {
    id: task.id,
    owner: task.owner,
    model: task.model,
    createdAt: task.createdAt,
    plan: shownPlan,
    status: snap.status,
    progress: snap.progress,
    channelType: Number(task.platform),
    charge: { seconds: task.seconds, quota: task.quota },
  };
}

export function listScenarios(): CoreResponse {
  return jsonResponse(200, {
    scenarios: SCENARIOS.map((s) =>
      s.argument === undefined
        ? { name: s.name, description: s.description }
        : { name: s.name, argument: s.argument, description: s.description },
    ),
  });
}

/** The mock's health: its profile, clock, task count, family binding and defects (getMockHealth). */
export function mockHealth(state: ControlState): CoreResponse {
  return jsonResponse(200, {
    status: 'ok',
    profile: state.profile.name,
    clock: clockState(state),
    tasks: state.store.size,
    family: familyState(state.family),
    defects: state.defectNames,
  });
}

/** The task `taskId`, or the control API's 404 naming it. */
function taskOr404(state: ControlState, taskId: string): TaskRecord | CoreResponse {
  return state.store.get(taskId) ?? controlError(404, 'task_not_found', `No task ${taskId}`);
}

/** One task as the mock sees it (getMockTask). */
export function getTask(state: ControlState, taskId: string): CoreResponse {
  const task = taskOr404(state, taskId);
  return task instanceof TaskRecord ? jsonResponse(200, inspectTask(state, task)) : task;
}

/** Forces a task's outcome from now on (`spec/mock-control.yaml` forceMockTaskOutcome). */
export function forceOutcome(state: ControlState, taskId: string, body: unknown): CoreResponse {
  const task = taskOr404(state, taskId);
  if (!(task instanceof TaskRecord)) return task;
  const b = (body ?? {}) as Record<string, unknown>;
  const outcome = b['outcome'];
  if (outcome !== 'succeed' && outcome !== 'fail' && outcome !== 'stuck')
    return controlError(400, 'invalid_request', 'outcome must be "succeed", "fail" or "stuck"');
  const afterMs = b['afterMs'] ?? 0;
  if (typeof afterMs !== 'number' || !Number.isInteger(afterMs) || afterMs < 0)
    return controlError(
      400,
      'invalid_request',
      'afterMs must be a non-negative integer (milliseconds from now)',
    );
  const refused = outcomeFieldsProblem(b);
  if (refused !== undefined) return refused;
  const fallback = UPSTREAM_FAILURES.find((f) => f.code === b['code']) ?? UPSTREAM_FAILURES[0]!;
  const plan = forcePlan(task.createdAt, task.plan, state.clock.now(), {
    outcome,
    afterMs,
    errorCode: (b['code'] as string | undefined) ?? fallback.code,
    errorMessage: (b['message'] as string | undefined) ?? fallback.message,
  });
  if (plan === undefined)
    return controlError(
      409,
      'task_finished',
      `Task ${taskId} has already finished; its final state does not change`,
    );
  state.apply({ op: 'force', task: task.id, plan });
  return jsonResponse(200, inspectTask(state, task));
}

/** The optional `code` and `message` are non-empty strings; no other field is sent. */
function outcomeFieldsProblem(b: Record<string, unknown>): CoreResponse | undefined {
  for (const field of ['code', 'message'] as const)
    if (b[field] !== undefined && (typeof b[field] !== 'string' || b[field] === ''))
      return controlError(400, 'invalid_request', `${field} must be a non-empty string`);
  const unknown = Object.keys(b).filter(
    (k) => !['outcome', 'afterMs', 'code', 'message'].includes(k),
  );
  if (unknown.length > 0)
    return controlError(
      400,
      'invalid_request',
      `Unknown field ${unknown.join(', ')}: send outcome, code, message, afterMs`,
    );
  return undefined;
}

export function familyState(family: FamilyState): Schemas['FamilyBinding'] {
  return {
    bound: family.bound,
    channelType: family.bound ? SECOND_FAMILY.pluginChannelType : SECOND_FAMILY.builtInChannelType,
    pluginVersion: family.pluginVersion,
    models: [...SECOND_FAMILY_MODELS],
  };
}

/** Binds or unbinds the second model family (setMockFamily). */
export function setFamily(state: ControlState, body: unknown): CoreResponse {
  const bound = (body as { bound?: unknown } | null)?.bound;
  if (typeof bound !== 'boolean')
    return controlError(400, 'invalid_request', 'Send {"bound": true} or {"bound": false}');
  state.apply({ op: 'bind', bound });
  return jsonResponse(200, familyState(state.family));
}

/** Forgets the client verdicts so far (clearMockClientReport). */
export function clearClientReport(state: ControlState): CoreResponse {
  state.clientVerdicts.clear();
  return jsonResponse(200, { cleared: true });
}

/** Back to a fresh mock: no task, the clock and family as started (resetMock). */
export function resetMock(state: ControlState): CoreResponse {
  state.reset();
  return jsonResponse(200, { reset: true });
}

export function listTasks(state: ControlState, query: string): CoreResponse {
  const owner = new URLSearchParams(query).get('owner');
  const tasks: Schemas['TaskInspection'][] = [];
  for (const task of state.store.values())
    if (owner === null || task.owner === owner) tasks.push(inspectTask(state, task));
  return jsonResponse(200, { tasks });
}

export const MAX_ADVANCE_MS = 10 * 365 * 24 * 3_600_000;

export function advanceClock(state: ControlState, body: unknown): CoreResponse {
  const ms = (body as { ms?: unknown } | null)?.ms;
  const extra = Object.keys(body ?? {}).filter((k) => k !== 'ms');
  // One call moves at most ten years: the clock must stay a finite Unix time.
  if (
    typeof ms !== 'number' ||
    !Number.isInteger(ms) ||
    ms < 0 ||
    ms > MAX_ADVANCE_MS ||
    extra.length > 0
  )
    return controlError(
      400,
      'invalid_request',
      'Send {"ms": <integer from 0 to 315360000000>}: the milliseconds to move ' +
        'the clock forward (at most ten years a call)',
    );
  // The clock stays a Date: ±8.64e15 ms (issue 14: past it, a restart could not read the time back).
  const beyond = advanceProblem(state.clock.now(), ms);
  if (beyond !== undefined)
    return controlError(400, 'invalid_request', `Cannot advance: ${beyond}`);
  state.apply({ op: 'advance', ms });
  return jsonResponse(200, clockState(state));
}
