import cluster, { type Worker } from 'node:cluster';
import type { CoreRequest, CoreResponse } from '../../core/http/http-types.ts';
import { StateNotSavedError } from '../../core/service/persistence.ts';
import { controlError } from '../../core/http/errors.ts';
import type { TaskIdShare } from '../../core/task-id/task-id-share.ts';
import {
  WORKER_COUNT_ENV,
  WORKER_ENV,
  WORKER_SLOT_ENV,
  isClientReportPath,
  taskIdShareOf,
  type FromWorker,
} from './messages.ts';
import { ConnectionHandoffs, type ConnectionHandle } from './connection-handoffs.ts';
import { ObservationMerger } from './observations.ts';
import { latestOf, type LatestTaskIds } from './latest-task-ids.ts';
import type { MockService } from '../create-mock-service.ts';
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
  return new ClusterPrimary(options).start();
}

/** What the primary does with each message a worker sends, by its type (one handler per type). */
type MessageHandlers = {
  readonly [T in FromWorker['t']]: (worker: Worker, message: Extract<FromWorker, { t: T }>) => void;
};

const who = (worker: Worker): string => `worker ${worker.id} (process ${worker.process.pid})`;

/** The primary of one start of a cluster: its workers, their messages, restarts and the stop. */
class ClusterPrimary {
  readonly #options: ClusterOptions;
  readonly #service: MockService;
  readonly #hub: WorkerHub;
  /** This start of the deployment (1 on a fresh state): it names the workers' seeds. */
  readonly #start: number;
  readonly #timeoutMs: number;
  /** Workers that listen now (a dead one leaves: the primary keeps nothing per restart). */
  readonly #listened = new Set<Worker>();
  /** Once every worker has listened: an exit is then a restart, never a failed start. */
  #started = false;
  readonly #handoffs = new ConnectionHandoffs();
  /** Connections a dead worker never took, until a worker can take them. */
  readonly #orphans: ConnectionHandle[] = [];
  /** Workers being replaced for letting a deadline pass (their exit is not reported as a death). */
  readonly #replaced = new Set<Worker>();
  readonly #slots = new Map<Worker, number>();
  readonly #observations: ObservationMerger;
  /** The task IDs of the clock's latest instant: a worker starts knowing those of its share. */
  readonly #latest: LatestTaskIds;
  readonly #watchdog: NodeJS.Timeout;
  #startup: { resolve(running: RunningCluster): void; reject(error: Error): void } | undefined;
  #stopping = false;
  #url = '';
  #turn = 0;

  readonly #handlers: MessageHandlers = {
    hello: (worker) => this.#join(worker),
    listening: (worker, message) => this.#listening(worker, message.url),
    failed: (worker, message) => {
      if (!this.#listened.has(worker))
        this.#failStartup(new ClusterStartError(message.message, message.code));
    },
    op: (worker, message) => this.#applied(worker, message),
    created: (_worker, message) => this.#created(message),
    request: (worker, message) => void this.#answer(worker, message.n, message.request),
    ack: (worker, message) => this.#hub.acknowledged(worker, message.n),
    took: (worker, message) => this.#handoffs.took(worker, message.n),
    observations: (worker, message) => this.#observations.receive(worker, message.batch, message.n),
  };

