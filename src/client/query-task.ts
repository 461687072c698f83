import { checkPluginName, checkTaskId, isObject } from './client-support.ts';
import type {
  ModelList,
  PluginTask,
  RequestOptions,
  TaskWrapper,
  VideoTask,
} from './client-types.ts';
import type { WithMeta } from './response-meta.ts';
import type { Transport } from './transport.ts';

/** A task in either form that carries one (the OpenAI form, the native path's). */
const isTask = (data: unknown): boolean =>
  isObject(data) && typeof data['id'] === 'string' && typeof data['status'] === 'string';

/** The task in OpenAI-compatible form: `GET /v1/videos/{task_id}` (§4.2), "recommended for status". */
export async function getVideo(
  transport: Transport,
  taskId: string,
  options: RequestOptions,
): Promise<WithMeta<VideoTask>> {
  const task_id = checkTaskId(taskId);
  const answer = await transport.json({
    operation: 'query',
    action: `query ${task_id}`,
    options,
    send: (init) =>
      transport.api.GET('/v1/videos/{task_id}', { params: { path: { task_id } }, ...init }),
    isValid: isTask,
    invalid: 'the answer is not a task object (§2.2)',
  });
  return answer as WithMeta<VideoTask>;
}

/** The generic task wrapper: `GET /v1/video/generations/{task_id}` (§4.3, §2.3). */
export async function getWrapper(
  transport: Transport,
  taskId: string,
  options: RequestOptions,
): Promise<WithMeta<TaskWrapper>> {
  const task_id = checkTaskId(taskId);
  const path = '/v1/video/generations/{task_id}';
  const answer = await transport.json({
    operation: 'query',
    action: `query ${task_id}`,
    options,
    send: (init) => transport.api.GET(path, { params: { path: { task_id } }, ...init }),
    isValid: (data) => isObject(data) && isObject(data['data']),
    invalid: 'the answer is not a task wrapper {code, message, data} (§2.3)',
  });
  return answer as WithMeta<TaskWrapper>;
}

/**
 * The task on the native path of a task plugin (§4.5):
 * `GET /{plugin_name}/api/v3/contents/generations/tasks/{task_id}`, in the upstream's own shape and
 * status values (an assumption: the document shows neither).
 */
export async function getPluginTask(
  transport: Transport,
  pluginName: string,
  taskId: string,
  options: RequestOptions,
): Promise<WithMeta<PluginTask>> {
  const plugin_name = checkPluginName(pluginName);
  const task_id = checkTaskId(taskId);
  const path = '/{plugin_name}/api/v3/contents/generations/tasks/{task_id}';
  const answer = await transport.json({
    operation: 'query',
    action: `query ${task_id}`,
    options,
    send: (init) =>
      transport.api.GET(path, { params: { path: { plugin_name, task_id } }, ...init }),
    isValid: isTask,
    invalid: 'the answer is not a native task {id, status, …} (§4.5)',
  });
  return answer as WithMeta<PluginTask>;
}

/** The model catalog: `GET /v1/models` (§4). */
export async function listModels(
  transport: Transport,
  options: RequestOptions,
): Promise<WithMeta<ModelList>> {
  const answer = await transport.json({
    operation: 'models',
    action: 'list models',
    options,
    send: (init) => transport.api.GET('/v1/models', init),
    isValid: (data) => isObject(data) && Array.isArray(data['data']),
    invalid: 'the answer has no data list',
  });
  return answer as WithMeta<ModelList>;
}
