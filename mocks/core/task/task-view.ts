import type { Clock } from '../clock.ts';
import { snapshot, type TaskSnapshot } from '../plan/snapshot.ts';
import type { TaskStore } from './store.ts';
import type { TaskRecord } from './task-record.ts';

/** A task and its state at one instant. */
export interface TaskView {
  readonly task: TaskRecord;
  readonly snap: TaskSnapshot;
  /** The instant: the clock's reading `snap` is of. */
  readonly at: number;
}

/**
 * The task `id` names in its state at the clock's present; undefined when there is no such task. With
 * `owner`, only that user's task (another user's is indistinguishable from a missing one, §5): the
 * routes' lookup (`ownedTask`); without, whoever owns it: the wrappers' and the learned replay's.
 */
export function taskView(
  state: { readonly store: TaskStore; readonly clock: Clock },
  id: string,
  owner?: string,
): TaskView | undefined {
  const task = owner === undefined ? state.store.get(id) : state.store.getOwned(id, owner);
  if (task === undefined) return undefined;
  const at = state.clock.now();
  return { task, snap: snapshot(task.createdAt, task.plan, at), at };
}
