import type { CoreRequest, CoreResponse } from '../../core/http/http-types.ts';
import type {
  Persistence,
  PersistenceTarget,
  PersistedState,
} from '../../core/service/persistence.ts';
import { isDurable, type Operation } from '../../core/state/shared-state.ts';
import type { FromWorker, ToWorker, WorkerInit } from './messages.ts';
import { plainRequest } from './messages.ts';

interface Waiter<T> {
  resolve(value: T): void;
  reject(error: Error): void;
}

/**
 * A cluster worker's side of the shared state (decisions/016). The worker's service keeps its state
 * through `persistence()`: what the worker changes itself (a task's extras, query counts, request IDs,
 * tasks created) goes to the primary, and a durable change holds the answer (`takePending`) until
 * every worker has it. What the primary sends is applied with `applyRemote`, in the primary's order.
 */
export class PrimaryLink {
  readonly #send: (message: FromWorker) => void;
  readonly #relayed = new Map<number, Waiter<CoreResponse>>();
  readonly #kept = new Map<number, Waiter<void>>();
  #counter = 0;
  #pending: Promise<void> | undefined;
  #remote = false;
  #target: PersistenceTarget | undefined;

  constructor(send: (message: FromWorker) => void) {
    this.#send = send;
  }

  /** What the worker's service restores from (the primary's state) and keeps its changes with. */
  persistence(init: WorkerInit): Persistence {
    const clock = init.shared.clock; // the core re-anchors a restored clock: keep the primary's anchors
    return {
      restored: {
        seed: init.seed,
        starts: 0,
        clock: 0,
        shared: init.shared,
        tasks: [],
        taken: init.taken,
      },
      attach: (target) => {
        target.shared.clock = clock; // before the service answers anything: the primary's exact clock
        target.setClockCeiling(init.ceiling);
        this.#target = target;
        return this.#stateFile(target);
      },
    };
  }

  /** The durable change the request just handled made, if any: its answer waits for it. */
  takePending(): Promise<void> | undefined {
    const pending = this.#pending;
    this.#pending = undefined;
    return pending;
  }

  /** Has the primary answer a control request. */
  relay(request: CoreRequest): Promise<CoreResponse> {
    const n = ++this.#counter;
    this.#send({ t: 'request', n, request: plainRequest(request) });
    return new Promise((resolve, reject) => this.#relayed.set(n, { resolve, reject }));
  }

  /** Handles a message from the primary other than `init` and `stop`. */
  receive(message: ToWorker, apply: (operation: Operation) => void): void {
    switch (message.t) {
      case 'op':
        this.#applyRemote(message.op, apply);
        if (message.ack !== undefined) this.#send({ t: 'ack', n: message.ack });
        return;
      case 'ping':
        this.#send({ t: 'ack', n: message.ack });
        return;
      case 'ceiling':
        this.#target?.setClockCeiling(message.ms);
        return;
      case 'answer':
        settle(this.#relayed, message.n)?.resolve(message.response);
        return;
      case 'kept': {
        const waiter = settle(this.#kept, message.n);
        if (message.problem === undefined) waiter?.resolve();
        else waiter?.reject(new Error(message.problem));
        return;
      }
      default:
        return;
    }
  }

  #applyRemote(operation: Operation, apply: (operation: Operation) => void): void {
    this.#remote = true;
    try {
      apply(operation);
    } finally {
      this.#remote = false;
    }
  }

  #stateFile(target: PersistenceTarget): PersistedState {
    return {
      path: '',
      record: (operation) => {
        if (this.#remote) return;
        const generation = target.shared.generation;
        if (!isDurable(operation)) return this.#send({ t: 'op', op: operation, generation });
        const n = ++this.#counter;
        this.#send({ t: 'op', op: operation, generation, n });
        const kept = new Promise<void>((resolve, reject) => this.#kept.set(n, { resolve, reject }));
        // Whoever takes it handles a refusal: never an unhandled rejection meanwhile.
        const before = this.#pending;
        const all = before === undefined ? kept : Promise.all([before, kept]).then(() => {});
        all.catch(() => {});
        this.#pending = all;
      },
      created: (id, minted) =>
        this.#send({
          t: 'created',
          id,
          generation: target.shared.generation,
          at: minted.createdAt,
          draw: minted.draw,
        }),
      flush: () => {},
      close: () => {},
    };
  }
}

function settle<T>(waiters: Map<number, Waiter<T>>, n: number): Waiter<T> | undefined {
  const waiter = waiters.get(n);
  waiters.delete(n);
  return waiter;
}
