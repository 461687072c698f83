import type { SharedState } from '../state/shared-state.ts';
import {
  blueprintOf,
  planFromRecipe,
  platformOf,
  type PlanSettings,
  quotaOf,
  type TaskBlueprint,
} from '../task-blueprint.ts';
import type { OpenedId, TaskIdCodec } from '../task-id/task-id-codec.ts';
import { unpackFields } from '../task-id/task-id-layout.ts';
import { TaskRecord, type MintedAt } from './task-record.ts';

/** Decoded tasks kept for repeated queries (a client polls its tasks): about 20 MB at most. */
export const DEFAULT_CACHE_SIZE = 50_000;

/**
 * Finds tasks by ID: decodes and verifies the ID under the deployment's secret (decisions/010), with a
 * bounded cache of decoded tasks. A forged or altered ID, one of another user, one from before a reset
 * and one whose extras this process does not have are all simply missing.
 */
export class TaskLookup {
  /** Two generations: when the young one is full it becomes the old one (a cheap LRU). */
  #young = new Map<string, TaskRecord>();
  #old = new Map<string, TaskRecord>();
  /**
   * The task found last: a client polls its task again and again, and comparing the ID asked for
   * with this one's costs less than hashing it (a string fresh from the request's path) for the maps
   * (issue 23). Whatever the maps would answer for its ID it answers too: the same task.
   */
  #last: TaskRecord | undefined = undefined;

  constructor(
    readonly codec: TaskIdCodec,
    readonly shared: SharedState,
    /** Every user that may own a task (lookups that do not name the owner try each). */
    readonly users: () => readonly string[],
    readonly plans: PlanSettings,
    readonly cacheSize = DEFAULT_CACHE_SIZE,
  ) {}

  /** The task if `owner` owns it. */
  findOwned(id: string, owner: string): TaskRecord | undefined {
    const cached = this.#cached(id);
    if (cached !== undefined) return cached.owner === owner ? cached : undefined;
    const opened = this.codec.open(id);
    return opened === undefined ? undefined : this.#decode(id, opened, owner);
  }

  /** The task whoever owns it (control routes, artifacts, listing). */
  find(id: string): TaskRecord | undefined {
    const cached = this.#cached(id);
    if (cached !== undefined) return cached;
    const opened = this.codec.open(id);
    if (opened === undefined) return undefined;
    for (const owner of this.users()) {
      const task = this.#decode(id, opened, owner);
      if (task !== undefined) return task;
    }
    return undefined;
  }

  /**
   * When and with which plan seed an ID this deployment made was minted, read from the ID without
   * checking whose it is (a listed ID's: a cluster primary restoring, decisions/016); `undefined` for
   * a string that is no task ID.
   */
  mintedAt(id: string): MintedAt | undefined {
    const opened = this.codec.open(id);
    const fields = opened === undefined ? undefined : unpackFields(opened.payload);
    return fields === undefined ? undefined : { createdAt: fields.createdAt, draw: fields.draw };
  }

  /** Forgets decoded tasks (after a reset, none of them exists). */
  clear(): void {
    this.#young.clear();
    this.#old.clear();
    this.#last = undefined;
  }

  #cached(id: string): TaskRecord | undefined {
    const last = this.#last;
    if (last !== undefined && last.id === id) return last;
    let found = this.#young.get(id);
    if (found === undefined) {
      found = this.#old.get(id);
      if (found === undefined) return undefined;
      this.remember(found);
    }
    this.#last = found;
    return found;
  }

  #decode(id: string, opened: OpenedId, owner: string): TaskRecord | undefined {
    const fields = this.codec.fieldsFor(opened, owner, this.shared.generation);
    if (fields === undefined) return undefined;
    const blueprint = blueprintOf(fields, fields.extras ? this.shared.extras.get(id) : undefined);
    if (blueprint === undefined) return undefined;
    const task = this.recordOf(id, owner, blueprint);
    this.remember(task);
    return task;
  }

  /** The task a blueprint makes, under its ID. */
  recordOf(id: string, owner: string, blueprint: TaskBlueprint): TaskRecord {
    const { model, seconds, createdAt, recipe } = blueprint;
    const facts = {
      id,
      owner,
      model: model.id,
      createdAt,
      drawnPlan: planFromRecipe(recipe, this.plans),
      platform: platformOf(model),
      seconds,
      quota: quotaOf(model, seconds),
      row: recipe.draw + 1,
    };
    return new TaskRecord(facts, this.shared);
  }

  /** Keeps a decoded (or just created) task; the least recently used ones go first. */
  remember(task: TaskRecord): void {
    if (this.#young.size >= this.cacheSize / 2) {
      this.#old = this.#young;
      this.#young = new Map();
    }
    this.#young.set(task.id, task);
  }
}
