import { createHash, type Hash } from 'node:crypto';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ContentOptions } from '../client/client-types.ts';
import type { VideoTaskClient } from '../client/client.ts';
import { writeAtomically } from './atomic-file.ts';

export interface DownloadOptions extends ContentOptions {
  /** A file path (written to a temporary file beside it, then renamed into place) or a stream (ended when done). */
  readonly to: string | NodeJS.WritableStream;
}

export interface DownloadResult {
  readonly bytes: number;
  /** Hex SHA-256 of the bytes written. */
  readonly sha256: string;
  readonly contentType: string;
  /** The absolute path written, for a file destination. */
  readonly path?: string;
}

/**
 * Downloads a finished task's video (`client.content`, §4.4) into a file or a Node stream, through a
 * SHA-256 and a byte counter, never holding it whole.
 *
 * - Before completion, and for a missing or foreign task, it throws the typed `ApiError` and writes
 *   nothing; a 200 that is JSON throws `UnexpectedResponseError`.
 * - A file path is written as `.<name>.<random>.part` in the same directory, flushed (fsync) and
 *   renamed onto the target only once every announced byte has arrived; on any failure or abort the
 *   temporary file is removed and the target is untouched.
 * - A stream destination is ended when the download completes (and destroyed if it fails).
 * - `maxBytes` (default 2 GiB), `onProgress`, `signal` and the client's `requestTimeoutMs` (each wait
 *   for the service) as for `client.content`.
 *
 * @example
 * const { bytes, sha256, path } = await downloadContent(client, task.id, { to: './kite.mp4' });
 */
export async function downloadContent(
  client: VideoTaskClient,
  taskId: string,
  options: DownloadOptions,
): Promise<DownloadResult> {
  const to = checkDestination(options);
  const video = await client.content(taskId, options);
  const hash = createHash('sha256');
  const counted = { bytes: 0 };
  const chunks = hashedChunks(video.body, hash, counted);
  const summary = () => ({
    bytes: counted.bytes,
    sha256: hash.digest('hex'),
    contentType: video.contentType,
  });
  try {
    if (typeof to === 'string') {
      const target = resolve(to);
      await writeAtomically(target, chunks, () => undefined);
      return { ...summary(), path: target };
    }
    await pipeline(chunks, to, options.signal === undefined ? {} : { signal: options.signal });
    return summary();
  } catch (error) {
    // The destination may have failed before the first chunk was read: release the connection.
    video.body.cancel().catch(() => undefined);
    throw options.signal?.aborted === true ? options.signal.reason : error;
  }
}

function checkDestination(options: DownloadOptions): DownloadOptions['to'] {
  if (options === null || typeof options !== 'object' || options.to == null)
    throw new TypeError('downloadContent() needs { to }: a file path or a writable stream');
  const { to } = options;
  if (typeof to !== 'string' && typeof (to as { write?: unknown }).write !== 'function')
    throw new TypeError('`to` must be a file path or a writable stream');
  if (to === '') throw new TypeError('`to` must not be an empty path');
  return to;
}

/** The stream's chunks, hashed and counted as they pass on. */
async function* hashedChunks(
  body: ReadableStream<Uint8Array>,
  hash: Hash,
  counted: { bytes: number },
): AsyncGenerator<Uint8Array, void, undefined> {
  const reader = body.getReader();
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) return;
      hash.update(next.value);
      counted.bytes += next.value.byteLength;
      yield next.value;
    }
  } finally {
    reader.releaseLock();
  }
}
