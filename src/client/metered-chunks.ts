import type { Hash } from 'node:crypto';
import { describeCause, type IdleTimeout } from './client-support.ts';
import type { DownloadOptions } from './client-types.ts';
import { ConnectionError, RequestTimeoutError } from './errors.ts';
import type { Transport } from './transport.ts';

/** The bytes of a download so far, and their running SHA-256. */
export interface Meter {
  bytes: number;
  readonly hash: Hash;
}

/** What the byte loop of one download needs to know. */
export interface DownloadRun {
  readonly transport: Transport;
  readonly action: string;
  readonly response: Response;
  /** The announced size, when the service sent one (and no content coding changes it). */
  readonly total: number | undefined;
  readonly maxBytes: number;
  readonly idle: IdleTimeout;
  readonly callerSignal: AbortSignal | undefined;
  readonly onProgress: DownloadOptions['onProgress'];
}

/**
 * The body's chunks, hashed and counted as they pass; errors of the source come out typed, and a
 * video past `maxBytes` stops the download with `ResponseTooLargeError` before the chunk is written.
 */
export async function* meteredChunks(
  body: ReadableStream<Uint8Array>,
  meter: Meter,
  run: DownloadRun,
): AsyncGenerator<Uint8Array, void, undefined> {
  const reader = body.getReader();
  let done = false;
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (error) {
        throw readError(run, meter, error);
      }
      if (next.done) {
        done = true;
        return;
      }
      const chunk = next.value;
      run.idle.reset();
      if (meter.bytes + chunk.byteLength > run.maxBytes)
        throw run.transport.tooLarge(
          'content',
          run.action,
          'the video',
          run.maxBytes,
          run.response,
        );
      meter.hash.update(chunk);
      meter.bytes += chunk.byteLength;
      run.onProgress?.(meter.bytes, run.total);
      yield chunk;
    }
  } finally {
    // Not awaited: cancelling releases the connection, and some bodies (msw's) never settle the promise.
    if (!done) reader.cancel().catch(() => undefined);
  }
}

/**
 * An error while moving the bytes: the caller's abort, a stall, the source's (already typed) or the
 * destination's own.
 */
export function streamError(run: DownloadRun, error: unknown): unknown {
  if (run.callerSignal?.aborted) return run.callerSignal.reason;
  if (run.idle.signal.aborted)
    return error instanceof RequestTimeoutError ? error : stalled(run, error);
  return error;
}

function readError(run: DownloadRun, meter: Meter, error: unknown): unknown {
  if (run.callerSignal?.aborted) return run.callerSignal.reason;
  if (run.idle.signal.aborted) return stalled(run, error);
  const of = run.total === undefined ? '' : ` of ${run.total}`;
  const text =
    `Failed to ${run.action}: the connection broke after ${meter.bytes}${of} ` +
    `bytes (${describeCause(error)})`;
  return new ConnectionError(run.transport.redact(text), error);
}

function stalled(run: DownloadRun, cause: unknown): RequestTimeoutError {
  const { transport } = run;
  const text = `Failed to ${run.action}: no data from ${transport.baseUrl} for ${transport.requestTimeoutMs} ms`;
  return new RequestTimeoutError(transport.redact(text), { cause });
}
