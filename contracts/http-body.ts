import {
  DEFAULT_MAX_DOWNLOAD_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
} from '../src/client/client-types.ts';
import { nestsTooDeep } from '../src/text/json-depth.ts';

/**
 * Reading an answer's body for the recorder, in bounded memory whatever the deployment sends (issue 24
 * item 6: JSON answers padded to 1 MiB grew the runner to 2.35 GB; a 10 KB `gzip, gzip` body decoding
 * to 4 GB was buffered whole). The body is read as a stream, decoded as it arrives (fetch undoes the
 * `Content-Encoding`s chunk by chunk), and read no further than the client would: a JSON or text
 * answer up to 4 MiB, any other up to 2 GiB. A JSON answer (or one without a type) is kept whole, to
 * be parsed; of any other the first 512 bytes (`sink` sees every chunk: a video is hashed, not held).
 */
export const MAX_ANSWER_BYTES = DEFAULT_MAX_RESPONSE_BYTES;
export const MAX_VIDEO_BYTES = DEFAULT_MAX_DOWNLOAD_BYTES;
const HEAD_BYTES = 512;

export interface Body {
  /** The bytes kept: the whole of a JSON or text answer up to 4 MiB, the first 512 of any other. */
  readonly head: Uint8Array;
  /** How many bytes were read. */
  readonly bytes: number;
  /** Why the body ended early: it broke off, or it was longer than the suite reads. */
  readonly error?: string;
}

const isJson = (contentType: string | null) => contentType === null || /json/i.test(contentType);
const isText = (contentType: string | null) =>
  contentType !== null && /json|^\s*text\//i.test(contentType);

/** Reads `response`'s body within the bounds above; never throws. */
export async function readBody(
  response: Response,
  sink?: (chunk: Uint8Array) => void,
): Promise<Body> {
  if (response.body === null) return { head: new Uint8Array(), bytes: 0 };
  const contentType = response.headers.get('content-type');
  const keep = isJson(contentType) && sink === undefined ? MAX_ANSWER_BYTES : HEAD_BYTES;
  // An answer without a type may be a video: it is kept like JSON but read like a download.
  const limit = isText(contentType) && sink === undefined ? MAX_ANSWER_BYTES : MAX_VIDEO_BYTES;
  const kept = new Chunks(keep);
  // Iterated, not read with getReader: a test's fetch may hand over any async iterable of chunks.
  const chunks = (response.body as unknown as AsyncIterable<Uint8Array, unknown>)[
    Symbol.asyncIterator
  ]();
  let bytes = 0;
  try {
    for (;;) {
      const next: IteratorResult<Uint8Array, unknown> = await chunks.next();
      if (next.done === true) return { head: kept.joined(), bytes };
      const value = next.value;
      bytes += value.byteLength;
      if (bytes > limit) {
        chunks.return?.().catch(() => undefined); // cancels; not awaited: a source may never settle
        const error = `longer than ${limit} bytes, the most the suite reads: not read further`;
        return { head: kept.joined(), bytes, error };
      }
      sink?.(value);
      kept.add(value);
    }
  } catch (cause) {
    // The answer began but its body broke off: what arrived is kept, and why it ended.
    return { head: kept.joined(), bytes, error: describeNetworkError(cause) };
  }
}

/** The first `limit` bytes of a stream of chunks, copied (a chunk may be a view of a larger buffer). */
class Chunks {
  readonly #parts: Uint8Array[] = [];
  #size = 0;

  constructor(readonly limit: number) {}

  add(chunk: Uint8Array): void {
    if (this.#size >= this.limit) return;
    const part = chunk.slice(0, this.limit - this.#size);
    this.#parts.push(part);
    this.#size += part.byteLength;
  }

  joined(): Uint8Array {
    if (this.#parts.length === 1) return this.#parts[0]!;
    const out = new Uint8Array(this.#size);
    let offset = 0;
    for (const part of this.#parts) {
      out.set(part, offset);
      offset += part.byteLength;
    }
    return out;
  }
}

/**
 * The parsed JSON of a whole body, or undefined: not all of it was kept, it is not JSON, or it nests
 * deeper than `MAX_JSON_DEPTH` (issue 24 item 8: nothing that walks it may meet a hostile depth).
 */
export function parseJson(head: Uint8Array, bytes: number, contentType: string): unknown {
  if (bytes === 0 || head.byteLength < bytes) return undefined;
  const text = new TextDecoder().decode(head).trim();
  if (!(text.startsWith('{') || text.startsWith('[') || /json/i.test(contentType)))
    return undefined;
  if (nestsTooDeep(head)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function describeNetworkError(error: unknown): string {
  const e = error as {
    name?: string;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  if (e.name === 'TimeoutError') return 'no answer within the request time limit';
  if (e.name === 'AbortError') return `not finished: ${e.message ?? 'the run stopped'}`;
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(error);
}
