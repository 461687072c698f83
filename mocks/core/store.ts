import type { MintedAt } from './persistence.ts';
import type { TaskPlan } from './plan.ts';
import type { SharedState } from './shared-state.ts';
import type { TaskLookup } from './task-lookup.ts';

/**
 * One task as its ID (decoded) and the shared state describe it. Its state is never stored; it is
 * computed from the plan and the clock when asked (`snapshot`). Nothing here changes: a forced outcome
 * and the `flaky` query count are read from the shared state each time.
 */
/** What a task is made of: its ID's fields, decoded, and what the deployment derives from them. */
export type TaskFacts = Pick<
  TaskRecord,
  'id' | 'owner' | 'model' | 'createdAt' | 'drawnPlan' | 'platform' | 'seconds' | 'quota' | 'row'
>;

export class TaskRecord {
  readonly id: string;
  /** The user that owns it (§5), never a key. */
  readonly owner: string;
  readonly model: string;
  /** Simulated ms since the epoch. */
  readonly createdAt: number;
  /** The plan drawn at submission (`plan` is this unless an outcome was forced). */
  readonly drawnPlan: TaskPlan;
  /** The channel type it was routed to (`"54"`, `"61"`): the wrapper's `platform`. */
  readonly platform: string;
  /** Seconds of video asked for (what the task is charged for). */
  readonly seconds: number;
  /** Quota units charged (price per second × seconds). */
  readonly quota: number;
  /** Its row number in the gateway's task table (the observed profile's wrapper `id`). */
  readonly row: number;
  readonly #shared: Pick<SharedState, 'forced' | 'queries'>;

  constructor(facts: TaskFacts, shared: Pick<SharedState, 'forced' | 'queries'>) {
    ({
      id: this.id,
      owner: this.owner,
      model: this.model,
      createdAt: this.createdAt,
      drawnPlan: this.drawnPlan,
      platform: this.platform,
      seconds: this.seconds,
      quota: this.quota,
      row: this.row,
    } = facts);
    this.#shared = shared;
  }

  /** The plan it follows now: a forced outcome's, or the one drawn at submission. */
  get plan(): TaskPlan {
    return this.#shared.forced.get(this.id) ?? this.drawnPlan;
  }

  /** Status queries answered so far (the `flaky` scenario fails every n-th). */
  get queries(): number {
    return this.#shared.queries.get(this.id) ?? 0;
  }
}

/**
 * The tasks this process created, for listing (`GET /__mock/tasks`): their IDs only, since each ID
 * carries its task (decisions/010); lookups decode IDs (`TaskLookup`), so `get` also finds a task
 * another process of the deployment created. It also says which IDs are taken, so that no new task gets
 * one (`has`): those listed here — restored from a state file too — and those another process of the
 * deployment made that this one could otherwise mint again (`avoid`: a replacement worker's
 * predecessor's). A reset forgets them all: IDs of the next generation differ from every earlier one.
 */
export class TaskStore {
  /** In submission order (a Set keeps it): the listing, and the lookup for `has`, in one table. */
  readonly #ids = new Set<string>();
  readonly #elsewhere = new Set<string>();
  readonly #lookup: TaskLookup;

  constructor(lookup: TaskLookup) {
    this.#lookup = lookup;
  }

  /** Tasks created here (since the last reset). */
  get size(): number {
    return this.#ids.size;
  }

  /** Lists a task created here. */
  add(id: string): void {
    this.#ids.add(id);
  }

  /** Marks IDs another process of the deployment made as taken, without listing them. */
  avoid(ids: Iterable<string>): void {
    for (const id of ids) this.#elsewhere.add(id);
  }

  /** Whether a new task must not get this ID: it is listed here, or `avoid` was told of it. */
  has(id: string): boolean {
    return this.#ids.has(id) || this.#elsewhere.has(id);
  }

  /** Any task of this deployment, whoever owns it. */
  get(id: string): TaskRecord | undefined {
    return this.#lookup.find(id);
  }

  /** The task if `owner` owns it; another user's task is indistinguishable from a missing one (§5). */
  getOwned(id: string, owner: string): TaskRecord | undefined {
    return this.#lookup.findOwned(id, owner);
  }

  /** When and with which plan seed a listed ID was minted (`TaskLookup.mintedAt`). */
  mintedAt(id: string): MintedAt | undefined {
    return this.#lookup.mintedAt(id);
  }

  /** The tasks created here, in submission order. */
  *values(): IterableIterator<TaskRecord> {
    for (const id of this.#ids) {
      const task = this.#lookup.find(id);
      if (task !== undefined) yield task;
    }
  }

  /** The IDs created here, in submission order (a state file keeps them): a copy. */
  ids(): string[] {
    return [...this.#ids];
  }

  /** Forgets the listing and the IDs taken elsewhere (a reset). */
  clear(): void {
    this.#ids.clear();
    this.#elsewhere.clear();
  }
}
