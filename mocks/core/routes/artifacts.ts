import { errorResponse } from '../http/errors.ts';
import type { CoreResponse } from '../http/http-types.ts';
import { snapshot } from '../plan/snapshot.ts';
import type { ServiceState } from '../service/service-state.ts';
import { serveMedia } from './content.ts';

/** What a temporary result address reads of the service: its signature, the task, the clock, the video. */
export type ArtifactState = Pick<ServiceState, 'signer' | 'store' | 'clock' | 'media'>;

/**
 * `GET /__artifacts/{file}`: a temporary result address, public like an upstream CDN URL. It works
 * until it expires (410 `artifact_gone`, the gateway's code), refuses a forged one (403), and follows the clock.
 */
export function getArtifact(
  state: ArtifactState,
  file: string,
  query: string,
  range: string | undefined,
  head: boolean,
): CoreResponse {
  const verdict = state.signer.verify(file, new URLSearchParams(query), state.clock.now());
  if (!verdict.ok)
    return errorResponse(verdict.reason === 'expired' ? 'artifact_gone' : 'artifact_invalid', {
      taskId: verdict.taskId,
    });
  const task = state.store.get(verdict.taskId);
  if (
    task === undefined ||
    snapshot(task.createdAt, task.plan, state.clock.now()).status !== 'completed'
  ) {
    return errorResponse('artifact_invalid', { taskId: verdict.taskId });
  }
  return serveMedia(state.media, range, head);
}
