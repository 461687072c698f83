import { jsonResponse } from '../core/http-types.ts';
import { serveMedia } from '../core/routes/content.ts';
import type { Defect } from './defect.ts';
import { callersTask, operationOf } from './support.ts';

/** Defects of the content endpoint `GET|HEAD /v1/videos/{task_id}/content` (§3 rule 2, §4.4). */

const isContent = (request: Parameters<typeof operationOf>[0]) =>
  operationOf(request)?.operationId === 'getVideoContent';

export const CONTENT_DEFECTS: readonly Defect[] = [
  {
    name: 'content-before-completion',
    description: 'content serves the video bytes while the task is still queued or in_progress',
    breaks: ['content-after-completion', 'content-json-errors'],
    after(request, response, state) {
      if (response.status !== 400 || !isContent(request)) return response;
      const found = callersTask(request, state);
      if (
        found === undefined ||
        found.snap.status === 'completed' ||
        found.snap.status === 'failed'
      )
        return response;
      return serveMedia(state.media, request.headers['range'], request.method === 'HEAD');
    },
  },
  {
    name: 'content-as-json',
    description: 'a completed task\'s content is a JSON `{"url": …}` instead of the binary video',
    breaks: ['content-binary'],
    after(request, response, state) {
      if (![200, 206, 302].includes(response.status) || !isContent(request)) return response;
      const found = callersTask(request, state);
      if (found === undefined || found.snap.status !== 'completed') return response;
      const url = state.signer.url(
        request.origin,
        found.task.id,
        found.snap.finishedAt! + state.signer.ttlMs,
      );
      return jsonResponse(200, { url });
    },
  },
  {
    name: 'missing-task-200',
    description: 'content of a task that does not exist answers 200 with an empty body',
    breaks: ['content-json-errors'],
    after(request, response, state) {
      if (response.status !== 404 || !isContent(request)) return response;
      const taskId = operationOf(request)?.taskId;
      if (taskId === undefined || state.store.get(taskId) !== undefined) return response;
      return {
        status: 200,
        headers: { 'content-type': state.media.contentType, 'content-length': '0' },
        body: new Uint8Array(0),
      };
    },
  },
];
