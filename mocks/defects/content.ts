import { jsonResponse } from '../core/http/http-types.ts';
import { serveMedia } from '../core/routes/content.ts';
import { callerOwnsTask, type Defect, type DefectContext } from './defect.ts';

/** Defects of the content endpoint `GET|HEAD /v1/videos/{task_id}/content` (§3 rule 2, §4.4). */

/** The caller's own task, when the request is for its content. */
const ownContent = (context: DefectContext) =>
  context.operationId === 'getVideoContent' && callerOwnsTask(context) ? context.task : undefined;

/** A completed task's content answered 200 `video/mp4` with `body` instead of the video. */
function labelledVideo(body: string): NonNullable<Defect['after']> {
  return (_request, response, context) => {
    const found = ownContent(context);
    if (![200, 206, 302].includes(response.status) || found?.snap.status !== 'completed')
      return response;
    const headers = { 'content-type': 'video/mp4', 'content-length': String(body.length) };
    return { status: 200, headers, body };
  };
}

/**
 * A refusal, whichever 4xx it is (§7 names the class only): the defects below break what the content
 * route refuses, on the mock or on a deployment that words its refusals with other codes.
 */
const refused = (status: number) => status >= 400 && status < 500 && status !== 429;

export const CONTENT_DEFECTS: readonly Defect[] = [
  {
    name: 'content-before-completion',
    description: 'content serves the video bytes while the task is still queued or in_progress',
    breaks: ['content-after-completion', 'content-json-errors'],
    after(request, response, context) {
      const found = ownContent(context);
      if (
        !refused(response.status) ||
        found === undefined ||
        found.snap.status === 'completed' ||
        found.snap.status === 'failed'
      )
        return response;
      const { media } = context.state;
      return serveMedia(media, request.headers['range'], request.method === 'HEAD');
    },
  },
  {
    name: 'content-as-json',
    description: 'a completed task\'s content is a JSON `{"url": …}` instead of the binary video',
    breaks: ['content-binary'],
    after(request, response, context) {
      const found = ownContent(context);
      if (![200, 206, 302].includes(response.status) || found?.snap.status !== 'completed')
        return response;
      const { signer } = context.state;
      const url = signer.url(request.origin, found.task.id, found.snap.finishedAt! + signer.ttlMs);
      return jsonResponse(200, { url });
    },
  },
  {
    name: 'content-html-as-video',
    description:
      "a completed task's content is an HTML error page labelled video/mp4 (a CDN or proxy page)",
    breaks: ['content-binary'],
    after: labelledVideo(
      '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head>' +
        '<body><h1>502 Bad Gateway</h1></body></html>',
    ),
  },
  {
    name: 'content-empty-video',
    description: "a completed task's content is an empty 200 labelled video/mp4",
    breaks: ['content-binary'],
    after: labelledVideo(''),
  },
  {
    name: 'missing-task-200',
    description: 'content of a task that does not exist answers 200 with an empty body',
    breaks: ['content-json-errors'],
    after(_request, response, { operationId, task, state }) {
      if (!refused(response.status) || operationId !== 'getVideoContent' || task !== undefined)
        return response;
      return {
        status: 200,
        headers: { 'content-type': state.media.contentType, 'content-length': '0' },
        body: new Uint8Array(0),
      };
    },
  },
];
