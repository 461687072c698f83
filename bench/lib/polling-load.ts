// The soak's load: autocannon's keep-alive clients, each request the next task in turn.
import autocannon from 'autocannon';

/**
 * A load of `clients` keep-alive connections against `url`, cycling over `requests` (a shared cursor,
 * so every request is polled in turn). `onTick` gets the requests completed in each second.
 */
export function pollingLoad(
  url: string,
  clients: number,
  requests: readonly { path: string; headers: Record<string, string> }[],
  onTick: (requestsThisSecond: number) => void,
): (seconds: number) => Promise<autocannon.Result> {
  let cursor = 0;
  return (seconds) =>
    new Promise((resolveResult, reject) => {
      const instance = autocannon(
        {
          url,
          connections: clients,
          duration: seconds,
          pipelining: 1,
          timeout: 10,
          requests: [
            {
              method: 'GET',
              setupRequest: (request) => {
                const next = requests[cursor++ % requests.length]!;
                return { ...request, path: next.path, headers: next.headers };
              },
            },
          ],
        },
        // autocannon calls back with an Error or null (its typings say `any`).
        (error: Error | null, result) => (error ? reject(error) : resolveResult(result)),
      );
      // autocannon emits the requests completed in each second (its typings omit the argument).
      (instance as unknown as NodeJS.EventEmitter).on('tick', (counter: { counter: number }) =>
        onTick(counter.counter),
      );
    });
}
