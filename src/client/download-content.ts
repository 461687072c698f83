import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { writeAtomically } from './atomic-file.ts';
import {
  checkTaskId,
  contentLength,
  idleTimeout,
  readCapped,
  safeJson,
  type IdleTimeout,
} from './client-support.ts';
import {
  DEFAULT_MAX_DOWNLOAD_BYTES,
  type DownloadOptions,
  type DownloadResult,
} from './client-types.ts';
import { describeBody, UnexpectedResponseError } from './errors.ts';
import { meteredChunks, streamError, type DownloadRun, type Meter } from './metered-chunks.ts';
import type { WithMeta } from './response-meta.ts';
import type { AnyResult, Transport } from './transport.ts';

/** The most of a body that is read to explain an answer that is not a video. */
const EXPLAIN_LIMIT = 16 * 1024;
const NOT_A_VIDEO = /^\s*(application\/([\w.-]+\+)?json|text\/html)\b/i;

/**
 * `GET /v1/videos/{task_id}/content` (§4.4), following redirects, streamed through a SHA-256 and a
 * byte counter into `options.to`: see `VideoTaskClient.downloadContent`.
 */
export async function downloadContent(
  transport: Transport,
  taskId: string,
  options: DownloadOptions,
): Promise<WithMeta<DownloadResult>> {
  const task_id = checkTaskId(taskId);
  const { to, maxBytes } = checkDownloadOptions(options);
  const action = `download the video of ${task_id}`;
  const idle = idleTimeout(transport.requestTimeoutMs);
  const callerSignal = options.signal;
  const signal =
    callerSignal === undefined ? idle.signal : AbortSignal.any([callerSignal, idle.signal]);
  try {
    const { response, body } = await openVideo(transport, task_id, action, options, signal, idle);
    const total = announcedSize(response);
    const onProgress = options.onProgress;
    const run = { transport, action, response, total, maxBytes, idle, callerSignal, onProgress };
    if (total !== undefined && total > maxBytes) {
      body.cancel().catch(() => undefined);
      const what = `the video (${total} bytes announced)`;
      throw transport.tooLarge('content', action, what, maxBytes, response);
    }
    return { data: await deliver(run, body, to, signal), meta: transport.meta(response) };
  } finally {
    idle.clear();
  }
}

/** Moves the bytes into the destination; a file only ever appears whole (or not at all). */
async function deliver(
  run: DownloadRun,
  body: ReadableStream<Uint8Array>,
  to: DownloadOptions['to'],
  signal: AbortSignal,
): Promise<DownloadResult> {
  const { transport, action, total, response } = run;
  const meter: Meter = { bytes: 0, hash: createHash('sha256') };
  const chunks = meteredChunks(body, meter, run);
  const checkComplete = (): void => {
    if (total === undefined || meter.bytes === total) return;
    const text = `Failed to ${action}: received ${meter.bytes} of the ${total} bytes announced`;
    throw new UnexpectedResponseError(transport.redact(text), { meta: transport.meta(response) });
  };
  const contentType = response.headers.get('content-type') || 'application/octet-stream';
  const summary = () => ({ bytes: meter.bytes, sha256: meter.hash.digest('hex'), contentType });
  try {
    if (typeof to === 'string') {
      const target = resolve(to);
      // Checked before the rename: a short body never replaces the target.
      await writeAtomically(target, chunks, checkComplete);
      return { ...summary(), path: target };
    }
    await pipeline(chunks, to, { signal });
  } catch (error) {
    // If the destination failed before the first chunk was read, release the connection (a no-op otherwise).
    body.cancel().catch(() => undefined);
    throw streamError(run, error);
  }
  checkComplete();
  return summary();
}

function checkDownloadOptions(options: DownloadOptions): {
  to: DownloadOptions['to'];
  maxBytes: number;
} {
  if (
    options === null ||
    typeof options !== 'object' ||
    options.to === undefined ||
    options.to === null
  )
    throw new TypeError('downloadContent() needs { to }: a file path or a writable stream');
  const { to } = options;
  if (typeof to !== 'string' && typeof (to as { write?: unknown }).write !== 'function')
    throw new TypeError('`to` must be a file path or a writable stream');
  if (typeof to === 'string' && to === '') throw new TypeError('`to` must not be an empty path');
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES;
  if (typeof maxBytes !== 'number' || !Number.isSafeInteger(maxBytes) || maxBytes <= 0)
    throw new RangeError(
      `maxBytes must be a positive whole number of bytes, got ${String(maxBytes)}`,
    );
  return { to, maxBytes };
}

/** Sends the request; returns the 200 answer with its body, or throws why it is not a video. */
async function openVideo(
  transport: Transport,
  task_id: string,
  action: string,
  options: DownloadOptions,
  signal: AbortSignal,
  idle: IdleTimeout,
): Promise<{ response: Response; body: ReadableStream<Uint8Array> }> {
  const headers = transport.headersFor(options.headers);
  let result: AnyResult;
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
    throw new UnexpectedResponseError(
      transport.redact(`Failed to ${action}: the service answered 200 with ${why}`),
      {
        meta: transport.meta(response),
      },
    );
  }
  return { response, body };
}

/** The announced size, unless a content coding makes the bytes received differ from it. */
function announcedSize(response: Response): number | undefined {
  const coding = response.headers.get('content-encoding');
  if (coding !== null && !/^\s*identity\s*$/i.test(coding)) return undefined;
  return contentLength(response.headers.get('content-length'));
}
