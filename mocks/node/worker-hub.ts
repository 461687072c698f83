import type { Worker } from 'node:cluster';
import { isDurable, type Operation } from '../core/shared-state.ts';
import type { ToWorker, WorkerInit } from './cluster-messages.ts';
import type { StateObserver } from './observed-persistence.ts';

/**
 * The primary's side of the shared state (decisions/016): the observer of the primary's service, it
 * sends every change, in the order the primary applies them, to every worker that has its init.
 * A durable change is awaited (`during`): each worker acknowledges it once applied. Bookkeeping
 * (query counts, request IDs) is sent without waiting: workers agree on it a moment later.
 */
export class WorkerHub implements StateObserver {
  /** Workers with their init, each with its acknowledgements awaited. */
  readonly #ready = new Map<Worker, Map<number, () => void>>();
  #sequence = 0;
  #ceiling: number | undefined;
  #except: Worker | undefined;
  #applied: Promise<void>[] | undefined;

  operation(operation: Operation): void {
    const durable = isDurable(operation);
    for (const [worker, waiting] of this.#ready) {
      if (worker === this.#except) continue; // it applied this change itself
      if (!durable) {
        post(worker, { t: 'op', op: operation });
        continue;
      }
      const n = ++this.#sequence;
      this.#applied?.push(new Promise((resolve) => waiting.set(n, resolve)));
      post(worker, { t: 'op', op: operation, ack: n });
    }
  }

  ceiling(ms: number | undefined): void {
    this.#ceiling = ms;
    for (const worker of this.#ready.keys()) post(worker, { t: 'ceiling', ms });
  }

  /** The clock's ceiling now (a new worker's init). */
  get clockCeiling(): number | undefined {
    return this.#ceiling;
  }

  /**
   * Runs `change`, which applies operations through the primary's service (synchronously), and says
   * when every worker but `except` (the one that made it) has applied its durable ones.
   */
  during<T>(except: Worker | undefined, change: () => T): { result: T; applied: Promise<void> } {
    const applied: Promise<void>[] = [];
    this.#except = except;
    this.#applied = applied;
    try {
      const result = change();
      return { result, applied: Promise.all(applied).then(() => {}) };
    } finally {
      this.#except = undefined;
      this.#applied = undefined;
    }
  }

  /** Sends a worker its init; from now on it gets every change. */
  join(worker: Worker, init: WorkerInit): void {
    post(worker, { t: 'init', init });
    this.#ready.set(worker, new Map());
  }

  acknowledged(worker: Worker, n: number): void {
    const waiting = this.#ready.get(worker);
    waiting?.get(n)?.();
    waiting?.delete(n);
  }

  /** A worker is gone: nothing waits for it (a new one starts from the state then). */
  leave(worker: Worker): void {
    for (const resolve of this.#ready.get(worker)?.values() ?? []) resolve();
    this.#ready.delete(worker);
  }
}

/** Sends a message; a worker whose channel has closed is about to be reported gone (its exit). */
export function post(worker: Worker, message: ToWorker): void {
  if (worker.isConnected()) worker.send(message);
}
