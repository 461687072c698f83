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
