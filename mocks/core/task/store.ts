import type { TaskLookup } from './task-lookup.ts';
import type { MintedAt, TaskRecord } from './task-record.ts';

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