  constructor(options: ClusterOptions) {
    const { service, hub } = options;
    this.#options = options;
    this.#service = service;
    this.#hub = hub;
    this.#start = (service.stateFile?.restored?.starts ?? 0) + 1;
    this.#timeoutMs = options.workerTimeoutMs ?? 5_000;
    cluster.setupPrimary({ serialization: 'advanced' });
    this.#observations = new ObservationMerger(service.clientVerdicts);
    // What a restored listing holds of the clock's instant now: each worker starts knowing those of its share.
    const { store } = service;
    this.#latest = latestOf(
      store.ids(),
      (id) => store.mintedAt(id),
      service.clock.now(),
      service.shared.generation,
    );
    hub.supervise(this.#timeoutMs, (worker, what) => this.#replace(worker, what));
    this.#watchdog = setInterval(
      () =>
        this.#handoffs
          .stalledFor(this.#timeoutMs)
          .forEach((w) => this.#replace(w, 'take a connection')),
      Math.min(1_000, this.#timeoutMs / 2),
    );
  }

  /** Forks every worker; settles as `startCluster` says. */
  start(): Promise<RunningCluster> {
    return new Promise((resolve, reject) => {
      this.#startup = { resolve, reject };
      for (let slot = 0; slot < this.#options.workers; slot++) this.#fork(slot);
    });
  }

  #running(): RunningCluster {
    return { url: this.#url, close: () => this.#stop(), gatherObservations: () => this.#gather() };
  }

  #gather(): Promise<void> {
    return this.#observations.gather([...this.#listened].filter((w) => w.isConnected()));
  }

  get #seconds(): string {
    return `${this.#timeoutMs / 1000} s`;
  }

  // Workers: forked into a slot, each message to its handler, a dead one forked anew.

  #fork(slot: number): void {
    const { workers } = this.#options;
    const slotEnv = { [WORKER_SLOT_ENV]: String(slot), [WORKER_COUNT_ENV]: String(workers) };
    const worker = cluster.fork({ [WORKER_ENV]: '1', ...slotEnv });
    this.#slots.set(worker, slot);
    this.#handoffs.watch(worker);
    const born = Date.now();
    worker.on('message', (message: FromWorker) => this.#onMessage(worker, message));
    worker.on('error', () => {}); // a closed channel: the exit that follows is what counts
    worker.once('exit', (code, signal) => {
      const how = signal === null ? `with code ${code}` : `on ${signal}`;
      this.#exited(worker, { slot, born, how });
    });
  }

  #onMessage(worker: Worker, message: FromWorker): void {
    if (!Object.hasOwn(this.#handlers, message.t)) return; // not one of a worker's messages
    const handle = this.#handlers[message.t] as (worker: Worker, message: FromWorker) => void;
    handle(worker, message);
  }

  #exited(worker: Worker, life: { slot: number; born: number; how: string }): void {
    this.#hub.leave(worker);
    this.#slots.delete(worker);
    const listened = this.#listened.delete(worker);
    this.#orphans.push(...this.#handoffs.left(worker));
    if (this.#stopping) return this.#closeOrphans();
    this.#rehome();
    const { log } = this.#options;
    if (!this.#started && !listened)
      return this.#failStartup(
        new ClusterStartError(`a worker exited ${life.how} while starting`, undefined),
      );
    // One that dies young waits a second: a worker that cannot live must not fork in a loop.
    const delay = Date.now() - life.born < 5000 ? 1000 : 0;
    const when = delay === 0 ? '' : ' in 1 s';
    if (!this.#replaced.delete(worker))
      log(`${who(worker)} exited ${life.how}; starting another${when}`);
    setTimeout(() => this.#stopping || this.#fork(life.slot), delay);
  }

  /** Replaces a worker that let a deadline pass: killed (SIGKILL: a stopped one too), then forked anew. */
  #replace(worker: Worker, what: string): void {
    if (this.#stopping || this.#replaced.has(worker) || worker.isDead()) return;
    this.#replaced.add(worker);
    this.#hub.replacing(worker);
    this.#options.log(`${who(worker)} did not ${what} within ${this.#seconds}; replacing it`);
    worker.process.kill('SIGKILL');
  }

  /** Hands the orphans to the workers that listen and are not being replaced, in turn. */
  #rehome(): void {
    const ready = [...this.#listened].filter((w) => !w.isDead() && !this.#replaced.has(w));
    if (ready.length === 0) return;
    for (const handle of this.#orphans.splice(0))
      this.#handoffs.handOver(ready[this.#turn++ % ready.length]!, handle);
  }

  #closeOrphans(): void {
    for (const handle of this.#orphans.splice(0)) handle.close();
  }

  // Start-up: each worker gets its init, the cluster runs once all listen, or stops when one cannot.

  #join(worker: Worker): void {
    const service = this.#service;
    const { shared } = service;
    const seed = `${service.seed}/start-${this.#start}/worker-${worker.id}`;
    const share = taskIdShareOf(
      this.#slots.get(worker)!,
      this.#options.workers,
      this.#options.replica,
    );
    this.#hub.join(worker, {
      secret: this.#options.secret,
      seed,
      share,
      taken: this.#latest.takenIn(share, service.clock.now(), shared.generation),
      shared,
      ceiling: this.#hub.clockCeiling,
    });
  }

  #listening(worker: Worker, url: string): void {
    this.#listened.add(worker);
    this.#url = url;
    this.#rehome();
    if (this.#started || this.#listened.size < this.#options.workers) return;
    this.#started = true;
    this.#startup?.resolve(this.#running());
  }

  #failStartup(error: ClusterStartError): void {
    if (this.#stopping) return;
    void this.#stop().then(() => this.#startup?.reject(error));
  }

  // The one state: a worker's changes and control requests, made through the primary's service.

  /** A worker's operation, kept and sent to every other worker; a durable one is answered `kept`. */
  #applied(worker: Worker, message: FromWorker & { t: 'op' }): void {
    const reply = (problem?: string): void => {
      if (message.n !== undefined) post(worker, { t: 'kept', n: message.n, problem });
    };
    const service = this.#service;
    // A change made before a reset the worker had not yet applied: the reset undid it everywhere.
    if (message.generation !== service.shared.generation) return reply();
    let change: { applied: Promise<void> };
    try {
      change = this.#hub.during(worker, () => service.apply(message.op));
    } catch (error) {
      if (!(error instanceof StateNotSavedError)) throw error;
      return reply(error.message);
    }
    void change.applied.then(() => reply());
  }

  /** A task a worker created: listed (and in the state file), and known to a worker that starts later. */
  #created(message: FromWorker & { t: 'created' }): void {
    const { id, generation } = message;
    const service = this.#service;
    if (generation !== service.shared.generation) return;
    const minted = { createdAt: message.at, draw: message.draw };
    service.store.add(id);
    service.stateFile?.created(id, minted);
    this.#latest.note(id, minted, generation);
  }

