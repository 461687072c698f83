import cluster from 'node:cluster';
import type { CoreRequest, CoreResponse } from '../../core/http/http-types.ts';
import { errorResponse } from '../../core/http/errors.ts';
import type { ServiceRequestIds } from '../../core/service/mock-options.ts';
import { createMockService, type MockOptions, type MockService } from '../create-mock-service.ts';
import type { Operation } from '../../core/state/shared-state.ts';
import type { ConnectionLimits } from '../http/connection-guard.ts';
import { startMockServer, type RunningMockServer } from '../http/server.ts';
import {
  WORKER_COUNT_ENV,
  WORKER_HEADER,
  WORKER_SLOT_ENV,
  serviceRequestIdsOf,
  isControlPath,
  type FromWorker,
  type ToWorker,
  type WorkerInit,
} from './messages.ts';
import type { ConnectionHandle } from './connection-handoffs.ts';
import { ObservationRelay } from './observations.ts';
import { PrimaryLink } from './primary-link.ts';

export interface WorkerOptions {
  /** The service's options; the secret, seed and state come from the primary. */
  readonly service: Omit<MockOptions, 'secret' | 'seed' | 'persistence'>;
  readonly port: number;
  readonly host: string;
  readonly limits?: ConnectionLimits | undefined;
  readonly log?: ((line: string) => void) | undefined;
}

/**
 * Runs this process as one worker of `videotask mock --workers N` (decisions/016): asks the primary for
 * the deployment's state, serves the API on the shared port, sends control requests (`/__mock/…`) to
 * the primary, and holds an answer until a durable change it made is on every worker. Serves the
 * connections the primary hands it (ones a dead worker never took, decisions/021). Resolves when the
 * primary stops it; exits with the primary (node's cluster does that on a lost channel).
 */
export function runClusterWorker(options: WorkerOptions): Promise<void> {
  const send = (message: FromWorker): void => {
    if (process.connected) process.send!(message);
  };
  const link = new PrimaryLink(send);
  const observations = new ObservationRelay(send);
  const id = String(cluster.worker?.id ?? process.pid);
  let server: RunningMockServer | undefined;
  let apply: (operation: Operation) => void = () => {};

  const tagged = (response: CoreResponse): CoreResponse => {
    response.headers[WORKER_HEADER] = id;
    return response;
  };
  const notKept = (error: Error): CoreResponse =>
    errorResponse('temporarily_unavailable', { problem: error.message }, { 'retry-after': '1' });

  async function start(init: WorkerInit): Promise<void> {
    const service = workerService(options, init, link, observations);
    apply = (operation) => service.apply(operation);
    const answer = (request: CoreRequest): CoreResponse | Promise<CoreResponse> => {
      if (isControlPath(request.path)) return link.relay(request).then(tagged);
      const response = tagged(service.handle(request));
      const pending = link.takePending();
      return pending === undefined ? response : pending.then(() => response, notKept);
    };
    server = await startMockServer({ ...options, service, answer });
    send({ t: 'listening', url: server.url });
  }

  return new Promise((resolve) => {
    let stopped = false;
    const stop = (): void => {
      if (stopped) return;
      stopped = true;
      process.off('message', onMessage);
      void (server?.close() ?? Promise.resolve()).then(() => {
        cluster.worker?.disconnect(); // the channel closes: the process ends once idle
        resolve();
      });
    };
    function onMessage(message: ToWorker, handle?: ConnectionHandle): void {
      if (message.t === 'connection') {
        send({ t: 'took', n: message.n });
        if (server === undefined || stopped) handle?.close();
        else if (handle !== undefined) server.adopt(handle);
      } else if (message.t === 'init')
        start(message.init).catch((error: NodeJS.ErrnoException) => {
          send({ t: 'failed', code: error.code, message: error.message });
          stop();
        });
      else if (message.t === 'stop') stop();
      else if (message.t === 'flush-observations') observations.flush(message.n);
      else link.receive(message, apply);
    }
    process.on('message', onMessage);
    process.on('SIGINT', () => {}); // a terminal's Ctrl-C reaches the whole group: the primary stops us
    process.once('SIGTERM', stop);
    send({ t: 'hello' });
  });
}

/**
 * This worker's service: the deployment's secret, seed and ID share from the primary, its state kept
 * through the primary, its client observations forwarded there.
 */
function workerService(
  options: WorkerOptions,
  init: WorkerInit,
  link: PrimaryLink,
  observations: ObservationRelay,
): MockService {
  return createMockService({
    ...options.service,
    serviceRequestIds: serviceRequestIdsOfSlot(),
    taskIdShare: init.share,
    secret: init.secret,
    seed: init.seed,
    persistence: link.persistence(init),
    clientVerdicts:
      options.service.clientVerdicts === false ? false : { forward: observations.push },
  });
}

/** This worker's request IDs, by the slot and worker count its primary gave it. */
function serviceRequestIdsOfSlot(): ServiceRequestIds {
  const slot = Number(process.env[WORKER_SLOT_ENV] ?? 0);
  return serviceRequestIdsOf(slot, Number(process.env[WORKER_COUNT_ENV] ?? 1));
}
