import { jsonTextResponse, type CoreResponse } from '../http/http-types.ts';
import { renderVideoTask, renderWrapper } from '../render/render.ts';
import type { TaskSnapshot } from '../plan/snapshot.ts';
import { taskView, type TaskView } from '../task/task-view.ts';
import type { TaskRecord } from '../task/task-record.ts';
import type { RouteContext, ServiceState } from '../service/service-state.ts';

/** What the status routes read of the service (§4.2, §4.3). */
export type QueryState = Pick<
  ServiceState,
  'store' | 'clock' | 'signer' | 'apply' | 'profile' | 'renderedTasks' | 'wrapperStatuses'
>;
type QueryContext = RouteContext<QueryState>;

/**
 * The caller's task at this instant, or `undefined` when it is missing or someone else's (§5). Kept on
 * the context (`task`), so what reads the exchange after the route does not look it up again.
 */
export function ownedTask(context: QueryContext, taskId: string): TaskView | undefined {
  const found = taskView(context.state, taskId, context.token.user);
  if (found === undefined) return undefined;
  context.at = found.at;
  context.task = found;
  return found;
}

/** The temporary result address of a completed task: stable per task, expiring a TTL after completion. */
export function resultUrl(
  context: QueryContext,
  task: TaskRecord,
  snap: TaskSnapshot,
): string | undefined {
  if (snap.status !== 'completed') return undefined;
  const { signer } = context.state;
  return signer.url(context.request.origin, task.id, snap.finishedAt! + signer.ttlMs);
}

/** How a status route renders a task's state (§4.2, §4.3): a module-level function, no closure per query. */
type Render = (context: QueryContext, task: TaskRecord, snap: TaskSnapshot) => object;

/** A status query of the caller's task, or the error it gets (missing/foreign, or `flaky`'s temporary 503, §7). */
function statusQuery(context: QueryContext, taskId: string, render: Render): CoreResponse {
  const found = ownedTask(context, taskId);
  if (found === undefined) return context.error('status_task_not_found', { taskId });
  const { task, snap } = found;
  context.taskId = task.id;
  const every = task.plan.flakyEvery;
  if (every !== undefined) {
    const answered = task.queries;
    context.state.apply({ op: 'query', task: task.id });
    if (answered % every === 0)
      return context.error('temporarily_unavailable', {}, { 'retry-after': '1' });
  }
  context.taskStatus = snap.status;
  return taskAnswer(context, task.id, render(context, task, snap));
}

/**
 * A status route's 200: the body it rendered, kept on the context for whoever reads the exchange (the
 * learned replay), and its text, the task's last one while the body is the same value (decisions/039).
 */
export function taskAnswer(context: QueryContext, taskId: string, body: object): CoreResponse {
  context.rendered = body;
  return jsonTextResponse(200, context.state.renderedTasks.text(taskId, body));
}

const openAiTask: Render = (context, task, snap) =>
  renderVideoTask(task, snap, resultUrl(context, task, snap), context.state.profile);

const wrapperTask: Render = (context, task, snap) => {
  const { state } = context;
  return renderWrapper(
    task,
    snap,
    resultUrl(context, task, snap),
    state.wrapperStatuses,
    state.profile,
  );
};

/** `GET /v1/videos/{task_id}` (§4.2). */
export function getVideo(context: QueryContext, taskId: string): CoreResponse {
  return statusQuery(context, taskId, openAiTask);
}

/** `GET /v1/video/generations/{task_id}` (§4.3): the same story in the wrapper's words. */
export function getVideoGeneration(context: QueryContext, taskId: string): CoreResponse {
  return statusQuery(context, taskId, wrapperTask);
}
