import type { OperationWith } from '../../../src/spec/route-roles.ts';
import { CLIENT_REQUEST_ID_HEADERS } from '../../../src/spec/client-request-id.ts';
import { GATEWAY_DURATION, route as routeModel, type CatalogModel } from '../keys/catalog.ts';
import { keepTask, mintTask, type MintState } from './create-task.ts';
import { jsonResponse, type CoreResponse, type LostAnswer } from '../http/http-types.ts';
import { createRandom } from '../plan/random.ts';
import { renderVideoTask } from '../render/render.ts';
import {
  ScenarioArgumentError,
  chooseScenario,
  scenarioNames,
  type ScenarioChoice,
} from '../plan/scenarios.ts';
import type { TaskRecord } from '../task/task-record.ts';
import type { RouteContext, ServiceState } from '../service/service-state.ts';
import { checkContentItems } from './content-items.ts';
import { parseSubmissionBody, type BodyState, type Refusal } from './request-body.ts';
import type { QueryState } from './query.ts';

/**
 * What the submissions read of the service (§4.1, §4.5): the body's reading, the models and the
 * family's binding, the lifecycle's first state, the task's making and its first answer.
 */
export type SubmitState = QueryState &
  BodyState &
  MintState &
  Pick<ServiceState, 'family' | 'lifecycle' | 'models'>;
type SubmitContext = RouteContext<SubmitState>;

export { parseJsonBody, type Refusal } from './request-body.ts';

/**
 * `POST /v1/video/generations` and `POST /v1/videos` (§4.1): checks in the deployed gateway's order
 * (media type, size, JSON, scenario, model, routing, fields, duration, quota, channel, upstream), then
 * creates the task and answers at once with its queued state. A refused submission creates nothing.
 */
export function submitTask(
  context: SubmitContext,
  operationId: OperationWith<{ kind: 'submit'; form: 'openai' }>,
): CoreResponse {
  const refusalOrTask = admit(context, operationId);
  if ('kind' in refusalOrTask)
    return context.error(refusalOrTask.kind, refusalOrTask.detail, refusalOrTask.headers);
  const { task, lost } = refusalOrTask;
  const { state } = context;
  // The answer is the lifecycle's initial state, whatever the plan says next (§4.1: normally queued).
  const initial = state.lifecycle.initial.values[0]!;
  context.taskId = task.id;
  context.taskStatus = initial;
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
  const headers = state.profile.otherRatiosHeader
    ? { 'x-new-api-other-ratios': JSON.stringify({ seconds: task.seconds }) }
    : {};
  return { ...jsonResponse(200, body, headers), lost };
}

/** Runs every check of a submission; creates and stores the task when all pass. */
export function admit(
  context: SubmitContext,
  operationId: string,
  bodyOverride?: Record<string, unknown>,
): Refusal | { task: TaskRecord; lost: LostAnswer | undefined } {
  const clientRequestId = clientRequestIdOf(context.request.headers);
  if (typeof clientRequestId === 'object') return clientRequestId;
  let body = bodyOverride;
  if (body === undefined) {
    const parsed = parseSubmissionBody(context);
    if ('kind' in parsed) return parsed;
    body = parsed.value;
  }
  context.body ??= body;
  const { state, token } = context;

  const choice = scenarioOf(context, body);
  if ('kind' in choice) return choice;
  if (choice.scenario.stage === 'front') return choice.scenario.refuse!(choice.arg, state.clock);

  const routed = routedModel(context, body['model']);
  if ('kind' in routed) return routed;
  const invalid = checkFields(context, operationId, body, routed);
  if (invalid !== undefined) return invalid;
  if (token.quota === 'exhausted') return { kind: 'insufficient_user_quota' };
  if (routed.family === 'second' && !state.family.bound)
    return {
      kind: 'upstream_refused',
      detail: { upstream: unboundUpstreamAnswer(body['model'] as string) },
    };
  if (choice.scenario.stage === 'upstream') return choice.scenario.refuse!(choice.arg, state.clock);
  return createTask(context, body, choice, routed, clientRequestId);
}

/** The scenario a submission asks for (§ the mock's scenarios), or why it cannot be run. */
function scenarioOf(
  context: SubmitContext,
  body: Record<string, unknown>,
): ScenarioChoice | Refusal {
  const choice = chooseScenario(context.request.headers['x-mock-scenario'], body['prompt']);
  if ('unknown' in choice)
    return {
      kind: 'unknown_scenario',
      detail: { problem: choice.unknown, upstream: scenarioNames() },
    };
  if ('invalid' in choice)
    return { kind: 'invalid_scenario_argument', detail: { problem: choice.invalid } };
  const argumentProblem = checkScenarioArgument(choice);
  if (argumentProblem !== undefined)
    return { kind: 'invalid_scenario_argument', detail: { problem: argumentProblem } };
  return choice;
}

