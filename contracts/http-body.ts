/** Reading an answer's body for the recorder: whole JSON bodies, the first bytes of others. */

const HEAD_BYTES = 512;
// Whole JSON bodies are kept (up to 1 MiB) so they can be parsed; other bodies keep their first bytes.
const JSON_LIMIT = 1 << 20;

/**
 * Reads a body in full, keeping what a check needs: all of a JSON body (up to 1 MiB), the first 512
 * bytes of any other. `sink` sees every chunk (a check hashing a download), so a video never stays in
 * memory.
 */
export async function readBody(
  response: Response,
  sink?: (chunk: Uint8Array) => void,
): Promise<{ head: Uint8Array; bytes: number; error?: string }> {
  if (response.body === null) return { head: new Uint8Array(), bytes: 0 };
  const isJson =
    /json/i.test(response.headers.get('content-type') ?? '') ||
    response.headers.get('content-type') === null;
  const keep = isJson ? JSON_LIMIT : HEAD_BYTES;
  // A small body of announced length is read at once: cheaper than iterating its stream.
  const length = Number(response.headers.get('content-length') ?? NaN);
  if (length <= keep && sink === undefined) {
    try {
      const whole = new Uint8Array(await response.arrayBuffer());
      return { head: whole.subarray(0, keep), bytes: whole.byteLength };
    } catch (error) {
      return { head: new Uint8Array(), bytes: 0, error: describeNetworkError(error) };
    }
  }
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let bytes = 0;
  let error: string | undefined;
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      sink?.(chunk);
      if (kept < keep) {
        const part = chunk.subarray(0, keep - kept);
        chunks.push(part);
        kept += part.byteLength;
      }
    }
  } catch (cause) {
    // The answer began but its body broke off: what arrived is kept, and why it ended.
    error = describeNetworkError(cause);
  }
  const head = new Uint8Array(kept);
  let offset = 0;
  for (const c of chunks) {
    head.set(c, offset);
    offset += c.byteLength;
  }
  return error === undefined ? { head, bytes } : { head, bytes, error };
}

export function parseJson(head: Uint8Array, bytes: number, contentType: string): unknown {
  if (bytes === 0 || head.byteLength < bytes) return undefined;
  const text = new TextDecoder().decode(head).trim();
  if (!(text.startsWith('{') || text.startsWith('[') || /json/i.test(contentType)))
    return undefined;
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
