/**
 * Waits until `condition` holds: how a test waits for something it cannot subscribe to (a count of
 * sockets, a line a child process prints, a file a background task rewrites). It looks every 20 ms and
 * gives up only after `timeoutMs` (default 15 s, inside the 20 s test timeout), throwing what it was
 * waiting for: a hang still fails, a loaded machine that is merely slow does not.
 */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline)
      throw new Error(`still waiting after ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
