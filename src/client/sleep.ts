/**
 * Waiting and cancelling, shared by the polling loop (§8) and the submission retries (§7): one
 * abortable sleep and one helper that makes any promise give way to an `AbortSignal`. Both clean up
 * after themselves (no timer or listener outlives the wait), and both reject with the signal's own
 * `reason`, so a caller sees exactly what it aborted with.
 */

/** Waits `ms` milliseconds; rejects with `signal.reason` as soon as the signal aborts. Injectable for fake time. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * The real sleep: one `setTimeout`, cleared on abort; the abort listener is removed when the timer fires.
 *
 * @example
 * const controller = new AbortController();
 * const wait = realSleep(5_000, controller.signal);
 * controller.abort(new Error('stop')); // `wait` rejects with that error at once; no timer remains
 */
export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * `promise`, unless `signal` aborts first: then the result rejects with `signal.reason` at once, even
 * when the work behind `promise` ignores the signal (an injected sleep, a fetch without one). The
 * late outcome of `promise` is then discarded (its rejection is caught, never reported as unhandled).
 *
 * @example
 * const task = await raceAbort(getTask(id, signal), signal);
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      promise.catch(() => undefined);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
