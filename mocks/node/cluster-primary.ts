import cluster, { type Worker } from 'node:cluster';
import type { CoreRequest, CoreResponse } from '../core/http-types.ts';
import { StateNotSavedError } from '../core/persistence.ts';
import { controlError } from '../core/routes/control.ts';
import type { TaskIdShare } from '../core/task-id-share.ts';
import {
  WORKER_COUNT_ENV,
  WORKER_ENV,
  WORKER_SLOT_ENV,
  isClientReportPath,
  taskIdShareOf,
  type FromWorker,
} from './cluster-messages.ts';
import { ConnectionHandoffs, type ConnectionHandle } from './connection-handoffs.ts';
import { ObservationMerger } from './cluster-observations.ts';
import { latestOf } from './latest-task-ids.ts';
import type { MockService } from './create-mock-service.ts';
import type { WorkerHub } from './worker-hub.ts';
import { post } from './worker-hub.ts';

export interface ClusterOptions {
  readonly workers: number;
  /** The deployment's service, made with `hub` as its observer: the one state, and the state file. */
  readonly service: MockService;
  readonly hub: WorkerHub;
  /** The deployment's secret, for the workers. */
  readonly secret: string;
  /** The share of task IDs the workers' shares are cut from (a replica's, `--replica K/N`): all by default. */
  readonly replica?: TaskIdShare | undefined;
  /** Where the primary tells what an operator should know (a worker restarted). */
  readonly log: (line: string) => void;
  /** How long a stop waits for workers to finish before killing them (ms). Default 5000. */
  readonly stopTimeoutMs?: number | undefined;
  /**
   * How long a worker may take to acknowledge a change, answer the primary or take a connection
   * before it is replaced (ms; decisions/021). Default 5000.
   */
  readonly workerTimeoutMs?: number | undefined;
}

export interface RunningCluster {
  /** `http://HOST:PORT`, as the workers listen. */
  readonly url: string;
  /** Stops every worker (they finish their answers); the state file is the caller's to close. */
  close(): Promise<void>;
  /** Has the client verdicts judge every request the workers answered so far (decisions/019). */
  gatherObservations(): Promise<void>;
}

