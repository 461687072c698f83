import { CLIENT_REQUEST_ID_HEADER } from '../generated/client-contract.ts';
import { checkPluginName, isObject, isPlainObject } from './client-support.ts';
import type {
  PluginSubmitOptions,
  PluginSubmitRequest,
  PluginSubmitted,
  SubmitOptions,
  SubmitRequest,
  VideoTask,
} from './client-types.ts';
import type { WithMeta } from './response-meta.ts';
import type { JsonCall, Transport } from './transport.ts';

const ENDPOINTS = { generations: '/v1/video/generations', videos: '/v1/videos' } as const;

/**
 * One submission (§4.1): a JSON `POST`, never retried here. HTTP 200 means only that the task was
 * accepted (§1). A 200 whose body is not a task (not JSON, too large, no ID) throws
 * `UnexpectedResponseError`: the task may exist, so `submitWithRetry` reports it as unconfirmed (§7).
 */
export async function submitTask(
  transport: Transport,
  body: SubmitRequest,
  options: SubmitOptions,
): Promise<WithMeta<VideoTask>> {
  checkBody(body, 'submit() takes the request as a plain object ({ model, prompt, … })');
  const endpoint = options.endpoint ?? 'generations';
  const path = ENDPOINTS[endpoint];
  if (path === undefined)
    throw new TypeError(
      `endpoint must be 'generations' or 'videos', got ${JSON.stringify(endpoint)}`,
    );
  const answer = await transport.json({
    ...submission(options),
    send: (init) => transport.api.POST(path, { body, ...init }),
  });
  return answer as WithMeta<VideoTask>;
}

/**
 * One submission on the native path a task plugin declares (§4.5):
 * `POST /{plugin_name}/api/v3/contents/generations/tasks` with the upstream's own body, never mixed
 * with the OpenAI form. The same rules as `submitTask`: never retried here, a 200 without a task ID
 * throws `UnexpectedResponseError` (§7).
 */
export async function submitPluginTask(
  transport: Transport,
  pluginName: string,
  body: PluginSubmitRequest,
  options: PluginSubmitOptions,
): Promise<WithMeta<PluginSubmitted>> {
  const plugin_name = checkPluginName(pluginName);
  checkBody(
    body,
    'submitPluginTask() takes the native request as a plain object ({ model, content, … })',
  );
  const path = '/{plugin_name}/api/v3/contents/generations/tasks';
  const answer = await transport.json({
    ...submission(options),
    send: (init) => transport.api.POST(path, { params: { path: { plugin_name } }, body, ...init }),
  });
  return answer as WithMeta<PluginSubmitted>;
}

function checkBody(body: unknown, what: string): void {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !isPlainObject(body))
    throw new TypeError(`${what}: the service accepts JSON only (§4.1, §5)`);
}

/** What every submission shares: JSON with the client's own request ID; the answer carries a task ID. */
function submission(options: PluginSubmitOptions): Omit<JsonCall, 'send'> {
  const { clientRequestId } = options;
  return {
    operation: 'submit',
    action: 'submit the task',
    options,
    headers: {
      'content-type': 'application/json',
      ...(clientRequestId === undefined ? {} : { [CLIENT_REQUEST_ID_HEADER]: clientRequestId }),
    },
    isValid: (data) => isObject(data) && typeof data['id'] === 'string' && data['id'] !== '',
    invalid: 'the service answered 200 without a task ID (§4.1)',
  };
}
