/**
 * How a command stops: as on a signal when whoever reads its output goes away, and with an abort
 * signal for its work when SIGINT or SIGTERM arrives.
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

/**
 * Runs `work` with a signal that SIGINT or SIGTERM aborts (reason `Error('interrupted')`), stops
 * listening for those signals when `work` settles, whichever way, and says whether it was interrupted.
 *
 * @example
 * const { value, interrupted } = await interruptible((signal) => pollTask(getTask, id, { signal }));
 */
export async function interruptible<T>(
  work: (signal: AbortSignal) => Promise<T>,
): Promise<{ value: T; interrupted: boolean }> {
  const abort = new AbortController();
  const onSignal = () => abort.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const value = await work(abort.signal);
    return { value, interrupted: abort.signal.aborted };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
