import type { Clock } from './clock.ts';
import { snapshot, type TaskSnapshot } from './snapshot.ts';
import type { TaskStore } from './store.ts';
import type { TaskRecord } from './task-record.ts';

/** A task and its state at one instant. */
export interface TaskView {
  readonly task: TaskRecord;
  readonly snap: TaskSnapshot;
}

/**
 * The task `id` names, whoever owns it, in its state at the clock's present; undefined when there is
 * no such task. The one lookup the wrapping hook makes (`wrapContext`, once per request).
 */
export function taskView(
  state: { readonly store: TaskStore; readonly clock: Clock },
  id: string,
): TaskView | undefined {
  const task = state.store.get(id);
  if (task === undefined) return undefined;
  return { task, snap: snapshot(task.createdAt, task.plan, state.clock.now()) };
}
