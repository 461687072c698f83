import type { Worker } from 'node:cluster';
import { wallNow } from '../core/clock.ts';
import type { ClientVerdicts } from '../core/client-verdicts/client-verdicts.ts';
import type { Observation } from '../core/client-verdicts/observation.ts';
import type { FromWorker } from './cluster-messages.ts';
import { post } from './worker-hub.ts';

/**
 * Client verdicts across the workers of `videotask mock --workers N` (decisions/017). node's cluster
 * hands one client's connections to the workers in turn, so no worker sees a client's whole polling
 * loop: each worker observes its exchanges and sends the observations, in batches, to the primary,
 * which judges every worker's in one place and in the order they happened (wall time, one scale per
 * machine).
 */

/** How long a worker keeps observations before it sends them (ms), and how many at most. */
const BATCH_MS = 20;
const BATCH_SIZE = 512;
/** How long the primary holds an observation for others that happened before it (ms). */
const HOLD_MS = 200;
/** How long a report waits for the workers' last observations (ms). */
const GATHER_TIMEOUT_MS = 2_000;

/** A worker's side: batches its observations to the primary. */
export class ObservationRelay {
  readonly #send: (message: FromWorker) => void;
  #batch: Observation[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(send: (message: FromWorker) => void) {
    this.#send = send;
  }

  readonly push = (observation: Observation): void => {
    this.#batch.push(observation);
    if (this.#batch.length >= BATCH_SIZE) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), BATCH_MS).unref();
  };

  /** Sends what it holds now; `n` answers a gathering primary (sent even when empty). */
  flush(n?: number): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#batch.length === 0 && n === undefined) return;
    this.#send({ t: 'observations', list: this.#batch, n });
    this.#batch = [];
  }
}

/** The primary's side: merges the workers' observations by the time they happened, then judges them. */
export class ObservationMerger {
  readonly #verdicts: ClientVerdicts;
  #held: Observation[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #gatherings = 0;
  readonly #waiting = new Map<number, Map<Worker, () => void>>();

  constructor(verdicts: ClientVerdicts) {
    this.#verdicts = verdicts;
  }

  /** A worker's batch; with `n`, its answer to gathering `n`. */
  receive(worker: Worker, list: readonly Observation[], n: number | undefined): void {
    for (const observation of list) this.#held.push(observation);
    if (n !== undefined) {
      const waiting = this.#waiting.get(n);
      waiting?.get(worker)?.();
      waiting?.delete(worker);
    }
    this.#timer ??= setTimeout(() => this.#release(wallNow() - HOLD_MS), HOLD_MS).unref();
  }

  /**
   * Asks every worker for what it holds, waits for their answers (at most 2 s: a worker that died
   * has nothing more to send), and judges everything: a report read now sees every request answered
   * before it was asked for.
   */
  async gather(workers: readonly Worker[]): Promise<void> {
    const n = ++this.#gatherings;
    const waiting = new Map<Worker, () => void>();
    this.#waiting.set(n, waiting);
    const answers = workers.map(
      (worker) => new Promise<void>((resolve) => waiting.set(worker, resolve)),
    );
    for (const worker of workers) post(worker, { t: 'flush-observations', n });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>(
      (resolve) => (timer = setTimeout(resolve, GATHER_TIMEOUT_MS)),
    );
    await Promise.race([Promise.all(answers), timeout]);
    clearTimeout(timer);
    this.#waiting.delete(n);
    this.#release(Number.POSITIVE_INFINITY);
  }

  /** Judges, in order, what happened before `until` (wall ms); holds the rest. */
  #release(until: number): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const ready: Observation[] = [];
    const later: Observation[] = [];
    for (const observation of this.#held)
      (observation.order <= until ? ready : later).push(observation);
    this.#held = later;
    ready.sort((a, b) => a.order - b.order);
    this.#verdicts.judge(ready);
    if (later.length > 0)
      this.#timer = setTimeout(() => this.#release(wallNow() - HOLD_MS), HOLD_MS).unref();
  }
}
