import type { ChildProcess } from 'node:child_process';
import type { Worker } from 'node:cluster';
import { post } from './worker-hub.ts';

/** A connection's native handle, as node:cluster passes it between processes (libuv's TCP handle). */
export interface ConnectionHandle {
  close(): void;
}

interface Handoff {
  readonly handle: ConnectionHandle;
  /** When it was handed over (ms). */
  readonly since: number;
}

/**
 * The connections handed to each worker and not yet taken (decisions/021, issue 24 item 9).
 *
 * node:cluster's primary accepts every connection and sends it to a worker (an internal
 * `{cmd: 'NODE_CLUSTER', act: 'newconn', seq}` message carrying the handle); it closes its own copy of
 * the socket only when the worker answers `{ack: seq}`. A worker killed (or stopped) before it answers
 * leaves that copy open in the primary for ever: the client's request is neither answered nor closed
 * (nodejs/node-v0.x-archive#7006; so still in Node 20). A worker's own connections, those it took,
 * close with it: the kernel holds no other copy.
 *
 * This watches node's handoffs through the worker's IPC channel (the primary's `send` and the
 * `internalMessage` event, both of node's `ChildProcess`), and the primary's own (`handOver`), so that
 * what a dead worker never took can be handed to another, and a worker that leaves a connection
 * untaken for too long is known to be stalled.
 */
export class ConnectionHandoffs {
  readonly #pending = new Map<Worker, Map<string, Handoff>>();
  #counter = 0;

  /** Watches the connections node:cluster hands `worker`: call it right after the fork. */
  watch(worker: Worker): void {
    const pending = new Map<string, Handoff>();
    this.#pending.set(worker, pending);
    const child = worker.process as ChildProcess & { send: (...args: unknown[]) => boolean };
    const send = child.send.bind(child);
    child.send = (message: unknown, handle?: unknown, ...rest: unknown[]) => {
      if (handle !== undefined && isNewConnection(message))
        pending.set(`node:${message.seq}`, {
          handle: handle as ConnectionHandle,
          since: Date.now(),
        });
      return send(message, handle, ...rest);
    };
    child.on('internalMessage', (message: unknown) => {
      // Taken, or refused (node then hands it to another worker itself): no longer this one's.
      if (isClusterAck(message)) pending.delete(`node:${message.ack}`);
    });
  }

  /** Hands `worker` a connection another worker never took; it answers `took`. */
  handOver(worker: Worker, handle: ConnectionHandle): void {
    const n = ++this.#counter;
    this.#pending.get(worker)?.set(`own:${n}`, { handle, since: Date.now() });
    post(worker, { t: 'connection', n }, handle);
  }

  /** `worker` has the connection handed over as `n`: this process's copy is closed. */
  took(worker: Worker, n: number): void {
    const pending = this.#pending.get(worker);
    const handoff = pending?.get(`own:${n}`);
    pending?.delete(`own:${n}`);
    handoff?.handle.close();
  }

  /** `worker` is gone: the connections it never took, for another worker. */
  left(worker: Worker): ConnectionHandle[] {
    const handoffs = [...(this.#pending.get(worker)?.values() ?? [])];
    this.#pending.delete(worker);
    return handoffs.map((handoff) => handoff.handle);
  }

  /** Workers that have left a connection untaken for `ms` or longer. */
  stalledFor(ms: number): Worker[] {
    const before = Date.now() - ms;
    return [...this.#pending]
      .filter(([, pending]) => [...pending.values()].some((handoff) => handoff.since <= before))
      .map(([worker]) => worker);
  }
}

interface ClusterMessage {
  readonly cmd: 'NODE_CLUSTER';
  readonly act?: unknown;
  readonly seq?: unknown;
  readonly ack?: unknown;
}

const isClusterMessage = (message: unknown): message is ClusterMessage =>
  typeof message === 'object' &&
  message !== null &&
  (message as { cmd?: unknown }).cmd === 'NODE_CLUSTER';

const isNewConnection = (message: unknown): message is ClusterMessage & { seq: number } =>
  isClusterMessage(message) && message.act === 'newconn' && typeof message.seq === 'number';

const isClusterAck = (message: unknown): message is ClusterMessage & { ack: number } =>
  isClusterMessage(message) && typeof message.ack === 'number';
