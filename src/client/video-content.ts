import {
  checkTaskId,
  contentLength,
  describeCause,
  idleTimeout,
  readCapped,
  safeJson,
  type IdleTimeout,
} from './client-support.ts';
import {
  DEFAULT_MAX_DOWNLOAD_BYTES,
  type ContentOptions,
  type VideoContent,
} from './client-types.ts';
import {
  ConnectionError,
  describeBody,
  RequestTimeoutError,
  UnexpectedResponseError,
} from './errors.ts';
import type { WithMeta } from './response-meta.ts';
import type { ApiResult } from './api-request.ts';
import type { Transport } from './transport.ts';

/** The most of a body that is read to explain an answer that is not a video. */
const EXPLAIN_LIMIT = 16 * 1024;
const NOT_A_VIDEO = /^\s*(application\/([\w.-]+\+)?json|text\/html)\b/i;

/** What reading one video's bytes needs to know. */
interface ContentRun {
  readonly transport: Transport;
  readonly action: string;
  readonly response: Response;
  /** The announced size, when the service sent one (and no content coding changes it). */
  readonly total: number | undefined;
  readonly maxBytes: number;
  readonly idle: IdleTimeout;
  readonly callerSignal: AbortSignal | undefined;
  readonly onProgress: ContentOptions['onProgress'];
}

/**
 * `GET /v1/videos/{task_id}/content` (§4.4), following redirects: the answer checked to be a video,
 * its bytes as a stream that counts them (see `VideoTaskClient.content`).
 */
export async function videoContent(
  transport: Transport,
  taskId: string,
  options: ContentOptions,
): Promise<WithMeta<VideoContent>> {
  const task_id = checkTaskId(taskId);
  const maxBytes = checkMaxBytes(options.maxBytes);
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function')
    throw new TypeError('onProgress must be a function');
  const action = `download the video of ${task_id}`;
  const idle = idleTimeout(transport.requestTimeoutMs);
  const callerSignal = options.signal;
  const signal =
    callerSignal === undefined ? idle.signal : AbortSignal.any([callerSignal, idle.signal]);
  let opened: { response: Response; body: ReadableStream<Uint8Array> };
  try {
    opened = await openVideo(transport, { task_id, action, options, signal, idle });
  } finally {
    idle.clear();
  }
  const { response, body } = opened;
  const total = announcedSize(response);
  const { onProgress } = options;
  const run = { transport, action, response, total, maxBytes, idle, callerSignal, onProgress };
  if (total !== undefined && total > maxBytes) {
    body.cancel().catch(() => undefined);
    const what = `the video (${total} bytes announced)`;
    throw transport.tooLarge('content', action, what, maxBytes, response);
  }
  const contentType = response.headers.get('content-type') || 'application/octet-stream';
  const data = { body: countedStream(run, body), contentType, size: total };
  return { data, meta: transport.meta(response) };
}

function checkMaxBytes(value: number | undefined): number {
  const maxBytes = value ?? DEFAULT_MAX_DOWNLOAD_BYTES;
  if (typeof maxBytes !== 'number' || !Number.isSafeInteger(maxBytes) || maxBytes <= 0)
    throw new RangeError(
      `maxBytes must be a positive whole number of bytes, got ${String(maxBytes)}`,
    );
  return maxBytes;
}

interface OpenRequest {
  readonly task_id: string;
  readonly action: string;
  readonly options: ContentOptions;
  readonly signal: AbortSignal;
  readonly idle: IdleTimeout;
}

