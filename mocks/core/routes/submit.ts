import {
  GATEWAY_DURATION,
  channelType,
  route as routeModel,
  type CatalogModel,
} from '../catalog.ts';
import type { ErrorDetail, ErrorKind } from '../errors.ts';
import { jsonResponse, type CoreResponse } from '../http-types.ts';
import { drawPlan, type TaskPlan } from '../plan.ts';
import { createRandom, taskId } from '../random.ts';
import { renderVideoTask } from '../render.ts';
import {
  ScenarioArgumentError,
  chooseScenario,
  scenarioNames,
  type ScenarioChoice,
} from '../scenarios.ts';
import { TaskRecord } from '../store.ts';
import type { RouteContext } from '../service-state.ts';
import { checkContentItems } from './content-items.ts';

export type Refusal = {
  readonly kind: ErrorKind;
  readonly detail?: ErrorDetail;
  readonly headers?: Record<string, string>;
};

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * `POST /v1/video/generations` and `POST /v1/videos` (§4.1): checks in the deployed gateway's order
 * (media type, size, JSON, scenario, model, routing, fields, duration, quota, channel, upstream), then
 * creates the task and answers at once with its queued state. A refused submission creates nothing.
 */
export function submitTask(
  context: RouteContext,
  operationId: 'createVideoGeneration' | 'createVideo',
): CoreResponse {
  const refusalOrTask = admit(context, operationId);
  if ('kind' in refusalOrTask)
    return context.state.error(refusalOrTask.kind, refusalOrTask.detail, refusalOrTask.headers);
  const { task } = refusalOrTask;
  const { state } = context;
  // The answer is the lifecycle's initial state, whatever the plan says next (§4.1: normally queued).
  const initial = state.lifecycle.initial.values[0]!;
  // A submission answer is the bare §4.1 object with progress 0, in every profile.
  const body = renderVideoTask(
    task,
    { status: initial, progress: 0, updatedAt: task.createdAt },
    undefined,
    {
      ...state.profile,
      completedAtWhileRunning: false,
      emptyUrlUntilDone: false,
      progressSteps: undefined,
    },
  );
  return jsonResponse(
    200,
    body,
    state.profile.otherRatiosHeader
      ? { 'x-new-api-other-ratios': JSON.stringify({ seconds: task.seconds }) }
      : {},
  );
}

/** Runs every check of a submission; creates and stores the task when all pass. */
export function admit(
  context: RouteContext,
  operationId: string,
  bodyOverride?: Record<string, unknown>,
): Refusal | { task: TaskRecord } {
  let body = bodyOverride;
  if (body === undefined) {
    const parsed = parseJsonBody(context);
    if ('kind' in parsed) return parsed;
    body = parsed.value;
  }
  const { state, token } = context;

  const choice = chooseScenario(context.request.headers['x-mock-scenario'], body['prompt']);
  if ('unknown' in choice)
    return {
      kind: 'unknown_scenario',
      detail: { problem: choice.unknown, upstream: scenarioNames() },
    };
  const argumentProblem = checkScenarioArgument(choice);
  if (argumentProblem !== undefined)
    return { kind: 'invalid_scenario_argument', detail: { problem: argumentProblem } };
  if (choice.scenario.stage === 'front') return choice.scenario.refuse!(choice.arg);

  const model = body['model'];
  if (model === undefined || model === null || model === '') return { kind: 'model_required' };
  if (typeof model !== 'string')
    return { kind: 'invalid_request', detail: { problem: 'model must be a string' } };
  const routing = routeModel(state.models, token, model);
  if (!routing.ok)
    return {
      kind: routing.reason === 'token_model_not_allowed' ? 'model_not_allowed' : 'model_not_found',
      detail: { model, group: token.group },
    };

  const invalid = checkFields(context, operationId, body, routing.model);
  if (invalid !== undefined) return invalid;
  if (token.quota === 'exhausted') return { kind: 'insufficient_user_quota' };
  if (routing.model.family === 'second' && !state.family.bound)
    return { kind: 'upstream_refused', detail: { upstream: unboundUpstreamAnswer(model) } };
  if (choice.scenario.stage === 'upstream') return choice.scenario.refuse!(choice.arg);

  const requestId =
    context.request.headers['x-request-id'] ?? context.request.headers['idempotency-key'];
  if (requestId !== undefined)
    state.submissionsByRequestId.set(
      requestId,
      (state.submissionsByRequestId.get(requestId) ?? 0) + 1,
    );
  const now = state.clock.now();
  let id = taskId(state.random);
  while (state.store.get(id) !== undefined) id = taskId(state.random);
  const explicit =
    choice.scenario.name !== 'succeed' || context.request.headers['x-mock-scenario'] !== undefined;
  const base = drawPlan({
    random: state.random,
    timing: state.settings.timing,
    failureRate: explicit ? 0 : state.settings.failureRate,
    unknownFirstMs: state.profile.unknownFirstMs,
  });
  const plan: TaskPlan =
    choice.scenario.name === 'succeed'
      ? base
      : choice.scenario.plan!(base, choice.arg, state.random);
  const seconds = requestedSeconds(body, routing.model);
  const task = new TaskRecord(
    id,
    token.user,
    model,
    now,
    plan,
    String(channelType(state.family, routing.model)),
    seconds,
    Math.round(seconds * routing.model.pricePerSecond * 1000) / 1000,
    state.store.nextRow(),
  );
  state.store.add(task);
  return { task };
}