/** Workers could not start (the port is in use, …): `code` is the listen error's. */
export class ClusterStartError extends Error {
  override readonly name = 'ClusterStartError';
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/** Retry-After (s) of a control change refused because a worker did not answer: it is replaced by then. */
const RETRY_AFTER_REPLACEMENT = '1';

/**
 * Runs `videotask mock --workers N` as its primary (decisions/016): forks N workers that listen on one
 * port (node:cluster hands them connections in turn), gives each the state, answers their control
 * requests with the one service so that every change has one order, sends each change to every
 * worker and answers only once all have it, and restarts a worker that dies. A worker that does not
 * answer in time is replaced, and a connection a dead worker never took goes to another
 * (decisions/021). Resolves once every worker listens; rejects with a `ClusterStartError` (workers
 * stopped) when one cannot.
 */
export function startCluster(options: ClusterOptions): Promise<RunningCluster> {
  const { service, hub, workers } = options;
  const start = (service.stateFile?.restored?.starts ?? 0) + 1;
  const timeoutMs = options.workerTimeoutMs ?? 5_000;
  const listened = new Set<Worker>();
  const handoffs = new ConnectionHandoffs();
  /** Connections a dead worker never took, until a worker can take them. */
  const orphans: ConnectionHandle[] = [];
  const replaced = new Set<Worker>();
  let stopping = false;
  let url = '';
  let turn = 0;
  cluster.setupPrimary({ serialization: 'advanced' });
  const observations = new ObservationMerger(service.clientVerdicts);
  const slots = new Map<Worker, number>();
  // What a restored listing holds of the clock's instant now: each worker starts knowing those of its share.
  const { store } = service;
  const latest = latestOf(
    store.ids(),
    (id) => store.mintedAt(id),
    service.clock.now(),
    service.shared.generation,
  );
  const gather = () => observations.gather([...listened].filter((w) => w.isConnected()));

  const who = (worker: Worker): string => `worker ${worker.id} (process ${worker.process.pid})`;
  const seconds = `${timeoutMs / 1000} s`;
  /** Replaces a worker that let a deadline pass: killed (SIGKILL: a stopped one too), then forked anew. */
  const replace = (worker: Worker, what: string): void => {
    if (stopping || replaced.has(worker) || worker.isDead()) return;
    replaced.add(worker);
    hub.replacing(worker);
    options.log(`${who(worker)} did not ${what} within ${seconds}; replacing it`);
    worker.process.kill('SIGKILL');
  };
  hub.supervise(timeoutMs, replace);
  const watchdog = setInterval(
    () => handoffs.stalledFor(timeoutMs).forEach((w) => replace(w, 'take a connection')),
    Math.min(1_000, timeoutMs / 2),
  );
  /** Hands the orphans to the workers that listen and are not being replaced, in turn. */
  const rehome = (): void => {
    const ready = [...listened].filter((w) => !w.isDead() && !replaced.has(w));
    if (ready.length === 0) return;
    for (const handle of orphans.splice(0))
      handoffs.handOver(ready[turn++ % ready.length]!, handle);
  };

  const applied = (worker: Worker, message: FromWorker & { t: 'op' }): void => {
    const reply = (problem?: string): void => {
      if (message.n !== undefined) post(worker, { t: 'kept', n: message.n, problem });
    };
    // A change made before a reset the worker had not yet applied: the reset undid it everywhere.
    if (message.generation !== service.shared.generation) return reply();
    let change: { applied: Promise<void> };
    try {
      change = hub.during(worker, () => service.apply(message.op));
    } catch (error) {
      if (!(error instanceof StateNotSavedError)) throw error;
      return reply(error.message);
    }
    void change.applied.then(() => reply());
  };
  /**
   * A control request: a change only once every worker has answered (none is then left without it);
   * else 503 naming the workers being replaced, nothing changed (decisions/021).
   */
  const answer = async (worker: Worker, n: number, request: CoreRequest): Promise<void> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const late = await hub.unresponsive();
      if (late.length > 0) return post(worker, { t: 'answer', n, response: notAnswering(late) });
    }
    // The client report: what every worker still holds is judged first (decisions/019).
    if (isClientReportPath(request.path)) await gather();
    const { result, applied: done } = hub.during(undefined, () => service.handle(request));
    await done;
    post(worker, { t: 'answer', n, response: result });
  };
  const notAnswering = (late: readonly Worker[]): CoreResponse => {
    const names = late.map(who).join(' and ');
    const response = controlError(
      503,
      'worker_unresponsive',
      `${names} did not answer within ${seconds}: nothing was changed. ` +
        `${late.length === 1 ? 'It is' : 'They are'} being replaced by a new worker started from the ` +
        'state now: retry after Retry-After',
    );
    response.headers['retry-after'] = RETRY_AFTER_REPLACEMENT;
    // The primary's own answer carries a request ID like every other: from the primary's numbering.
    return service.identify(response);
  };
  const created = (message: FromWorker & { t: 'created' }): void => {
    const { id, generation } = message;
    if (generation !== service.shared.generation) return;
    const minted = { createdAt: message.at, draw: message.draw };
    service.store.add(id);
    service.stateFile?.created(id, minted);
    latest.note(id, minted, generation);
  };

  return new Promise((resolve, reject) => {
    const failStartup = (error: ClusterStartError): void => {
      if (stopping) return;
      void stopAll().then(() => reject(error));
    };
    function onMessage(worker: Worker, message: FromWorker): void {
      switch (message.t) {
        case 'hello': {
          const seed = `${service.seed}/start-${start}/worker-${worker.id}`;
          const { shared } = service;
          const share = taskIdShareOf(slots.get(worker)!, workers, options.replica);
          return hub.join(worker, {
            secret: options.secret,
            seed,
            share,
            taken: latest.takenIn(share, service.clock.now(), shared.generation),
            shared,
            ceiling: hub.clockCeiling,
          });
        }
        case 'listening':
          listened.add(worker);
          url = message.url;
          rehome();
          if (listened.size === workers)
            resolve({ url, close: stopAll, gatherObservations: gather });
          return;
        case 'failed':
          if (!listened.has(worker))
            failStartup(new ClusterStartError(message.message, message.code));
          return;
        case 'op':
          return applied(worker, message);
        case 'created':
          return created(message);
        case 'request':
          return void answer(worker, message.n, message.request);
        case 'ack':
          return hub.acknowledged(worker, message.n);
        case 'took':
          return handoffs.took(worker, message.n);
        case 'observations':
          return observations.receive(worker, message.batch, message.n);
      }
    }
    function fork(slot: number): void {
      const slotEnv = { [WORKER_SLOT_ENV]: String(slot), [WORKER_COUNT_ENV]: String(workers) };
      const worker = cluster.fork({ [WORKER_ENV]: '1', ...slotEnv });
      slots.set(worker, slot);
      handoffs.watch(worker);
      const born = Date.now();
      worker.on('message', (message: FromWorker) => onMessage(worker, message));
      worker.on('error', () => {}); // a closed channel: the exit that follows is what counts
      worker.once('exit', (code, signal) => {
        hub.leave(worker);
        slots.delete(worker);
        orphans.push(...handoffs.left(worker));
        if (stopping) return closeOrphans();
        rehome();
        const how = signal === null ? `with code ${code}` : `on ${signal}`;
        if (!listened.has(worker) && listened.size < workers)
          return failStartup(
            new ClusterStartError(`a worker exited ${how} while starting`, undefined),
          );
        // One that dies young waits a second: a worker that cannot live must not fork in a loop.
        const delay = Date.now() - born < 5000 ? 1000 : 0;
        const when = delay === 0 ? '' : ' in 1 s';
        if (!replaced.delete(worker))
          options.log(`${who(worker)} exited ${how}; starting another${when}`);
        setTimeout(() => stopping || fork(slot), delay);
      });
    }
    function closeOrphans(): void {
      for (const handle of orphans.splice(0)) handle.close();
    }
    async function stopAll(): Promise<void> {
      stopping = true;
      clearInterval(watchdog);
      closeOrphans();
      const running = Object.values(cluster.workers ?? {}).filter(
        (w): w is Worker => w !== undefined && w.process.exitCode === null && !w.isDead(),
      );
      const exits = running.map((w) => new Promise((done) => w.process.once('exit', done)));
      for (const worker of running) post(worker, { t: 'stop' });
      const timer = setTimeout(() => {
        for (const worker of running) worker.process.kill('SIGKILL');
      }, options.stopTimeoutMs ?? 5000);
      await Promise.all(exits);
      clearTimeout(timer);
    }
    for (let slot = 0; slot < workers; slot++) fork(slot);
  });
}