/** Sends the request; returns the 200 answer with its body, or throws why it is not a video. */
async function openVideo(
  transport: Transport,
  { task_id, action, options, signal, idle }: OpenRequest,
): Promise<{ response: Response; body: ReadableStream<Uint8Array> }> {
  const headers = transport.headersFor(options.headers);
  let result: ApiResult;
  try {
    result = await transport.api.GET('/v1/videos/{task_id}/content', {
      params: { path: { task_id } },
      headers,
      signal,
      parseAs: 'stream',
      fetch: transport.fetchFor('content', action, false),
    });
  } catch (error) {
    throw transport.transportError(action, error, idle.signal, options.signal);
  }
  const { response } = result;
  if (!response.ok) throw transport.apiError('content', action, result.error, response);
  const body = result.data as ReadableStream<Uint8Array> | null | undefined;
  if (response.status !== 200 || body === null || body === undefined) {
    body?.cancel().catch(() => undefined);
    const what = `${response.status}${body ? '' : ' with no body'}`;
    const text = `Failed to ${action}: the service answered ${what} instead of the video (§4.4)`;
    throw new UnexpectedResponseError(transport.redact(text), { meta: transport.meta(response) });
  }
  const contentType = response.headers.get('content-type') ?? '';
  if (NOT_A_VIDEO.test(contentType)) {
    const text = await readCapped(body, EXPLAIN_LIMIT).catch(() => '');
    const { message } = describeBody(safeJson(text));
    const why = `${contentType.split(';')[0]} instead of a video stream (§4.4)${message ? `: ${message}` : ''}`;
    const said = `Failed to ${action}: the service answered 200 with ${why}`;
    throw new UnexpectedResponseError(transport.redact(said), { meta: transport.meta(response) });
  }
  return { response, body };
}

/** The announced size, unless a content coding makes the bytes received differ from it. */
function announcedSize(response: Response): number | undefined {
  const coding = response.headers.get('content-encoding');
  if (coding !== null && !/^\s*identity\s*$/i.test(coding)) return undefined;
  return contentLength(response.headers.get('content-length'));
}

/**
 * The body's bytes, pulled only as the reader asks for them, counted as they pass. `requestTimeoutMs`
 * limits each wait for the service, never the reader's own pace. Its errors come typed: a broken
 * connection (`ConnectionError`), a stall (`RequestTimeoutError`), a video past `maxBytes`
 * (`ResponseTooLargeError`, before the chunk is passed on), fewer bytes than announced
 * (`UnexpectedResponseError`, instead of the end); the caller's abort rejects with its reason.
 */
function countedStream(
  run: ContentRun,
  body: ReadableStream<Uint8Array>,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let bytes = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await readChunk(run, reader, bytes);
        if (next.done) {
          checkComplete(run, bytes);
          controller.close();
          return;
        }
        const chunk = next.value;
        if (bytes + chunk.byteLength > run.maxBytes) {
          // Not awaited: cancelling releases the connection, and some bodies (msw's) never settle it.
          reader.cancel().catch(() => undefined);
          const { transport, action, maxBytes, response } = run;
          throw transport.tooLarge('content', action, 'the video', maxBytes, response);
        }
        bytes += chunk.byteLength;
        run.onProgress?.(bytes, run.total);
        controller.enqueue(chunk);
      },
      cancel(reason) {
        run.idle.clear();
        reader.cancel(reason).catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/** One read, timed by `requestTimeoutMs` as a wait for the service; its failure comes out typed. */
async function readChunk(
  run: ContentRun,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  bytes: number,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  run.idle.reset();
  try {
    return await reader.read();
  } catch (error) {
    throw readError(run, bytes, error);
  } finally {
    run.idle.clear();
  }
}

function checkComplete(run: ContentRun, bytes: number): void {
  if (run.total === undefined || bytes === run.total) return;
  const { transport, action, response } = run;
  const text = `Failed to ${action}: received ${bytes} of the ${run.total} bytes announced`;
  throw new UnexpectedResponseError(transport.redact(text), { meta: transport.meta(response) });
}

function readError(run: ContentRun, bytes: number, error: unknown): unknown {
  if (run.callerSignal?.aborted) return run.callerSignal.reason;
  const { transport, action } = run;
  if (run.idle.signal.aborted) {
    const text = `Failed to ${action}: no data from ${transport.baseUrl} for ${transport.requestTimeoutMs} ms`;
    return new RequestTimeoutError(transport.redact(text), { cause: error });
  }
  const of = run.total === undefined ? '' : ` of ${run.total}`;
  const text =
    `Failed to ${action}: the connection broke after ${bytes}${of} ` +
    `bytes (${describeCause(error)})`;
  return new ConnectionError(transport.redact(text), error);
}