/** The JSON object body of a POST, or why it is refused (415, 413, 400). */
export function parseJsonBody({
  request,
  state,
}: RouteContext): { value: Record<string, unknown> } | Refusal {
  const contentType = request.headers['content-type'] ?? '';
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json')
    return { kind: 'unsupported_media_type', detail: { contentType } };
  const bytes = request.body ?? new Uint8Array();
  if (request.bodyTooLarge === true || bytes.byteLength > state.settings.maxBodyBytes)
    return { kind: 'body_too_large', detail: { limit: state.settings.maxBodyBytes } };
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch (error) {
    const problem = error instanceof SyntaxError ? error.message : 'the body is not UTF-8 text';
    return {
      kind: 'invalid_json',
      detail: { problem: bytes.byteLength === 0 ? 'the body is empty' : problem },
    };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return {
      kind: 'invalid_request',
      detail: { problem: 'the body must be a JSON object (§2.1)' },
    };
  return { value: value as Record<string, unknown> };
}

function checkScenarioArgument(choice: ScenarioChoice): string | undefined {
  try {
    if (choice.scenario.refuse !== undefined) choice.scenario.refuse(choice.arg);
    else
      choice.scenario.plan?.(
        { unknownMs: 0, queueMs: 1, runMs: 1, outcome: 'succeed', scenario: 'check' },
        choice.arg,
        createRandom(0),
      );
    return undefined;
  } catch (error) {
    if (error instanceof ScenarioArgumentError) return error.message;
    throw error;
  }
}

function checkFields(
  context: RouteContext,
  operationId: string,
  body: Record<string, unknown>,
  model: CatalogModel,
): Refusal | undefined {
  const prompt = body['prompt'];
  if (
    prompt === undefined ||
    prompt === null ||
    (typeof prompt === 'string' && prompt.trim() === '')
  )
    return { kind: 'prompt_required' };
  const result = context.state.validators.request(operationId)!.validate(body);
  if (!result.valid)
    return {
      kind: 'invalid_request',
      detail: { problem: result.errors.map(readablePointer).join('; ') },
    };

  const metadata = (body['metadata'] ?? {}) as Record<string, unknown>;
  const range = model.family === 'second' ? model.duration : GATEWAY_DURATION;
  const duration = metadata['duration'];
  if (typeof duration === 'number' && !(duration >= range.min && duration <= range.max))
    return {
      kind: 'invalid_seconds',
      detail: {
        problem: `metadata.duration must be between ${range.min} and ${range.max} seconds for ${model.id}, got ${duration}`,
      },
    };
  const seconds = body['seconds'];
  if (typeof seconds === 'string') {
    const n = Number(seconds);
    if (seconds.trim() === '' || !Number.isFinite(n) || n < range.min || n > range.max)
      return {
        kind: 'invalid_seconds',
        detail: {
          problem: `seconds must be a number of seconds between ${range.min} and ${range.max} (as a string) for ${model.id}, got "${seconds}"`,
        },
      };
  }
  if (model.family === 'second') {
    const resolution = metadata['resolution'];
    if (
      typeof resolution === 'string' &&
      model.resolutions !== undefined &&
      !model.resolutions.includes(resolution)
    )
      return {
        kind: 'invalid_request',
        detail: {
          problem: `metadata.resolution ${resolution} is not offered by ${model.id}: use one of ${model.resolutions.join(', ')}`,
        },
      };
    const content = checkContentItems(metadata['content'], 'metadata.content');
    if (content !== undefined) return { kind: 'invalid_request', detail: { problem: content } };
  }
  return undefined;
}

function requestedSeconds(body: Record<string, unknown>, model: CatalogModel): number {
  const duration = (body['metadata'] as Record<string, unknown> | undefined)?.['duration'];
  if (typeof duration === 'number') return duration;
  if (typeof body['seconds'] === 'string') return Number(body['seconds']);
  if (typeof body['duration'] === 'number') return body['duration'];
  return model.duration.default;
}

/** `/metadata/duration must be number` → `metadata.duration must be number`. */
export function readablePointer(error: string): string {
  return error
    .replace(/^\(body\) /, '')
    .replace(/^\/(\S*)/, (_m, p: string) => p.replace(/\//g, '.'));
}

/** What the upstream answers when the built-in type-54 channel forwards a second-family model it does not serve. */
function unboundUpstreamAnswer(model: string): string {
  return JSON.stringify({
    error: {
      code: 'InvalidParameter',
      message: `The model or endpoint ${model} does not exist or you do not have access to it.`,
      param: 'model',
      type: 'BadRequest',
    },
  });
}
