import type { TaskPlan } from './plan.ts';

/**
 * One submitted task: immutable facts plus its plan. Its state is never stored; it is computed from
 * the plan and the clock when asked (`snapshot`). Kept small: at a million tasks the store must stay
 * under 1 KB per task, so the prompt and the rest of the request are not kept.
 */
export class TaskRecord {
  constructor(
    readonly id: string,
    /** The user that owns it (§5), never a key. */
    readonly owner: string,
    readonly model: string,
    /** Simulated ms since the epoch. */
    readonly createdAt: number,
    plan: TaskPlan,
    /** The channel type it was routed to (`"54"`, `"61"`): the wrapper's `platform`. */
    readonly platform: string,
    /** Seconds of video asked for (what the task is charged for). */
    readonly seconds: number,
    /** Quota units charged (price per second × seconds). */
    readonly quota: number,
    /** Row number, as the gateway's task table numbers them. */
    readonly row: number,
  ) {
    this.#plan = plan;
  }

  #plan: TaskPlan;
  #queries = 0;
  /** The store holding it, told of every change (a state file journals them). */
  #store: TaskStore | undefined;

  get plan(): TaskPlan {
    return this.#plan;
  }

  /** Replaced when an outcome is forced (`forcePlan`). */
  set plan(plan: TaskPlan) {
    this.#plan = plan;
    this.#store?.changed(this);
  }

  /** Status queries answered so far (the `flaky` scenario fails every n-th). */
  get queries(): number {
    return this.#queries;
  }

  set queries(count: number) {
    this.#queries = count;
    this.#store?.changed(this);
  }

  /** @internal Called by `TaskStore.add`. */
  static attach(task: TaskRecord, store: TaskStore): void {
    task.#store = store;
  }
}

/** Told of every change to a store's tasks (`mocks/core/state-file.ts`). */
export interface TaskStoreObserver {
  /** A task was added, or its plan or query counter changed. */
  changed(task: TaskRecord): void;
  /** Every task was forgotten (`POST /__mock/reset`). */
  cleared(): void;
}

/** Tasks by public ID: O(1) lookup and insert whatever the count. */
export class TaskStore {
  readonly #tasks = new Map<string, TaskRecord>();

  get size(): number {
    return this.#tasks.size;
  }

  add(task: TaskRecord): void {
    if (this.#tasks.has(task.id)) throw new Error(`Task ${task.id} already exists`);
    this.#tasks.set(task.id, task);
    TaskRecord.attach(task, this);
    this.#observer?.changed(task);
  }

  get(id: string): TaskRecord | undefined {
    return this.#tasks.get(id);
  }

  /** The task if `owner` owns it; another user's task is indistinguishable from a missing one (§5). */
  getOwned(id: string, owner: string): TaskRecord | undefined {
    const task = this.#tasks.get(id);
    return task !== undefined && task.owner === owner ? task : undefined;
  }

  values(): IterableIterator<TaskRecord> {
    return this.#tasks.values();
  }

  clear(): void {
    this.#tasks.clear();
    this.#rows = 0;
    this.#observer?.cleared();
  }

  #rows = 0;

  /** The next row number. */
  nextRow(): number {
    return ++this.#rows;
  }

  /** The last row number handed out (0 after `clear`). */
  get rows(): number {
    return this.#rows;
  }

  /** Continues row numbering after `rows` (a restored store). */
  resumeRows(rows: number): void {
    this.#rows = Math.max(this.#rows, rows);
  }

  #observer: TaskStoreObserver | undefined;

  /** Sets (or, with `undefined`, removes) the one observer of changes. */
  observe(observer: TaskStoreObserver | undefined): void {
    this.#observer = observer;
  }

  /** @internal A task of this store changed (its plan or query counter). */
  changed(task: TaskRecord): void {
    if (this.#observer !== undefined && this.#tasks.get(task.id) === task)
      this.#observer.changed(task);
  }
}
