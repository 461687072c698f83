import { jsonResponse, type CoreResponse } from '../http-types.ts';
import { errorResponse } from '../errors.ts';
import type { RouteContext } from '../service-state.ts';
import { parseJsonBody } from './submit.ts';

/**
 * The second family's native path (§4.5). While the plugin is not bound to a channel (§1, today's
 * state), no type-61 channel serves the family, so the gateway's routing refuses the model.
 */
export function createPluginTask(context: RouteContext, pluginName: string): CoreResponse {
  const notPlugin = checkPluginName(context, pluginName);
  if (notPlugin !== undefined) return notPlugin;
  const parsed = parseJsonBody(context);
  if ('kind' in parsed) return errorResponse(parsed.kind, parsed.detail);
  const model = parsed.value['model'];
  if (typeof model !== 'string' || model === '') return pluginError(400, 'invalid_request', 'model is required');
  return errorResponse('model_not_found', { model, group: context.token.group });
}

/** `GET …/tasks/{task_id}` on the native path: no task is created there while unbound. */
export function getPluginTask(context: RouteContext, pluginName: string, taskId: string): CoreResponse {
  const notPlugin = checkPluginName(context, pluginName);
  if (notPlugin !== undefined) return notPlugin;
  return pluginError(404, 'task_not_found', `task ${taskId} not found`);
}

export function pluginError(status: number, code: string, message: string): CoreResponse {
  return jsonResponse(status, { error: { code, message } });
}

function checkPluginName(context: RouteContext, pluginName: string): CoreResponse | undefined {
  if (pluginName === context.state.family.pluginName) return undefined;
  const { method, path } = context.request;
  return errorResponse('route_not_found', { method, path });
}
