import {
  StateNotSavedError,
  type PersistenceTarget,
  type StateFile as CoreStateFile,
} from '../core/persistence.ts';
import { isDurable, type Operation } from '../core/shared-state.ts';
import { TIME_BOUND_MS } from '../core/task-id-layout.ts';
import { JournalFile, syncDirectoryOf } from './journal-file.ts';
import { compactStateFile } from './state-file-compaction.ts';
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
} from './state-file-format.ts';
import { removeLeftovers, type StateLock } from './state-file-lock.ts';
import type { RestoredFile } from './state-file-reader.ts';

export { StateFileError } from './state-file-format.ts';
export { readStateFile, type RestoredFile as RestoredState } from './state-file-reader.ts';

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
export interface StateFile extends CoreStateFile {
  /** What was read at start-up; `undefined` on a fresh start. */
  readonly restored: RestoredFile | undefined;
  /** The file keeps the secret (a random one) rather than only its fingerprint (one given from outside). */
  readonly keepsSecret: boolean;
  /** Rewrites the file as the current state, without pausing the server; resolves when done. */
  compact(): Promise<void>;
}

/**
 * Starts keeping `target` in the file (decisions/012): writes this start before the service answers
 * (fsync'd: the secret and the clock's resume position survive anything), then journals every
 * operation (durable ones fsync'd before their answer), every task created, and a real clock's lease.
 */
export function openStateFile(
  options: StateFileOptions,
  target: PersistenceTarget,
  restored: RestoredFile | undefined,
  lock: StateLock,
  secret: SecretRecord,
): StateFile {
  const { path } = options;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  if (!(leaseMs > 0 && Number.isFinite(leaseMs)))
    throw new RangeError(`leaseMs must be a positive number, got ${String(leaseMs)}`);
  const { shared, store } = target;
  const clock = shared.clock;
  const realClock = clock.mode === 'real';
  const leaseSpan = clock.mode === 'real' ? leaseMs * clock.speed : 0;
  const journal = new JournalFile(path);
  const starts = (restored?.starts ?? 0) + 1;
  const report = (error: unknown): void => options.onError?.(error as Error);
  let compaction: Promise<void> | undefined;
  let closed = false;

  const ioError = (what: string, error: unknown): StateFileError =>
    new StateFileError(path, undefined, `cannot ${what}: ${(error as Error).message}`);

  /** Where the clock may go until the next line: a manual clock's position, a real clock's lease. */
  const position = (ms = 0): number => Math.min(TIME_BOUND_MS, target.clockNow() + ms + leaseSpan);
  const holdClock = (at: number): void => {
    if (realClock) target.setClockCeiling(at);
  };

  const snapshot = () => ({
    head: [headerLine(headerOf(target, secret, starts, position())), ...entryLines(shared)],
    ids: store.ids(),
  });

  function compact(): Promise<void> {
    compaction ??= compactStateFile(journal, snapshot(), () => closed)
      .then(() => undefined)
      .finally(() => {
        compaction = undefined;
      });
    return compaction;
  }

  /** The lines a compaction would write: it starts when the file holds many more. */
  const liveLines = (): number =>
    1 +
    store.size +
    shared.forced.size +
    shared.extras.size +
    shared.queries.size +
    shared.requestIds.size;
  function maybeCompact(): void {
    if (closed || compaction !== undefined) return;
    const live = liveLines();
    if (journal.lines - live > Math.max(options.compactAfter ?? DEFAULT_COMPACT_AFTER, live))
      compact().catch((error: unknown) => report(ioError('compact it', error)));
  }

  // Before the service answers: drop a torn last line, record this start (the secret and the clock's
  // position durable), and take over what a killed compaction left.
  try {
    removeLeftovers(path);
    journal.open();
    journal.lines = restored?.lines ?? 0;
    const at = position();
    if (restored === undefined) {
      journal.append([headerLine(headerOf(target, secret, starts, at))], true);
      syncDirectoryOf(path);
    } else {
      if (restored.ignoredBytes > 0) journal.truncate(restored.validBytes);
      if (restored.missingNewline) journal.append([''], false);
      journal.append([startLine(starts, at)], true);
    }
    holdClock(at);
  } catch (error) {
    journal.close();
    throw error instanceof StateFileError ? error : ioError('write it', error);
  }

  const renew = setInterval(() => {
    const at = position();
    try {
      journal.append([clockLine(at)], true);
      holdClock(at);
      maybeCompact();
    } catch (error) {
      report(
        ioError(
          `renew the clock's lease (the clock waits at ${new Date(at).toISOString()})`,
          error,
        ),
      );
    }
  }, leaseMs / 2);
  renew.unref();
  if (!realClock) clearInterval(renew);
  if (restored !== undefined) setImmediate(maybeCompact); // a wasteful journal from an earlier run

  return {
    path,
    restored,
    keepsSecret: 'kept' in secret,
    record(operation: Operation) {
      if (closed) {
        if (isDurable(operation)) throw new StateNotSavedError(`state file ${path} is closed`);
        return;
      }
      const at = operation.op === 'advance' ? position(operation.ms) : undefined;
      const line = at === undefined ? operationLine(operation) : clockLine(at);
      try {
        journal.append([line], isDurable(operation));
      } catch (error) {
        const problem = ioError('write it', error);
        // Only what an answer depends on refuses the change; a query count or request ID is bookkeeping.
        if (isDurable(operation)) throw new StateNotSavedError(problem.message);
        report(problem);
      }
      if (at !== undefined) holdClock(at);
      maybeCompact();
    },
    created(id: string) {
      if (closed) return;
      try {
        journal.append([taskLine(id)], false);
      } catch (error) {
        report(ioError(`list task ${id} in it (the task itself is kept in its ID)`, error));
      }
    },
    flush() {
      if (!closed) journal.sync();
    },
    compact,
    close() {
      if (closed) return;
      closed = true;
      clearInterval(renew);
      try {
        journal.sync();
      } finally {
        journal.close();
        lock.release();
      }
    },
  };
}

function headerOf(
  target: PersistenceTarget,
  secret: SecretRecord,
  starts: number,
  clock: number,
): Header {
  return {
    seed: target.seed,
    secret,
    starts,
    clock,
    generation: target.shared.generation,
    familyBound: target.shared.familyBound,
  };
}
