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
