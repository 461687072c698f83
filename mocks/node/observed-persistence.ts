import type {
  Persistence,
  PersistenceTarget,
  PersistedState,
} from '../core/service/persistence.ts';
import type { Operation } from '../core/state/shared-state.ts';

/**
 * Told of every change to a service's shared state (a cluster primary broadcasts them to its workers,
 * decisions/016). `operation` runs once the operation is kept (a durable one on disk) and before it
 * is applied; a change that could not be kept is never told.
 */
export interface StateObserver {
  operation(operation: Operation): void;
  /** The clock's ceiling moved (a real clock's durable lease, decisions/012). */
  ceiling(ms: number | undefined): void;
}

/** `inner` (a state file, or nothing) with `observer` told of what passes through it. */
export function observedPersistence(
  inner: Persistence | undefined,
  observer: StateObserver,
): Persistence {
  return {
    restored: inner?.restored,
    attach(target) {
      const watched: PersistenceTarget = {
        ...target,
        setClockCeiling(ms) {
          target.setClockCeiling(ms);
          observer.ceiling(ms);
        },
      };
      const file = inner?.attach(watched);
      return file === undefined ? observerOnly(observer) : observedFile(file, observer);
    },
  };
}

function observedFile<F extends PersistedState>(file: F, observer: StateObserver): F {
  return {
    ...file,
    record(operation: Operation) {
      file.record(operation);
      observer.operation(operation);
    },
  };
}

/** No file: only the observer (its `path` is empty, and the service shows no state file). */
function observerOnly(observer: StateObserver): PersistedState {
  return {
    path: '',
    record: (operation) => observer.operation(operation),
    created: () => {},
    flush: () => {},
    close: () => {},
  };
}
