import { jsonResponse, type CoreResponse } from '../http/http-types.ts';
import { renderPluginTask } from '../render/render.ts';
import type { RouteContext } from '../service/service-state.ts';
import { checkContentItems } from './content-items.ts';
import { ownedTask, resultUrl, taskAnswer } from './query.ts';
import { admit, parseJsonBody, readablePointer, type SubmitState } from './submit.ts';

/** The native path reads what a submission and a status query read (§4.5). */
type PluginContext = RouteContext<SubmitState>;

/**
 * The second family's native path (§4.5): the upstream's own request and status shapes, for the same
 * tasks the OpenAI form shows. The two formats are never mixed in one request. While the plugin is not
 * bound to a channel (§1, today), no type-61 channel serves the family and routing refuses the model.
 */
export function createPluginTask(context: PluginContext, pluginName: string): CoreResponse {
  const { state } = context;
  const notPlugin = checkPluginName(context, pluginName);
  if (notPlugin !== undefined) return notPlugin;
  const parsed = parseJsonBody(context);
  if ('kind' in parsed) return context.error(parsed.kind, parsed.detail);
  const body = parsed.value;
  context.body = body;
  const model = body['model'];
  if (typeof model !== 'string' || model === '')
    return context.error('plugin_invalid_request', { problem: 'model is required' });
  const mixed = openAiFieldsIn(context, body);
  if (mixed.length > 0)
    return context.error('plugin_invalid_request', {
      problem:
        `This is the native path: send the upstream format (content[] with a ` +
        `text item), not the OpenAI form (${mixed.join(', ')}); OpenAI-form ` +
        `requests go to POST /v1/videos (§4.5: the two formats are not mixed in ` +
        `one request)`,
    });
  const refused = modelRefusal(context, model);
  if (refused !== undefined) return refused;

  const schema = state.validators.request('createPluginTask')!.validateFull(body);
  if (!schema.valid)
    return context.error('plugin_invalid_request', {
      problem: schema.errors.map(readablePointer).join('; '),
    });
  const content = body['content'] as Record<string, unknown>[];
  const itemsProblem = checkContentItems(content, 'content');
  if (itemsProblem !== undefined)
    return context.error('plugin_invalid_request', { problem: itemsProblem });
  const prompt = content
    .filter((c) => c['type'] === 'text')
    .map((c) => String(c['text']))
    .join(' ');
  const metadata: Record<string, unknown> = {};
  for (const key of ['duration', 'resolution', 'ratio', 'generate_audio'] as const)
    if (body[key] !== undefined) metadata[key] = body[key];
  const refs = content.filter((c) => c['type'] !== 'text');
  if (refs.length > 0) metadata['content'] = refs;

  // The same admission as the OpenAI form: one engine, two request shapes.
  const admitted = admit(context, 'createVideo', { model, prompt, metadata });
  if ('kind' in admitted) {
    if (admitted.kind === 'prompt_required')
      return context.error('plugin_invalid_request', {
        problem: 'content must contain a text item with the prompt',
      });
    return context.error(admitted.kind, admitted.detail, admitted.headers);
  }
  context.taskId = admitted.task.id; // the native answer tells no status
  return { ...jsonResponse(200, { id: admitted.task.id }), lost: admitted.lost };
}

/** The model is the second family's, served (the plugin bound), and the caller's key may use it. */
function modelRefusal(context: PluginContext, model: string): CoreResponse | undefined {
  const { state } = context;
  const catalogModel = state.models.get(model);
  if (!state.family.bound || catalogModel === undefined || catalogModel.family !== 'second')
    return context.error('model_not_found', { model, group: context.token.group });
  if (
    !catalogModel.groups.includes(context.token.group) ||
    (context.token.models !== undefined && !context.token.models.includes(model))
  )
    return context.error('plugin_permission_denied', { model });
  return undefined;
}

/** `GET …/tasks/{task_id}` on the native path: the task in the upstream's shape and status values. */
export function getPluginTask(
  context: PluginContext,
  pluginName: string,
  taskId: string,
): CoreResponse {
  const notPlugin = checkPluginName(context, pluginName);
  if (notPlugin !== undefined) return notPlugin;
  const found = ownedTask(context, taskId);
  const model = found === undefined ? undefined : context.state.models.get(found.task.model);
  if (found === undefined || model?.family !== 'second')
    return context.error('plugin_task_not_found', { taskId });
  context.taskId = found.task.id;
  context.taskStatus = found.snap.status;
  const body = renderPluginTask(
    found.task,
    found.snap,
    resultUrl(context, found.task, found.snap),
    context.state.lifecycle,
  );
  return taskAnswer(context, found.task.id, body);
}

/** The OpenAI form's own fields a native body carries: the spec's `NativeFormatOnly` (§4.5) forbids each. */
function openAiFieldsIn(context: PluginContext, body: Record<string, unknown>): string[] {
  const { validators } = context.state;
  if (validators.schema('NativeFormatOnly').validate(body).valid) return [];
  const forbidden = validators.document.components?.schemas?.['NativeFormatOnly']?.['properties'];
  return Object.keys(body).filter((key) => Object.hasOwn(forbidden as object, key));
}

function checkPluginName(context: PluginContext, pluginName: string): CoreResponse | undefined {
  if (pluginName === context.state.family.pluginName) return undefined;
  const { method, path } = context.request;
  return context.error('route_not_found', { method, path });
}
