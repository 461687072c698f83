import { checkPluginName, checkTaskId, isObject, preview } from './client-support.ts';
import type {
  ModelList,
  PluginTask,
  RequestOptions,
  TaskWrapper,
  VideoTask,
} from './client-types.ts';
import { UnexpectedResponseError } from './errors.ts';
import type { WithMeta } from './response-meta.ts';
import type { Transport } from './transport.ts';

const isTask = (data: unknown): boolean =>
  isObject(data) && typeof data['id'] === 'string' && typeof data['status'] === 'string';

/** The task in OpenAI-compatible form: `GET /v1/videos/{task_id}` (§4.2), "recommended for status". */
export async function getVideo(
  transport: Transport,
  taskId: string,
  options: RequestOptions,
): Promise<WithMeta<VideoTask>> {
  const answer = await queryById(transport, taskId, options, '/v1/videos/{task_id}', isTask);
  return answer as WithMeta<VideoTask>;
}

/** The generic task wrapper: `GET /v1/video/generations/{task_id}` (§4.3, §2.3). */
export async function getWrapper(
  transport: Transport,
  taskId: string,
  options: RequestOptions,
): Promise<WithMeta<TaskWrapper>> {
  const isWrapper = (data: unknown) => isObject(data) && isObject(data['data']);
  const path = '/v1/video/generations/{task_id}';
  return (await queryById(transport, taskId, options, path, isWrapper)) as WithMeta<TaskWrapper>;
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
  const action = `query ${task_id}`;
  const headers = transport.headersFor(options.headers, 'application/json');
  const path = '/{plugin_name}/api/v3/contents/generations/tasks/{task_id}';
  const answer = await transport.json('query', action, options.signal, (signal, fetch) =>
    transport.api.GET(path, { params: { path: { plugin_name, task_id } }, headers, signal, fetch }),
  );
  if (!isTask(answer.data))
    throw unexpected(transport, action, 'is not a native task {id, status, …} (§4.5)', answer);
  return answer as WithMeta<PluginTask>;
}

const SHAPES = {
  '/v1/videos/{task_id}': 'a task object (§2.2)',
  '/v1/video/generations/{task_id}': 'a task wrapper {code, message, data} (§2.3)',
} as const;

/** One status query by task ID on either form; throws unless `isValid` accepts the answer. */
async function queryById(
  transport: Transport,
  taskId: string,
  options: RequestOptions,
  path: keyof typeof SHAPES,
  isValid: (data: unknown) => boolean,
): Promise<WithMeta<unknown>> {
  const task_id = checkTaskId(taskId);
  const action = `query ${task_id}`;
  const headers = transport.headersFor(options.headers, 'application/json');
  const answer = await transport.json('query', action, options.signal, (signal, fetch) =>
    transport.api.GET(path, { params: { path: { task_id } }, headers, signal, fetch }),
  );
  if (!isValid(answer.data)) throw unexpected(transport, action, `is not ${SHAPES[path]}`, answer);
  return answer;
}

/** The model catalog: `GET /v1/models` (§4). */
export async function listModels(
  transport: Transport,
  options: RequestOptions,
): Promise<WithMeta<ModelList>> {
  const action = 'list models';
  const headers = transport.headersFor(options.headers, 'application/json');
  const answer = await transport.json('models', action, options.signal, (signal, fetch) =>
    transport.api.GET('/v1/models', { headers, signal, fetch }),
  );
  const { data } = answer;
  if (!isObject(data) || !Array.isArray(data['data']))
    throw unexpected(transport, action, 'has no data list', answer);
  return answer as WithMeta<ModelList>;
}

function unexpected(
  transport: Transport,
  action: string,
  what: string,
  { data, meta }: WithMeta<unknown>,
): UnexpectedResponseError {
  const text = `Failed to ${action}: the answer ${what}: ${preview(data)}`;
  return new UnexpectedResponseError(transport.redact(text), { meta });
}
