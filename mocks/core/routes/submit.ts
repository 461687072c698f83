import { GATEWAY_DURATION, channelType, route as routeModel } from '../catalog.ts';
import { errorResponse, type ErrorKind, type ErrorDetail } from '../errors.ts';
import { jsonResponse, type CoreResponse } from '../http-types.ts';
import { drawPlan } from '../plan.ts';
import { taskId } from '../random.ts';
import { renderVideoTask } from '../render.ts';
import { TaskRecord } from '../store.ts';
import type { RouteContext } from '../service-state.ts';

type Refusal = { readonly kind: ErrorKind; readonly detail?: ErrorDetail };

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * `POST /v1/video/generations` and `POST /v1/videos` (§4.1): checks in the deployed gateway's order
 * (media type, size, JSON, model, routing, fields, duration, quota, channel), then creates the task and
 * answers at once with its queued state. A refused submission creates nothing.
 */
export function submitTask(context: RouteContext, operationId: 'createVideoGeneration' | 'createVideo'): CoreResponse {
  const parsed = parseJsonBody(context);
  if ('kind' in parsed) return errorResponse(parsed.kind, parsed.detail);
  const body = parsed.value;
  const { state, token } = context;

  const model = body['model'];
  if (model === undefined || model === null || model === '') return errorResponse('model_required');
  if (typeof model !== 'string') return errorResponse('invalid_request', { problem: 'model must be a string' });

  const routing = routeModel(state.models, state.family, token, model);
  if (!routing.ok) return errorResponse(routing.reason === 'token_model_not_allowed' ? 'model_not_allowed' : 'model_not_found', { model, group: token.group });

  const invalid = checkFields(context, operationId, body);
  if (invalid !== undefined) return errorResponse(invalid.kind, invalid.detail);
  if (token.quota === 'exhausted') return errorResponse('insufficient_user_quota');
  if (routing.model.family === 'second' && !state.family.bound) return errorResponse('upstream_refused', { upstream: unboundUpstreamAnswer(model) });

  const now = state.clock.now();
  let id = taskId(state.random);
  while (state.store.get(id) !== undefined) id = taskId(state.random);
  const plan = drawPlan({ random: state.random, timing: state.settings.timing, failureRate: state.settings.failureRate });
  const task = new TaskRecord(id, token.user, model, now, plan, String(channelType(state.family, routing.model)));
  state.store.add(task);
  // The answer is the lifecycle's initial state, whatever the plan says next (§4.1: normally queued).
  const initial = state.lifecycle.initial.values[0]!;
  return jsonResponse(200, renderVideoTask(task, { status: initial, progress: 0, updatedAt: now }, undefined));
}

/** The JSON object body of a POST, or why it is refused (415, 413, 400). */
export function parseJsonBody({ request, state }: RouteContext): { value: Record<string, unknown> } | Refusal {
  const contentType = request.headers['content-type'] ?? '';
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json') return { kind: 'unsupported_media_type', detail: { contentType } };
  const bytes = request.body ?? new Uint8Array();
  if (bytes.byteLength > state.settings.maxBodyBytes) return { kind: 'body_too_large', detail: { limit: state.settings.maxBodyBytes } };
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch (error) {
    const problem = error instanceof SyntaxError ? error.message : 'the body is not UTF-8 text';
    return { kind: 'invalid_json', detail: { problem: bytes.byteLength === 0 ? 'the body is empty' : problem } };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { kind: 'invalid_request', detail: { problem: 'the body must be a JSON object (§2.1)' } };
  return { value: value as Record<string, unknown> };
}

function checkFields(context: RouteContext, operationId: string, body: Record<string, unknown>): Refusal | undefined {
  const prompt = body['prompt'];
  if (prompt === undefined || prompt === null || (typeof prompt === 'string' && prompt.trim() === '')) return { kind: 'prompt_required' };
  const result = context.state.validators.request(operationId)!.validateFull(body);
  if (!result.valid) return { kind: 'invalid_request', detail: { problem: result.errors.map(readablePointer).join('; ') } };

  const metadata = (body['metadata'] ?? {}) as Record<string, unknown>;
  const duration = metadata['duration'];
  const seconds = body['seconds'];
  if (typeof duration === 'number' && !(duration >= GATEWAY_DURATION.min && duration <= GATEWAY_DURATION.max))
    return { kind: 'invalid_seconds', detail: { problem: `metadata.duration must be between ${GATEWAY_DURATION.min} and ${GATEWAY_DURATION.max} seconds, got ${duration}` } };
  if (typeof seconds === 'string') {
    const n = Number(seconds);
    if (seconds.trim() === '' || !Number.isFinite(n) || n < GATEWAY_DURATION.min || n > GATEWAY_DURATION.max)
      return { kind: 'invalid_seconds', detail: { problem: `seconds must be a number of seconds between ${GATEWAY_DURATION.min} and ${GATEWAY_DURATION.max} (as a string), got "${seconds}"` } };
  }
  return undefined;
}

/** `/metadata/duration must be number` → `metadata.duration must be number`. */
function readablePointer(error: string): string {
  return error.replace(/^\(body\) /, '').replace(/^\/(\S*)/, (_m, p: string) => p.replace(/\//g, '.'));
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
