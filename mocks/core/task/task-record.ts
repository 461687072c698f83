import type { TaskPlan } from '../plan/plan.ts';
import type { SharedState } from '../state/shared-state.ts';

/** What a task is made of: its ID's fields, decoded, and what the deployment derives from them. */
export type TaskFacts = Pick<
  TaskRecord,
  'id' | 'owner' | 'model' | 'createdAt' | 'drawnPlan' | 'platform' | 'seconds' | 'quota' | 'row'
>;

/**
 * One task as its ID (decoded) and the shared state describe it. Its state is never stored; it is
 * computed from the plan and the clock when asked (`snapshot`). Nothing here changes: a forced outcome
 * and the `flaky` query count are read from the shared state each time.
 */
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

/** When and with which plan seed a task was minted (what a cluster primary tracks, decisions/016). */
export interface MintedAt {
  readonly createdAt: number;
  readonly draw: number;
}
