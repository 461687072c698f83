import type { CoreRequest, CoreResponse } from '../../core/http/http-types.ts';
import type { ServiceRequestIds } from '../../core/service/mock-options.ts';
import type { Operation, SharedState } from '../../core/state/shared-state.ts';
import { WHOLE_SHARE, shareWithin, type TaskIdShare } from '../../core/task-id/task-id-share.ts';

/**
 * The messages between a cluster primary and its workers (decisions/016), over node's IPC channel
 * with `serialization: 'advanced'` (structured clone: maps, byte arrays and `Infinity` pass as they are).
 */

/** Set in a worker's environment by the primary: `videotask mock` then runs as a worker. */
export const WORKER_ENV = 'VIDEOTASK_MOCK_WORKER';
/** The worker's slot, 0 … N-1 (a replacement takes the slot of the worker it replaces). */
export const WORKER_SLOT_ENV = 'VIDEOTASK_MOCK_WORKER_SLOT';
/** N, the number of workers. */
export const WORKER_COUNT_ENV = 'VIDEOTASK_MOCK_WORKERS';

/**
 * The service request IDs (`X-Oneapi-Request-Id`) a process of an N-worker deployment hands out, none
 * of them another's: worker s (0 … N-1) numbers its answers s + 1 modulo N + 1, the primary (its
 * control answers) 0.
 */
export function serviceRequestIdsOf(who: number | 'primary', workers: number): ServiceRequestIds {
  const step = workers + 1;
  return { first: who === 'primary' ? step : who + 1, step };
}

/**
 * The task-ID share of a process of an N-worker deployment, within `outer` (its replica's, if given
 * `--replica`): worker s mints plan seeds ≡ s and the primary (which mints none today) ≡ N, modulo
 * N + 1, so no two of them can mint the same ID (decisions/010). A replacement takes its slot's share.
 */
export function taskIdShareOf(
  who: number | 'primary',
  workers: number,
  outer: TaskIdShare = WHOLE_SHARE,
): TaskIdShare {
  return shareWithin(outer, { index: who === 'primary' ? workers : who, of: workers + 1 });
}

/** The response header naming the worker that answered (debugging a deployment of workers). */
export const WORKER_HEADER = 'x-mock-worker';

/** What a worker starts from: the deployment's secret, a seed of its own, the shared state now. */
export interface WorkerInit {
  readonly secret: string;
  /** Seeds the worker's draws: the deployment's seed, the start and the worker (no two alike). */
  readonly seed: string;
  /** Its slot's task-ID share (`taskIdShareOf`). */
  readonly share: TaskIdShare;
  /**
   * IDs made at the clock's current instant in that share (by the worker it replaces, or before a
   * restart): it could draw them again, and must not.
   */
  readonly taken: readonly string[];
  readonly shared: SharedState;
  /** The clock's ceiling (a real clock's durable lease), if any. */
  readonly ceiling: number | undefined;
}

export type ToWorker =
  | { readonly t: 'init'; readonly init: WorkerInit }
  /** Apply this; with `ack`, answer `{ t: 'ack', n: ack }` once applied. */
  | { readonly t: 'op'; readonly op: Operation; readonly ack?: number | undefined }
  /** Answer `{ t: 'ack', n: ack }`: the primary checks every worker responds before a control change. */
  | { readonly t: 'ping'; readonly ack: number }
  /**
   * Serve this connection (the message's handle): one a worker that died or stalled had been handed
   * and never took (decisions/021). Answer `{ t: 'took', n }` first.
   */
  | { readonly t: 'connection'; readonly n: number }
  | { readonly t: 'ceiling'; readonly ms: number | undefined }
  /** The answer to a relayed control request. */
  | { readonly t: 'answer'; readonly n: number; readonly response: CoreResponse }
  /** A worker's durable operation is kept and applied everywhere, or was refused (`problem`). */
  | { readonly t: 'kept'; readonly n: number; readonly problem?: string | undefined }
  /** Send the client observations you hold now, answering with `n` (a report is being read). */
  | { readonly t: 'flush-observations'; readonly n: number }
  | { readonly t: 'stop' };

export type FromWorker =
  /** Listening for messages: send the init. */
  | { readonly t: 'hello' }
  | { readonly t: 'listening'; readonly url: string }
  | { readonly t: 'failed'; readonly code?: string | undefined; readonly message: string }
  /** An operation the worker applied, at its generation; with `n`, a durable one awaiting `kept`. */
  | {
      readonly t: 'op';
      readonly op: Operation;
      readonly generation: number;
      readonly n?: number | undefined;
    }
  /** A task it created, at its generation: when and with which plan seed (`MintedAt`). */
  | {
      readonly t: 'created';
      readonly id: string;
      readonly generation: number;
      readonly at: number;
      readonly draw: number;
    }
  /** A control request (`/__mock/…`), for the primary to answer. */
  | { readonly t: 'request'; readonly n: number; readonly request: CoreRequest }
  | { readonly t: 'ack'; readonly n: number }
  /** The worker has the connection the primary handed it (`connection`): the primary closes its copy. */
  | { readonly t: 'took'; readonly n: number }

  /** Client observations for the primary to judge (decisions/019); with `n`, all it held then. */
  | {
      readonly t: 'observations';
      readonly batch: ObservationBatch;
      readonly n?: number | undefined;
    };

/**
 * Observations as they cross the IPC channel: columns, not objects (a structured clone of thousands
 * of small objects cost the primary more than judging them). Per observation, `NUMBERS` numbers and
 * `STRINGS` strings, in the order `encode` writes them
 * (observations.ts).
 */
export interface ObservationBatch {
  readonly count: number;
  readonly numbers: Float64Array;
  readonly strings: readonly (string | undefined)[];
}

/** A request as plain data (a host's request object may compute fields on demand). */
export function plainRequest(request: CoreRequest): CoreRequest {
  return {
    method: request.method,
    path: request.path,
    query: request.query,
    headers: { ...request.headers },
    body: request.body,
    origin: request.origin,
    remoteAddress: request.remoteAddress,
    hostAllowed: request.hostAllowed,
    bodyTooLarge: request.bodyTooLarge,
  };
}

/** The control route that reads or clears the client report: the workers' observations come first. */
export function isClientReportPath(path: string): boolean {
  return path === '/__mock/client-report' || path === '/__mock/client-report/';
}

/** Control requests: the primary answers them, so each change has one order everywhere. */
export function isControlPath(path: string): boolean {
  return path.charCodeAt(1) === 95 /* _ */ && path.startsWith('/__mock');
}
