/**
 * Bounds on what the client reads of an answer (issue 14 item 7: an endless body must not grow the
 * process without limit). A JSON answer over its limit fails with the error `tooLarge` builds; an
 * error answer is only ever read in part (its first bytes explain it), the rest is cancelled.
 */

/** Statuses whose answers have no body: a `Response` with one cannot even be built. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * `response` with its body limited to `limit` bytes. Past the limit the source is cancelled, and the
 * body either fails with `tooLarge()` or, when that is undefined, ends where the limit cut it.
 */
export function capResponse(
  response: Response,
  limit: number,
  tooLarge: (() => Error) | undefined,
): Response {
  if (response.body === null || NULL_BODY.has(response.status)) return response;
  const capped = new Response(capStream(response.body, limit, tooLarge), {
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
  limit: number,
  tooLarge: (() => Error) | undefined,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let size = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      size += value.byteLength;
      if (size <= limit) return controller.enqueue(value);
      // Not awaited: some sources never settle a cancel (msw's), and nothing more is read either way.
      reader.cancel().catch(() => undefined);
      if (tooLarge !== undefined) return controller.error(tooLarge());
      controller.enqueue(value.subarray(0, value.byteLength - (size - limit)));
      controller.close();
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
