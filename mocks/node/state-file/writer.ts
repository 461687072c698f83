import { dirname } from 'node:path';
import {
  StateNotSavedError,
  type PersistenceTarget,
  type PersistedState,
} from '../../core/service/persistence.ts';
import { isDurable, type Operation } from '../../core/state/shared-state.ts';
import { TIME_BOUND_MS } from '../../core/task-id/task-id-layout.ts';
import { syncDirectorySync } from '../../../src/node/atomic-file.ts';
import { StateFileAppender } from './appender.ts';
import { compactStateFile } from './compaction.ts';
import {
  StateFileError,
  clockLine,
  entryLines,
  headerLine,
  operationLine,
  startLine,
  taskLine,
  type Header,
  type SecretRecord,
} from './format.ts';
import { removeLeftovers, type StateLock } from './lock.ts';
import type { RestoredState } from './reader.ts';

/** Real ms a real clock's lease reaches ahead of it (decisions/012). */
export const DEFAULT_LEASE_MS = 2000;
/** A compaction starts once this many lines (or as many as the live state has, if more) could go. */
export const DEFAULT_COMPACT_AFTER = 10_000;

export interface StateFileOptions {
  readonly path: string;
  /** Real ms a real clock's durable lease reaches ahead (renewed every half of it). Default 2000. */
  readonly leaseMs?: number | undefined;
  /** Lines a compaction could drop that start one (default 10,000, or the live state's size if larger). */
  readonly compactAfter?: number | undefined;
  /** Told of a write failure no answer waits for (listing, lease, compaction); the mock keeps serving. */
  readonly onError?: ((error: Error) => void) | undefined;
}

/** A state file being kept up to date (`MockService.stateFile` from the Node entry). */
export interface StateFile extends PersistedState {
  /** What was read at start-up; `undefined` on a fresh start. */
  readonly restored: RestoredState | undefined;
  /** The file keeps the secret (a random one) rather than only its fingerprint (one given from outside). */
  readonly keepsSecret: boolean;
  /** Rewrites the file as the current state, without pausing the server; resolves when done. */
  compact(): Promise<void>;
}

/** What a state file is kept from: the file's options, the service, what was read, the lock held. */
export interface StateFileParts {
  readonly options: StateFileOptions;
  /** The service whose state is kept. */
  readonly target: PersistenceTarget;
  /** What the file held at start-up (read under `lock`); `undefined` on a fresh start. */
  readonly restored: RestoredState | undefined;
  /** The file's lock, released when the state file is closed. */
  readonly lock: StateLock;
  /** How the file names the secret: kept in it, or its fingerprint only. */
  readonly secret: SecretRecord;
}

/**
 * Starts keeping `parts.target` in the file (decisions/012): writes this start before the service
 * answers (fsync'd: the secret and the clock's resume position survive anything), then journals every
 * operation (durable ones fsync'd before their answer), every task created, and a real clock's lease.
 */
export function openStateFile(parts: StateFileParts): StateFile {
  const leaseMs = parts.options.leaseMs ?? DEFAULT_LEASE_MS;
  if (!(leaseMs > 0 && Number.isFinite(leaseMs)))
    throw new RangeError(`leaseMs must be a positive number, got ${String(leaseMs)}`);
  const session = new StateFileSession(parts, leaseMs);
  session.recordStart();
  session.keepLease(leaseMs);
  // A wasteful journal from an earlier run is compacted once the service runs.
  if (parts.restored !== undefined) setImmediate(() => session.maybeCompact());
  return session.stateFile();
}

/** One run's keeping of a state file: its journal, the clock's lease and compactions, until closed. */
class StateFileSession {
  readonly #parts: StateFileParts;
  readonly #path: string;
  readonly #journal: StateFileAppender;
  /** This start (1 on a fresh file). */
  readonly #starts: number;
  readonly #realClock: boolean;
  /** Simulated ms a real clock's lease reaches ahead of it (0 for a manual clock). */
  readonly #leaseSpan: number;
  #renew: NodeJS.Timeout | undefined;
  #compaction: Promise<void> | undefined;
  #closed = false;

  constructor(parts: StateFileParts, leaseMs: number) {
    this.#parts = parts;
    this.#path = parts.options.path;
    const clock = parts.target.shared.clock;
    this.#realClock = clock.mode === 'real';
    this.#leaseSpan = clock.mode === 'real' ? leaseMs * clock.speed : 0;
    this.#journal = new StateFileAppender(this.#path);
    this.#starts = (parts.restored?.starts ?? 0) + 1;
  }