  /**
   * A control request: a change only once every worker has answered (none is then left without it);
   * else 503 naming the workers being replaced, nothing changed (decisions/021).
   */
  async #answer(worker: Worker, n: number, request: CoreRequest): Promise<void> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const late = await this.#hub.unresponsive();
      if (late.length > 0)
        return post(worker, { t: 'answer', n, response: this.#notAnswering(late) });
    }
    // The client report: what every worker still holds is judged first (decisions/019).
    if (isClientReportPath(request.path)) await this.#gather();
    const service = this.#service;
    const { result, applied: done } = this.#hub.during(undefined, () => service.handle(request));
    await done;
    post(worker, { t: 'answer', n, response: result });
  }

  #notAnswering(late: readonly Worker[]): CoreResponse {
    const names = late.map(who).join(' and ');
    const response = controlError(
      503,
      'worker_unresponsive',
      `${names} did not answer within ${this.#seconds}: nothing was changed. ` +
        `${late.length === 1 ? 'It is' : 'They are'} being replaced by a new worker started from the ` +
        'state now: retry after Retry-After',
    );
    response.headers['retry-after'] = RETRY_AFTER_REPLACEMENT;
    // The primary's own answer carries a request ID like every other: from the primary's numbering.
    return this.#service.identify(response);
  }

  // The stop: every worker asked to finish its answers, killed after the stop timeout.

  async #stop(): Promise<void> {
    this.#stopping = true;
    clearInterval(this.#watchdog);
    this.#closeOrphans();
    const running = Object.values(cluster.workers ?? {}).filter(
      (w): w is Worker => w !== undefined && w.process.exitCode === null && !w.isDead(),
    );
    const exits = running.map((w) => new Promise((done) => w.process.once('exit', done)));
    for (const worker of running) post(worker, { t: 'stop' });
    const timer = setTimeout(() => {
      for (const worker of running) worker.process.kill('SIGKILL');
    }, this.#options.stopTimeoutMs ?? 5000);
    await Promise.all(exits);
    clearTimeout(timer);
  }
}