/** The catalog model a submission names and the caller's key may use, or the refusal. */
function routedModel(context: SubmitContext, model: unknown): CatalogModel | Refusal {
  const { state, token } = context;
  if (model === undefined || model === null || model === '') return { kind: 'model_required' };
  if (typeof model !== 'string')
    return { kind: 'invalid_request', detail: { problem: 'model must be a string' } };
  const routing = routeModel(state.models, token, model);
  if (!routing.ok)
    return {
      kind: routing.reason === 'token_model_not_allowed' ? 'model_not_allowed' : 'model_not_found',
      detail: { model, group: token.group },
    };
  return routing.model;
}

/** Mints and keeps the task of an admitted submission, remembering its client request ID. */
function createTask(
  context: SubmitContext,
  body: Record<string, unknown>,
  choice: ScenarioChoice,
  model: CatalogModel,
  clientRequestId: string | undefined,
): Refusal | { task: TaskRecord; lost: LostAnswer | undefined } {
  const { state, token } = context;
  const explicit =
    choice.scenario.name !== 'succeed' || context.request.headers['x-mock-scenario'] !== undefined;
  const minted = mintTask(state, {
    owner: token.user,
    model,
    seconds: requestedSeconds(body, model),
    scenario: choice.scenario.name,
    arg: choice.arg,
    explicit,
  });
  // Every ID of this submission at this instant is taken (decisions/010): nothing is created.
  if (minted === undefined)
    return { kind: 'temporarily_unavailable', headers: { 'retry-after': '1' } };
  if (clientRequestId !== undefined) state.apply({ op: 'request-id', id: clientRequestId });
  return { task: keepTask(state, minted), lost: choice.scenario.lose?.(choice.arg) };
}

/**
 * The client's own request ID (`X-Request-Id`, else `Idempotency-Key`; an empty one is none), or a
 * refusal naming the header when it is longer than the spec's `maxLength` (issue 24 item 10: the mock
 * keeps a record of each, and 12 KB IDs cost it 65 MB per 4,000 submissions).
 */
function clientRequestIdOf(
  headers: Readonly<Record<string, string | undefined>>,
): string | undefined | Refusal {
  for (const { name, display, maxLength } of CLIENT_REQUEST_ID_HEADERS) {
    const value = headers[name];
    if (value === undefined || value === '') continue;
    if (value.length <= maxLength) return value;
    const problem = `${display} is ${value.length} characters long: at most ${maxLength} are accepted`;
    return { kind: 'invalid_request', detail: { problem } };
  }
  return undefined;
}

function checkScenarioArgument(choice: ScenarioChoice): string | undefined {
  try {
    if (choice.scenario.refuse !== undefined) choice.scenario.refuse(choice.arg, { speed: 1 });
    else
      choice.scenario.plan?.(
        { unknownMs: 0, queueMs: 1, runMs: 1, outcome: 'succeed', scenario: 'check' },
        choice.arg,
        createRandom(0),
      );
    choice.scenario.lose?.(choice.arg);
    return undefined;
  } catch (error) {
    if (error instanceof ScenarioArgumentError) return error.message;
    throw error;
  }
}

function checkFields(
  context: SubmitContext,
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
  return (
    lengthProblem(body, metadata, model) ??
    (model.family === 'second' ? secondFamilyProblem(metadata, model) : undefined)
  );
}

/** `metadata.duration` or `seconds` within the model's range (the gateway's for the first family). */
function lengthProblem(
  body: Record<string, unknown>,
  metadata: Record<string, unknown>,
  model: CatalogModel,
): Refusal | undefined {
  const range = model.family === 'second' ? model.duration : GATEWAY_DURATION;
  const duration = metadata['duration'];
  if (typeof duration === 'number' && !(duration >= range.min && duration <= range.max))
    return {
      kind: 'invalid_seconds',
      detail: {
        problem:
          `metadata.duration must be between ${range.min} and ${range.max} seconds ` +
          `for ${model.id}, got ${duration}`,
      },
    };
  const seconds = body['seconds'];
  if (typeof seconds === 'string') {
    const n = Number(seconds);
    if (seconds.trim() === '' || !Number.isFinite(n) || n < range.min || n > range.max)
      return {
        kind: 'invalid_seconds',
        detail: {
          problem:
            `seconds must be a number of seconds between ${range.min} and ` +
            `${range.max} (as a string) for ${model.id}, got "${seconds}"`,
        },
      };
  }
  return undefined;
}

/** The second family's resolution tiers and reference items (§2.1). */
function secondFamilyProblem(
  metadata: Record<string, unknown>,
  model: CatalogModel,
): Refusal | undefined {
  const resolution = metadata['resolution'];
  if (
    typeof resolution === 'string' &&
    model.resolutions !== undefined &&
    !model.resolutions.includes(resolution)
  )
    return {
      kind: 'invalid_request',
      detail: {
        problem:
          `metadata.resolution ${resolution} is not offered by ${model.id}: use ` +
          `one of ${model.resolutions.join(', ')}`,
      },
    };
  const content = checkContentItems(metadata['content'], 'metadata.content');
  if (content !== undefined) return { kind: 'invalid_request', detail: { problem: content } };
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