  /** The session as a `StateFile`: a plain object of its own functions (`observedPersistence` copies it). */
  stateFile(): StateFile {
    return {
      path: this.#path,
      restored: this.#parts.restored,
      keepsSecret: 'kept' in this.#parts.secret,
      record: (operation) => this.#record(operation),
      created: (id) => this.#created(id),
      flush: () => {
        if (!this.#closed) this.#journal.sync();
      },
      compact: () => this.#compact(),
      close: () => this.#close(),
    };
  }

  /**
   * Before the service answers: takes over what a killed compaction left, drops a torn last line and
   * records this start (the secret and the clock's position durable).
   */
  recordStart(): void {
    const { restored } = this.#parts;
    try {
      removeLeftovers(this.#path);
      this.#journal.open();
      this.#journal.lines = restored?.lines ?? 0;
      const at = this.#position();
      if (restored === undefined) {
        this.#journal.append([headerLine(this.#header(at))], true);
        syncDirectorySync(dirname(this.#path));
      } else {
        if (restored.ignoredBytes > 0) this.#journal.truncate(restored.validBytes);
        if (restored.missingNewline) this.#journal.append([''], false);
        this.#journal.append([startLine(this.#starts, at)], true);
      }
      this.#holdClock(at);
    } catch (error) {
      this.#journal.close();
      throw error instanceof StateFileError ? error : this.#ioError('write it', error);
    }
  }

  /** A real clock's lease: renewed every half of `leaseMs` (a timer that keeps no process alive). */
  keepLease(leaseMs: number): void {
    if (!this.#realClock) return;
    this.#renew = setInterval(() => this.#renewLease(), leaseMs / 2);
    this.#renew.unref();
  }

  /** Compacts once the file holds many more lines than a compaction would write. */
  maybeCompact(): void {
    if (this.#closed || this.#compaction !== undefined) return;
    const live = this.#liveLines();
    const after = this.#parts.options.compactAfter ?? DEFAULT_COMPACT_AFTER;
    if (this.#journal.lines - live > Math.max(after, live))
      this.#compact().catch((error: unknown) => this.#report(this.#ioError('compact it', error)));
  }

  #record(operation: Operation): void {
    if (this.#closed) {
      if (isDurable(operation)) throw new StateNotSavedError(`state file ${this.#path} is closed`);
      return;
    }
    const at = operation.op === 'advance' ? this.#position(operation.ms) : undefined;
    const line = at === undefined ? operationLine(operation) : clockLine(at);
    try {
      this.#journal.append([line], isDurable(operation));
    } catch (error) {
      const problem = this.#ioError('write it', error);
      // Only what an answer depends on refuses the change; a query count or request ID is bookkeeping.
      if (isDurable(operation)) throw new StateNotSavedError(problem.message);
      this.#report(problem);
    }
    if (at !== undefined) this.#holdClock(at);
    this.maybeCompact();
  }

  #created(id: string): void {
    if (this.#closed) return;
    try {
      this.#journal.append([taskLine(id)], false);
    } catch (error) {
      this.#report(
        this.#ioError(`list task ${id} in it (the task itself is kept in its ID)`, error),
      );
    }
  }

  #renewLease(): void {
    const at = this.#position();
    try {
      this.#journal.append([clockLine(at)], true);
      this.#holdClock(at);
      this.maybeCompact();
    } catch (error) {
      const waits = `the clock waits at ${new Date(at).toISOString()}`;
      this.#report(this.#ioError(`renew the clock's lease (${waits})`, error));
    }
  }

  /** Rewrites the file as the current state, without pausing the server (one at a time). */
  #compact(): Promise<void> {
    this.#compaction ??= compactStateFile(this.#journal, this.#snapshot(), () => this.#closed)
      .then(() => undefined)
      .finally(() => {
        this.#compaction = undefined;
      });
    return this.#compaction;
  }

  #snapshot(): { head: string[]; ids: readonly string[] } {
    const { shared, store } = this.#parts.target;
    return {
      head: [headerLine(this.#header(this.#position())), ...entryLines(shared)],
      ids: store.ids(),
    };
  }

  /** The lines a compaction would write: it starts when the file holds many more. */
  #liveLines(): number {
    const { shared, store } = this.#parts.target;
    return (
      1 +
      store.size +
      shared.forced.size +
      shared.extras.size +
      shared.queries.size +
      shared.clientRequestIds.size
    );
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#renew);
    try {
      this.#journal.sync();
    } finally {
      this.#journal.close();
      this.#parts.lock.release();
    }
  }

  /** Where the clock may go until the next line: a manual clock's position, a real clock's lease. */
  #position(ms = 0): number {
    return Math.min(TIME_BOUND_MS, this.#parts.target.clockNow() + ms + this.#leaseSpan);
  }

  #holdClock(at: number): void {
    if (this.#realClock) this.#parts.target.setClockCeiling(at);
  }

  #header(clock: number): Header {
    const { target, secret } = this.#parts;
    return {
      seed: target.seed,
      secret,
      starts: this.#starts,
      clock,
      generation: target.shared.generation,
      familyBound: target.shared.familyBound,
    };
  }

  #report(error: unknown): void {
    this.#parts.options.onError?.(error as Error);
  }

  #ioError(what: string, error: unknown): StateFileError {
    return new StateFileError(this.#path, undefined, `cannot ${what}: ${(error as Error).message}`);
  }
}
