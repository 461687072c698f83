/**
 * How a command stops: as on a signal when whoever reads its output goes away, and with an abort
 * signal for its work when SIGINT or SIGTERM arrives (`StopSignals`).
 */

/**
 * When whoever reads our output goes away (`videotask mock | head -1`), writing to it fails with EPIPE.
 * A command-line program then stops as it would on SIGPIPE, without a stack trace: here, as on SIGTERM,
 * so the commands that clean up on a signal (the mock saves its state, a download removes its part file)
 * do so. Output after that point is dropped.
 */
export function stopWhenOutputCloses(): void {
  let stopping = false;
  const onError = (error: NodeJS.ErrnoException): void => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    if (stopping) return;
    stopping = true;
    process.kill(process.pid, 'SIGTERM');
  };
  process.stdout.on('error', onError);
  process.stderr.on('error', onError);
}

/** The exit code of a process stopped by a signal, as a shell reports it: 128 + its number. */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;
export type StopSignal = keyof typeof SIGNAL_EXIT;

/**
 * While open, SIGINT and SIGTERM abort `signal` (reason `Error('stopped by SIGINT')`) instead of
 * killing the process, so a command stops its work, says what was kept and exits as a shell expects
 * (`exitCode`). `close()` stops listening; every command that waits on the service stops this way.
 *
 * @example
 * const stop = new StopSignals();
 * try { await client.poll(id, { signal: stop.signal }); } finally { stop.close(); }
 */
export class StopSignals {
  readonly #abort = new AbortController();
  #stoppedBy: StopSignal | undefined;
  readonly #onSignal = (signal: StopSignal): void => {
    this.#stoppedBy ??= signal;
    this.#abort.abort(new Error(`stopped by ${signal}`));
  };

  constructor() {
    process.on('SIGINT', this.#onSignal);
    process.on('SIGTERM', this.#onSignal);
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** The signal that stopped the command, if one did. */
  get stoppedBy(): StopSignal | undefined {
    return this.#stoppedBy;
  }

  /** 130 after SIGINT, 143 after SIGTERM (0 when none came). */
  get exitCode(): number {
    return this.#stoppedBy === undefined ? 0 : SIGNAL_EXIT[this.#stoppedBy];
  }

  close(): void {
    process.off('SIGINT', this.#onSignal);
    process.off('SIGTERM', this.#onSignal);
  }
}

/**
 * Runs `work` with the signal of `StopSignals`, stops listening when `work` settles, whichever way,
 * and says whether it was interrupted.
 *
 * @example
 * const { value, interrupted } = await interruptible((signal) => pollTask(getTask, id, { signal }));
 */
export async function interruptible<T>(
  work: (signal: AbortSignal) => Promise<T>,
): Promise<{ value: T; interrupted: boolean }> {
  const stop = new StopSignals();
  try {
    const value = await work(stop.signal);
    return { value, interrupted: stop.stoppedBy !== undefined };
  } finally {
    stop.close();
  }
}
