import type { IncomingMessage } from 'node:http';

/** The start of a request body: all of it, or its first `limit` bytes with the rest still to come. */
export interface BodyStart {
  readonly body: Buffer;
  /** The whole body was read. */
  readonly complete: boolean;
  /** The client went away before it sent the body: nothing of it may be forwarded. */
  readonly aborted: boolean;
}

/**
 * Reads a request body up to `limit` bytes and pauses there (the rest is piped on by whoever forwards
 * it), so a submission's prompt is read before the proxy decides what to do with it.
 */
export function readStart(req: IncomingMessage | undefined, limit: number): Promise<BodyStart> {
  if (req === undefined)
    return Promise.resolve({ body: Buffer.alloc(0), complete: true, aborted: false });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (complete: boolean, aborted: boolean) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      resolve({ body: Buffer.concat(chunks), complete, aborted });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size < limit) return;
      req.pause();
      finish(false, false);
    };
    const onEnd = () => finish(true, false);
    const onClose = () => finish(false, true);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
  });
}
