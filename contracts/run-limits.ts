/** How the run measures time: real time, or a test's virtual clock. */
export interface RunTime {
  /** Milliseconds, for durations only. */
  now(): number;
}

/** Requests in a row without an answer after which the target is taken to have stopped answering. */
export const STOP_AFTER_UNANSWERED = 3;

/** The time a run has on top of `--poll-timeout`: the probes before the tasks and the look after them. */
export const RUN_DEADLINE_MARGIN_MS = 60_000;

/**
 * The limits of a whole run: a deadline (`--poll-timeout` plus a minute), and an early stop when the target
 * stops answering (a few requests in a row get no answer: time-outs, dropped connections). Once either
 * is reached the run sends nothing more; what it could not ask is reported as not observed, with `why`.
 */
export class RunLimits {
  #stopped: string | undefined;
  #unanswered = 0;
  readonly #deadline: number;
  readonly #abort = new AbortController();

  constructor(
    readonly time: RunTime,
    /** The whole run's time, ms. */
    readonly deadlineMs: number,
  ) {
    this.#deadline = time.now() + deadlineMs;
  }

  /** Why the run stopped early, once it has. */
  get stopped(): string | undefined {
    if (this.#stopped === undefined && this.remainingMs() <= 0)
      this.#stop(
        `the run reached its deadline (${Math.round(this.deadlineMs / 1000)} s: ` +
          `--poll-timeout plus ${RUN_DEADLINE_MARGIN_MS / 1000} s)`,
      );
    return this.#stopped;
  }

  /** Aborted when the run stops: waits and requests under way end at once. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  remainingMs(): number {
    return this.#deadline - this.time.now();
  }

  /** The time limit of the next request: the per-request limit, or less when the deadline is nearer. */
  requestLimitMs(perRequestMs: number): number {
    return Math.max(0, Math.min(perRequestMs, this.remainingMs()));
  }

  /** Counts an answer (any HTTP status) or its absence; stops after too many absences in a row. */
  record(answered: boolean, failure = 'no answer'): void {
    if (answered) {
      this.#unanswered = 0;
      return;
    }
    if (++this.#unanswered >= STOP_AFTER_UNANSWERED)
      this.#stop(
        `the target stopped answering (${this.#unanswered} requests in a row got no answer; the last: ${failure})`,
      );
  }

  #stop(why: string): void {
    if (this.#stopped !== undefined) return;
    this.#stopped = why;
    this.#abort.abort(new DOMException(why, 'AbortError'));
  }
}
