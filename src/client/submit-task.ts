import { isObject, isPlainObject, preview } from './client-support.ts';
import type { SubmitOptions, SubmitRequest, VideoTask } from './client-types.ts';
import { UnexpectedResponseError } from './errors.ts';
import type { WithMeta } from './response-meta.ts';
import type { Transport } from './transport.ts';

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
  const action = 'submit the task';
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !isPlainObject(body)) {
    throw new TypeError(
      'submit() takes the request as a plain object ({ model, prompt, … }): ' +
        'the service accepts JSON only (§4.1, §5)',
    );
  }
  const endpoint = options.endpoint ?? 'generations';
  const path = ENDPOINTS[endpoint];
  if (path === undefined)
    throw new TypeError(
      `endpoint must be 'generations' or 'videos', got ${JSON.stringify(endpoint)}`,
    );
  const headers = transport.headersFor(options.headers, 'application/json');
  if (options.requestId !== undefined) headers.set('x-request-id', options.requestId);
  headers.set('content-type', 'application/json');
  const { data, meta } = await transport.json('submit', action, options.signal, (signal, fetch) =>
    transport.api.POST(path, { body, headers, signal, fetch }),
  );
  if (!isObject(data) || typeof data['id'] !== 'string' || data['id'] === '') {
    const text = `Failed to ${action}: the service answered 200 without a task ID (§4.1): ${preview(data)}`;
    throw new UnexpectedResponseError(transport.redact(text), { meta });
  }
  return { data: data as VideoTask, meta };
}
