import type { SendHandle } from 'node:child_process';
import type { Worker } from 'node:cluster';
import { isDurable, type Operation } from '../../core/state/shared-state.ts';
import type { ToWorker, WorkerInit } from './messages.ts';
import type { StateObserver } from '../observed-persistence.ts';

/** A worker's acknowledgement awaited, by number. */
type Awaited = Map<number, () => void>;

/**
 * The primary's side of the shared state (decisions/016): the observer of the primary's service, it
 * sends every change, in the order the primary applies them, to every worker that has its init.
 * A durable change is awaited (`during`): each worker acknowledges it once applied. Bookkeeping
 * (query counts, request IDs) is sent without waiting: workers agree on it a moment later.
 *
 * Every acknowledgement has a deadline (decisions/021): a worker that lets it pass is reported to
 * `supervise`'s callback, which replaces it; what waits for that worker resolves when it has exited.
 */
export class WorkerHub implements StateObserver {
  /** Workers with their init, each with its acknowledgements awaited. */
  readonly #ready = new Map<Worker, Awaited>();
  /** Workers being replaced: never asked again, and whatever waits for them resolves at their exit. */
  readonly #replaced = new Set<Worker>();
  #sequence = 0;
  #ceiling: number | undefined;
  #except: Worker | undefined;
  #applied: [Worker, number, Promise<void>][] | undefined;
  #deadlineMs = 5_000;
  #stalled: (worker: Worker, what: string) => void = () => {};

  /** Sets the deadline (ms) of every acknowledgement, and who is told of a worker that lets it pass. */
  supervise(deadlineMs: number, stalled: (worker: Worker, what: string) => void): void {
    this.#deadlineMs = deadlineMs;
    this.#stalled = stalled;
  }

  get deadlineMs(): number {
    return this.#deadlineMs;
  }

  operation(operation: Operation): void {
    const durable = isDurable(operation);
    for (const [worker, waiting] of this.#ready) {
      if (worker === this.#except) continue; // it applied this change itself
      if (!durable) {
        post(worker, { t: 'op', op: operation });
        continue;
      }
      const n = ++this.#sequence;
      this.#applied?.push([worker, n, new Promise((resolve) => waiting.set(n, resolve))]);
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
   * when every worker but `except` (the one that made it) has applied its durable ones, or has been
   * replaced for not doing so within the deadline (then once it has exited: no process answers
   * without the change).
   */
  during<T>(except: Worker | undefined, change: () => T): { result: T; applied: Promise<void> } {
    const applied: [Worker, number, Promise<void>][] = [];
    this.#except = except;
    this.#applied = applied;
    try {
      const result = change();
      return { result, applied: this.#withDeadline(applied, 'confirm a change') };
    } finally {
      this.#except = undefined;
      this.#applied = undefined;
    }
  }

  /**
   * Asks every worker (but those being replaced) to answer at once; resolves with those that did not
   * within the deadline, each reported stalled. A control change is made only when there are none.
   */
  async unresponsive(): Promise<Worker[]> {
    const asked: [Worker, number, Promise<void>][] = [];
    for (const [worker, waiting] of this.#ready) {
      if (this.#replaced.has(worker)) continue;
      const n = ++this.#sequence;
      asked.push([worker, n, new Promise((resolve) => waiting.set(n, resolve))]);
      post(worker, { t: 'ping', ack: n });
    }
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise((resolve) => (timer = setTimeout(resolve, this.#deadlineMs)));
    await Promise.race([Promise.all(asked.map(([, , answered]) => answered)), deadline]);
    clearTimeout(timer);
    const stalled = this.#late(asked)();
    for (const [worker, n] of asked) this.#ready.get(worker)?.delete(n);
    for (const worker of stalled) this.#stalled(worker, 'answer');
    return stalled;
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

  /** `worker` is being replaced: it is asked nothing more; what waits for it resolves at its exit. */
  replacing(worker: Worker): void {
    this.#replaced.add(worker);
  }

  /** A worker is gone: nothing waits for it (a new one starts from the state then). */
  leave(worker: Worker): void {
    for (const resolve of this.#ready.get(worker)?.values() ?? []) resolve();
    this.#ready.delete(worker);
    this.#replaced.delete(worker);
  }

  /**
   * Resolves once every acknowledgement awaited has come (or its worker has exited); one still
   * awaited after the deadline has its worker reported stalled (`what` it did not do).
   */
  #withDeadline(awaited: [Worker, number, Promise<void>][], what: string): Promise<void> {
    if (awaited.length === 0) return Promise.resolve();
    const all = Promise.all(awaited.map(([, , acknowledged]) => acknowledged)).then(() => {});
    const late = this.#late(awaited);
    const timer = setTimeout(() => {
      for (const worker of late()) this.#stalled(worker, what);
    }, this.#deadlineMs);
    return all.finally(() => clearTimeout(timer));
  }

  /** The workers that still owe one of `awaited` (each once), when called. */
  #late(awaited: readonly [Worker, number, Promise<void>][]): () => Worker[] {
    return () => [
      ...new Set(
        awaited.filter(([worker, n]) => this.#ready.get(worker)?.has(n)).map(([worker]) => worker),
      ),
    ];
  }
}

/**
 * Sends a message (with a connection's native handle, if any); a worker whose channel has closed is
 * about to be reported gone (its exit).
 */
export function post(worker: Worker, message: ToWorker, handle?: object): void {
  if (worker.isConnected()) worker.send(message, handle as SendHandle);
}
