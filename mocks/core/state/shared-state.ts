import { CLIENT_REQUEST_ID_HEADERS } from '../../../src/spec/client-request-id.ts';
import type { TaskPlan } from '../plan/plan.ts';

/** The longest client request ID any of its headers accepts (the spec's `maxLength`). */
const MAX_CLIENT_REQUEST_ID_LENGTH = Math.max(...CLIENT_REQUEST_ID_HEADERS.map((h) => h.maxLength));

/**
 * What a task's answer needs beyond its ID and the deployment's configuration (decisions/010): one
 * serializable structure, changed only by `applyOperation`, so that every process of a deployment
 * (workers, a restarted mock reading its state file) can apply the same operations and agree.
 */
export interface SharedState {
  /** Bumped by a reset: IDs of earlier generations no longer verify (their tasks are gone). */
  generation: number;
  clock: ClockState;
  familyBound: boolean;
  /** Plans replaced by a forced outcome, by task ID. */
  readonly forced: Map<string, TaskPlan>;
  /** What a task's ID could not hold, by task ID (its ID's `extras` bit is set). */
  readonly extras: Map<string, TaskExtras>;
  /** Status queries answered per task (the `flaky` scenario fails every n-th). */
  readonly queries: Map<string, number>;
  /**
   * Submissions seen per client request ID (`X-Request-Id` / `Idempotency-Key`), for the
   * `CLIENT_REQUEST_ID_RECORDS` IDs submitted most recently, the most recent last.
   */
  readonly clientRequestIds: Map<string, number>;
}

/** Facts of a task its ID has no room for. */
export interface TaskExtras {
  /** The scenario and argument verbatim, when its code cannot carry them. */
  readonly scenario?: string | undefined;
  readonly arg?: string | undefined;
  /** Seconds charged, when not a whole number of 0–4095. */
  readonly seconds?: number | undefined;
}

/**
 * The simulated clock. Manual: a position. Real: the simulated time at a wall-clock instant (ms on the
 * monotonic `performance.timeOrigin + performance.now()` scale) and the speed from there.
 */
export type ClockState =
  | { readonly mode: 'manual'; readonly now: number }
  | {
      readonly mode: 'real';
      readonly speed: number;
      readonly anchorSim: number;
      readonly anchorWall: number;
    };

export type Operation =
  | { readonly op: 'advance'; readonly ms: number }
  | { readonly op: 'force'; readonly task: string; readonly plan: TaskPlan }
  | { readonly op: 'bind'; readonly bound: boolean }
  | { readonly op: 'reset'; readonly familyBound: boolean }
  | { readonly op: 'extras'; readonly task: string; readonly extras: TaskExtras }
  /** A submission named the client request ID `id` (the op's name is the state file's, decisions/012). */
  | { readonly op: 'request-id'; readonly id: string }
  | { readonly op: 'query'; readonly task: string };

/**
 * How many client request IDs the mock keeps a count for (issue 24 item 10: the records were
 * unbounded). Beyond it the ID submitted least recently is forgotten: it then reads as never seen, and
 * a submission with it again counts from 1. With IDs of at most 255 characters (the spec's
 * `ClientRequestId`), the records take at most a few MB, and as many lines of a compacted state file.
 */
export const CLIENT_REQUEST_ID_RECORDS = 10_000;

/**
 * Operations whose effect a client is told about in the 200 that follows (control changes and the
 * extras a task's answers depend on): a state file makes them durable (fsync) before that answer.
 */
export function isDurable(operation: Operation): boolean {
  return operation.op !== 'request-id' && operation.op !== 'query';
}

export function emptySharedState(clock: ClockState, familyBound: boolean): SharedState {
  return {
    generation: 0,
    clock,
    familyBound,
    forced: new Map(),
    extras: new Map(),
    queries: new Map(),
    clientRequestIds: new Map(),
  };
}

/** Applies one operation. Operations are checked before (`checkAdvance`, the routes): this never fails. */
export function applyOperation(state: SharedState, operation: Operation): void {
  switch (operation.op) {
    case 'advance':
      state.clock = advancedClock(state.clock, operation.ms);
      return;
    case 'force':
      state.forced.set(operation.task, operation.plan);
      return;
    case 'bind':
      state.familyBound = operation.bound;
      return;
    case 'reset':
      state.generation++;
      state.familyBound = operation.familyBound;
      state.forced.clear();
      state.extras.clear();
      state.queries.clear();
      state.clientRequestIds.clear();
      return;
    case 'extras':
      state.extras.set(operation.task, operation.extras);
      return;
    case 'request-id':
      countClientRequestId(
        state.clientRequestIds,
        operation.id,
        (state.clientRequestIds.get(operation.id) ?? 0) + 1,
      );
      return;
    case 'query':
      state.queries.set(operation.task, (state.queries.get(operation.task) ?? 0) + 1);
      return;
  }
}

/**
 * Sets an ID's count as its most recent record, and forgets the least recent beyond
 * `CLIENT_REQUEST_ID_RECORDS`. An ID over the spec's length limit (from a file written before there was one)
 * is not kept: a submission with it is refused now.
 */
export function countClientRequestId(
  records: Map<string, number>,
  id: string,
  count: number,
): void {
  if (id.length > MAX_CLIENT_REQUEST_ID_LENGTH) return;
  records.delete(id);
  records.set(id, count);
  if (records.size > CLIENT_REQUEST_ID_RECORDS) records.delete(records.keys().next().value!);
}

/** The clock moved forward by `ms`. */
export function advancedClock(clock: ClockState, ms: number): ClockState {
  return clock.mode === 'manual'
    ? { mode: 'manual', now: clock.now + ms }
    : { ...clock, anchorSim: clock.anchorSim + ms };
}
