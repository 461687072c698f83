import { errorResponse } from '../http/errors.ts';
import type { CoreResponse } from '../http/http-types.ts';
import { parseRange, type MediaAsset } from '../http/media.ts';
import type { RouteContext, ServiceState } from '../service/service-state.ts';
import { ownedTask, type QueryState } from './query.ts';

/** What the content route reads of the service: a task's status, the video, and how it is delivered. */
export type ContentState = QueryState & Pick<ServiceState, 'media' | 'settings'>;

/**
 * `GET|HEAD /v1/videos/{task_id}/content` (§4.4): the video's bytes once completed (or, with
 * `contentRedirect`, a redirect to a fresh temporary address); a JSON error before completion, for a
 * failed task, and for a missing or foreign one (§3 rule 2, §5).
 */
export function getContent(context: RouteContext<ContentState>, taskId: string): CoreResponse {
  const found = ownedTask(context, taskId);
  // A HEAD answer's body is taken off once, for every route, by the service (`answerTo`).
  if (found === undefined) return context.error('task_not_found', { taskId });
  const { task, snap } = found;
  context.taskId = task.id;
  context.taskStatus = snap.status;
  if (snap.status !== 'completed') {
    return context.error('task_not_completed', {
      status: context.state.wrapperStatuses[snap.status],
    });
  }
  const { state, request } = context;
  if (state.settings.contentRedirect) {
    const location = state.signer.url(
      request.origin,
      task.id,
      state.clock.now() + state.signer.ttlMs,
    );
    return { status: 302, headers: { location, 'cache-control': 'private, no-store' } };
  }
  return serveMedia(state.media, request.headers['range'], context.head, (kind, detail, headers) =>
    context.error(kind, detail, headers),
  );
}

/**
 * The bytes of a video with `Range` on GET (206/416), `HEAD`, and the headers a download needs. `error`
 * builds the 416: the request's own (`context.error`) on the service's route, the plain one elsewhere.
 */
export function serveMedia(
  media: MediaAsset,
  range: string | undefined,
  head: boolean,
  error: RouteContext['error'] = errorResponse,
): CoreResponse {
  const size = media.bytes.byteLength;
  const base = {
    'content-type': media.contentType,
    'accept-ranges': 'bytes',
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
    etag: media.etag,
  };
  // RFC 9110 §14.2: range handling is defined for GET only, so HEAD ignores Range (spec: headVideoContent).
  const wanted = parseRange(head ? undefined : range, size);
  if (wanted.kind === 'unsatisfiable') {
    return error(
      'range_not_satisfiable',
      { range, size },
      { 'content-range': `bytes */${size}`, 'accept-ranges': 'bytes' },
    );
  }
  if (wanted.kind === 'partial') {
    const { start, end } = wanted;
    const headers = {
      ...base,
      'content-range': `bytes ${start}-${end}/${size}`,
      'content-length': String(end - start + 1),
    };
    return { status: 206, headers, body: head ? undefined : media.bytes.subarray(start, end + 1) };
  }
  return {
    status: 200,
    headers: { ...base, 'content-length': String(size) },
    body: head ? undefined : media.bytes,
  };
}
