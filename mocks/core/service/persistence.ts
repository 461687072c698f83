import type { Operation, SharedState } from '../state/shared-state.ts';
import type { TaskStore } from '../task/store.ts';
import type { MintedAt } from '../task/task-record.ts';

/**
 * How a host keeps a deployment's state across restarts (the Node state file, `mocks/node/`). The core
 * only calls it; it never touches a file itself. Tasks live in their IDs (decisions/010), so what is
 * kept is the seed, the shared state and, for listing, the IDs created.
 */
export interface Persistence {
  /** What was kept from an earlier run; `undefined` on a fresh start. */
  readonly restored: KeptState | undefined;
  /** Starts keeping the service's state (called once, before the service answers anything). */
  attach(target: PersistenceTarget): PersistedState;
}

/** What a restarted service resumes from. */
export interface KeptState {
  readonly seed: number | string;
  /** Times a mock has started on this state before. */
  readonly starts: number;
  /** The simulated time the clock resumes from: at or after any instant an answer revealed. */
  readonly clock: number;
  /** The shared state as it was (its clock is replaced by one resuming at `clock`). */
  readonly shared: SharedState;
  /** IDs created, in order (the listing). */
  readonly tasks: readonly string[];
  /**
   * IDs another process of the deployment made that this one must not mint again, unlisted (a cluster
   * worker's: those of the clock's current instant in its share, decisions/016).
   */
  readonly taken?: readonly string[] | undefined;
}

export interface PersistenceTarget {
  readonly seed: number | string;
  /** Names the deployment's secret without revealing it. */
  readonly secretFingerprint: string;
  readonly shared: SharedState;
  readonly store: TaskStore;
  /** The clock's reading, ignoring any ceiling. */
  clockNow(): number;
  /** The clock never shows more than this (a real clock's durable lease), or no limit (`undefined`). */
  setClockCeiling(ms: number | undefined): void;
}

/** A state being kept (`MockService.stateFile`). */
export interface PersistedState {
  readonly path: string;
  /**
   * Keeps an operation before it is applied; durable operations (`isDurable`) are on disk (fsync'd)
   * when this returns. Throws `StateNotSavedError` when it cannot keep a durable one: the operation is
   * then not applied (the others are applied anyway: they are bookkeeping).
   */
  record(operation: Operation): void;
  /** A task was created (listed). Never throws: the task lives in its ID whatever happens here. */
  created(id: string, minted: MintedAt): void;
  /** Writes what is pending and fsyncs. */
  flush(): void;
  /** Stops keeping the state; after it returns, nothing is lost. Idempotent. */
  close(): void;
}

/** A change could not be saved; it was not made. Answered 503 (retry later). */
export class StateNotSavedError extends Error {
  override readonly name = 'StateNotSavedError';
}
