/**
 * Bounds on what the client reads of an answer (issue 14 item 7: an endless body must not grow the
 * process without limit). A JSON answer over its limit fails with the error `tooLarge` builds; an
 * error answer is only ever read in part (its first bytes explain it), the rest is cancelled.
 */

import { JsonDepth } from '../text/json-depth.ts';

/** Statuses whose answers have no body: a `Response` with one cannot even be built. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** How an answer's body is bounded: its size, and (a JSON answer) its nesting. */
export interface BodyBounds {
  /** The most bytes read. */
  readonly limit: number;
  /** The error past the limit; undefined: the body ends where the limit cut it. */
  readonly tooLarge?: (() => Error) | undefined;
  /**
   * Also follow the nesting (`MAX_JSON_DEPTH`): past it, the body fails with this error, or with
   * `'cut'` ends there (an error answer, read in part anyway). Undefined: the nesting is not followed.
   */
  readonly tooDeep?: (() => Error) | 'cut' | undefined;
}

/**
 * `response` with its body bounded: past `limit` bytes the source is cancelled, and the body either
 * fails with `tooLarge()` or ends where the limit cut it; likewise past `MAX_JSON_DEPTH` levels of
 * nesting when asked (`tooDeep`), so nothing downstream walks a hostile depth.
 */
export function capResponse(response: Response, bounds: BodyBounds): Response {
  if (response.body === null || NULL_BODY.has(response.status)) return response;
  const capped = new Response(capStream(response.body, bounds), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // A new Response has no address; keep the one that answered (after redirects).
  Object.defineProperties(capped, {
    url: { value: response.url },
    redirected: { value: response.redirected },
  });
  return capped;
}

function capStream(
  source: ReadableStream<Uint8Array>,
  { limit, tooLarge, tooDeep }: BodyBounds,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const depth = tooDeep === undefined ? undefined : new JsonDepth();
  let size = 0;
  // Not awaited: some sources never settle a cancel (msw's), and nothing more is read either way.
  const stop = () => void reader.cancel().catch(() => undefined);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      size += value.byteLength;
      const within = size <= limit ? value : value.subarray(0, value.byteLength - (size - limit));
      if (depth !== undefined && !depth.feed(within)) {
        stop();
        return tooDeep === 'cut' ? controller.close() : controller.error(tooDeep!());
      }
      if (size <= limit) return controller.enqueue(value);
      stop();
      if (tooLarge !== undefined) return controller.error(tooLarge());
      controller.enqueue(within);
      controller.close();
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
