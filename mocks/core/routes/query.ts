import { errorResponse } from '../errors.ts';
import { jsonResponse, type CoreResponse } from '../http-types.ts';
import { renderVideoTask, renderWrapper } from '../render.ts';
import { snapshot, type TaskSnapshot } from '../snapshot.ts';
import type { TaskRecord } from '../store.ts';
import type { RouteContext } from '../service-state.ts';

/** The caller's task at this instant, or `undefined` when it is missing or someone else's (§5). */
export function ownedTask(context: RouteContext, taskId: string): { task: TaskRecord; snap: TaskSnapshot } | undefined {
  const task = context.state.store.getOwned(taskId, context.token.user);
  if (task === undefined) return undefined;
  return { task, snap: snapshot(task.createdAt, task.plan, context.state.clock.now()) };
}

/** The temporary result address of a completed task: stable per task, expiring a TTL after completion. */
export function resultUrl(context: RouteContext, task: TaskRecord, snap: TaskSnapshot): string | undefined {
  if (snap.status !== 'completed') return undefined;
  const { signer } = context.state;
  return signer.url(context.request.origin, task.id, snap.finishedAt! + signer.ttlMs);
}

/** `GET /v1/videos/{task_id}` (§4.2). */
export function getVideo(context: RouteContext, taskId: string): CoreResponse {
  const found = ownedTask(context, taskId);
  if (found === undefined) return errorResponse('task_not_found', { taskId });
  return jsonResponse(200, renderVideoTask(found.task, found.snap, resultUrl(context, found.task, found.snap)));
}

/** `GET /v1/video/generations/{task_id}` (§4.3): the same story in the wrapper's words. */
export function getVideoGeneration(context: RouteContext, taskId: string): CoreResponse {
  const found = ownedTask(context, taskId);
  if (found === undefined) return errorResponse('task_not_found', { taskId });
  return jsonResponse(200, renderWrapper(found.task, found.snap, resultUrl(context, found.task, found.snap), context.state.wrapperStatuses));
}
