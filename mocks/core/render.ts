import type { components } from '../../src/generated/openapi.ts';
import { toWrapperStatus, type Lifecycle, type VideoStatus } from '../../src/spec/lifecycle.ts';
import type { TaskSnapshot } from './snapshot.ts';
import type { TaskRecord } from './store.ts';

type VideoTask = components['schemas']['VideoTask'];
type TaskWrapper = components['schemas']['TaskWrapper'];

const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * The OpenAI-form task object (§2.2). Fields follow `x-lifecycle.presence`: the always-present ones,
 * `task_id` and `created_at` (required on submission and completion; sent always), `completed_at` and
 * `metadata.url` once completed, `error` once failed.
 */
export function renderVideoTask(task: TaskRecord, snap: TaskSnapshot, resultUrl: string | undefined): VideoTask {
  const body: VideoTask = {
    id: task.id,
    task_id: task.id,
    object: 'video',
    model: task.model,
    status: snap.status,
    progress: snap.progress,
    created_at: seconds(task.createdAt),
  };
  if (snap.status === 'completed') {
    body.completed_at = seconds(snap.finishedAt!);
    body.metadata = { url: resultUrl ?? '' };
  } else if (snap.status === 'failed') {
    body.error = { code: task.plan.errorCode ?? 'UnknownError', message: task.plan.errorMessage ?? 'The task failed.' };
  }
  return body;
}

/** Canonical wrapper status per OpenAI status, read once from `x-lifecycle.mapping`. */
export function wrapperStatuses(lifecycle: Lifecycle): Readonly<Record<VideoStatus, string>> {
  return Object.fromEntries(lifecycle.states.values.map((s) => [s, toWrapperStatus(lifecycle, s)])) as Record<VideoStatus, string>;
}

/** The generic task wrapper (§2.3) telling the same story as `renderVideoTask` at the same instant. */
export function renderWrapper(task: TaskRecord, snap: TaskSnapshot, resultUrl: string | undefined, statuses: Readonly<Record<VideoStatus, string>>): TaskWrapper {
  const data: NonNullable<TaskWrapper['data']> = {
    task_id: task.id,
    platform: task.platform,
    status: statuses[snap.status],
    progress: `${snap.progress}%`,
    fail_reason: snap.status === 'failed' ? (task.plan.errorMessage ?? 'The task failed.') : '',
    created_at: seconds(task.createdAt),
    updated_at: seconds(snap.updatedAt),
  };
  if (snap.status === 'completed' && resultUrl !== undefined) data.result_url = resultUrl;
  return { code: 'success', message: '', data };
}
