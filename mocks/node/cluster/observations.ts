import type { Worker } from 'node:cluster';
import { videoStatusValues } from '../../../src/generated/openapi.ts';
import type { VideoStatus } from '../../../src/spec/lifecycle.ts';
import { ROUTE_FORMS, ROUTE_KINDS } from '../../../src/spec/routes.ts';
import { wallNow } from '../../core/clock.ts';
import type { ClientVerdicts } from '../../core/client-verdicts/client-verdicts.ts';
import type { Form, Kind, Observation } from '../../core/client-verdicts/observation.ts';
import type { FromWorker, ObservationBatch } from './messages.ts';
import { post } from './worker-hub.ts';

/**
 * Client verdicts across the workers of `videotask mock --workers N` (decisions/019). node's cluster
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

const NUMBERS = 8;
const STRINGS = 6;
const KINDS: readonly Kind[] = ROUTE_KINDS;
const FORMS: readonly (Form | undefined)[] = [undefined, ...ROUTE_FORMS];
const TOLD: readonly (VideoStatus | undefined)[] = [undefined, ...videoStatusValues];

/** A worker's side: batches its observations to the primary. */
export class ObservationRelay {
  readonly #send: (message: FromWorker) => void;
  #numbers = new Float64Array(NUMBERS * BATCH_SIZE);
  #strings: (string | undefined)[] = [];
  #count = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(send: (message: FromWorker) => void) {
    this.#send = send;
  }

  /** Copies an observation (the core's reused object) into the batch. */
  readonly push = (o: Observation): void => {
    const at = this.#count++ * NUMBERS;
    const n = this.#numbers;
    n[at] = o.at;
    n[at + 1] = o.order;
    n[at + 2] = o.generation;
    n[at + 3] = o.status;
    n[at + 4] = o.flags;
    n[at + 5] = o.fingerprint;
    n[at + 6] = o.retryAfterMs;
    n[at + 7] =
      KINDS.indexOf(o.kind) |
      (FORMS.indexOf(o.form) << 3) |
      (TOLD.indexOf(o.told) << 5) |
      (Number(o.lost) << 9) |
      (Number(o.bound) << 10) |
      (Number(o.secondFamily) << 11) |
      (o.tool << 12);
    this.#strings.push(o.caller, o.method, o.path, o.taskId, o.clientRequestId, o.location);
    if (this.#count >= BATCH_SIZE) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), BATCH_MS).unref();
  };

  /** Sends what it holds now; `n` answers a gathering primary (sent even when empty). */
  flush(n?: number): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#count === 0 && n === undefined) return;
    const numbers = this.#numbers.slice(0, this.#count * NUMBERS);
    this.#send({
      t: 'observations',
      batch: { count: this.#count, numbers, strings: this.#strings },
      n,
    });
    this.#strings = [];
    this.#count = 0;
  }
}

/** The observations of a batch, as objects again. */
export function decodeBatch(batch: ObservationBatch): Observation[] {
  const observations: Observation[] = [];
  const { numbers: n, strings: s } = batch;
  for (let i = 0; i < batch.count; i++) {
    const at = i * NUMBERS;
    const text = i * STRINGS;
    const bits = n[at + 7]!;
    observations.push({
      caller: s[text]!,
      kind: KINDS[bits & 7]!,
      form: FORMS[(bits >> 3) & 3],
      method: s[text + 1]!,
      path: s[text + 2]!,
      at: n[at]!,
      order: n[at + 1]!,
      generation: n[at + 2]!,
      status: n[at + 3]!,
      taskId: s[text + 3],
      told: TOLD[(bits >> 5) & 15],
      flags: n[at + 4]!,
      fingerprint: n[at + 5]!,
      clientRequestId: s[text + 4],
      lost: (bits & (1 << 9)) !== 0,
      retryAfterMs: n[at + 6]!,
      bound: (bits & (1 << 10)) !== 0,
      secondFamily: (bits & (1 << 11)) !== 0,
      tool: (bits >> 12) & 15,
      location: s[text + 5],
    });
  }
  return observations;
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
  receive(worker: Worker, batch: ObservationBatch, n: number | undefined): void {
    for (const observation of decodeBatch(batch)) this.#held.push(observation);
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
