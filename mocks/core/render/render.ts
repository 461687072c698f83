import type { components } from '../../../src/generated/openapi.ts';
import {
  toNativeStatus,
  toWrapperStatus,
  type Lifecycle,
  type VideoStatus,
} from '../../../src/spec/lifecycle.ts';
import type { Profile } from '../profile/core-profile.ts';
import type { TaskSnapshot } from '../plan/snapshot.ts';
import type { TaskRecord } from '../task/task-record.ts';

type VideoTask = components['schemas']['VideoTask'];
type TaskWrapper = components['schemas']['TaskWrapper'];
type PluginTask = components['schemas']['PluginTask'];

const seconds = (ms: number) => Math.floor(ms / 1000);

/** Progress as the profile shows it: a smooth curve, or the gateway's steps (0 → 10 → 50 → 100). */
export function shownProgress(snap: TaskSnapshot, profile: Profile): number {
  return profile.progressSteps?.[snap.status] ?? snap.progress;
}

/**
 * The OpenAI-form task object (§2.2). Fields follow `x-lifecycle.presence`: the always-present ones,
 * `task_id` and `created_at` (required on submission and completion; sent always), `completed_at` and
 * `metadata.url` once completed, `error` once failed; plus the profile's habits.
 */
export function renderVideoTask(
  task: TaskRecord,
  snap: TaskSnapshot,
  resultUrl: string | undefined,
  profile: Profile,
): VideoTask {
  const body: VideoTask = {
    id: task.id,
    task_id: task.id,
    object: 'video',
    model: task.model,
    status: snap.status,
    progress: shownProgress(snap, profile),
    created_at: seconds(task.createdAt),
  };
  if (snap.status === 'completed') {
    body.completed_at = seconds(snap.finishedAt!);
    body.metadata = { url: resultUrl ?? '' };
  } else {
    if (profile.completedAtWhileRunning) body.completed_at = seconds(snap.updatedAt);
    if (profile.emptyUrlUntilDone) body.metadata = { url: '' };
    if (snap.status === 'failed')
      body.error = {
        code: task.plan.errorCode ?? 'UnknownError',
        message: task.plan.errorMessage ?? 'The task failed.',
      };
  }
  return body;
}

/** Canonical wrapper status per OpenAI status, read once from `x-lifecycle.mapping`. */
export function wrapperStatuses(lifecycle: Lifecycle): Readonly<Record<VideoStatus, string>> {
  return Object.fromEntries(
    lifecycle.states.values.map((s) => [s, toWrapperStatus(lifecycle, s)]),
  ) as Record<VideoStatus, string>;
}

/** The generic task wrapper (§2.3) telling the same story as `renderVideoTask` at the same instant. */
export function renderWrapper(
  task: TaskRecord,
  snap: TaskSnapshot,
  resultUrl: string | undefined,
  statuses: Readonly<Record<VideoStatus, string>>,
  profile: Profile,
): TaskWrapper {
  const data: NonNullable<TaskWrapper['data']> = {
    task_id: task.id,
    platform: task.platform,
    status: statuses[snap.status],
    progress: `${shownProgress(snap, profile)}%`,
    fail_reason: snap.status === 'failed' ? (task.plan.errorMessage ?? 'The task failed.') : '',
    created_at: seconds(task.createdAt),
    updated_at: seconds(snap.updatedAt),
  };
  if (snap.status === 'completed' && resultUrl !== undefined) data.result_url = resultUrl;
  if (profile.wrapperRowFields) {
    const started = task.createdAt + task.plan.queueMs;
    Object.assign(data, {
      id: task.row,
      user_id: userNumber(task.owner),
      group: task.platform === '61' ? 'vip' : 'default',
      channel_id: task.platform === '61' ? 7 : 3,
      quota: task.quota,
      action: 'generate',
      submit_time: seconds(task.createdAt),
      start_time: snap.status === 'queued' || snap.status === 'unknown' ? 0 : seconds(started),
      finish_time: snap.finishedAt === undefined ? 0 : seconds(snap.finishedAt),
      properties: {},
      data: {},
    });
  }
  return { code: 'success', message: '', data };
}

/** The second family's native task (upstream shape, §4.5) for the same task at the same instant. */
export function renderPluginTask(
  task: TaskRecord,
  snap: TaskSnapshot,
  resultUrl: string | undefined,
  lifecycle: Lifecycle,
): PluginTask {
  const body: PluginTask = {
    id: task.id,
    model: task.model,
    status: toNativeStatus(lifecycle, snap.status),
    created_at: seconds(task.createdAt),
    updated_at: seconds(snap.updatedAt),
  };
  if (snap.status === 'completed') {
    body.content = { video_url: resultUrl ?? '' };
    // Upstream usage: tokens scale with seconds of video, as the upstream bills them.
    const tokens = task.seconds * 21_780;
    body.usage = { completion_tokens: tokens, total_tokens: tokens };
  }
  if (snap.status === 'failed')
    body.error = {
      code: task.plan.errorCode ?? 'UnknownError',
      message: task.plan.errorMessage ?? 'The task failed.',
    };
  return body;
}

/** A stable small number per user, as the gateway's numeric user IDs. */
function userNumber(owner: string): number {
  let h = 0;
  for (let i = 0; i < owner.length; i++) h = (h * 31 + owner.charCodeAt(i)) % 100_000;
  return h + 1;
}
