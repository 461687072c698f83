import type { Upstream } from '../../../proxy/upstream.ts';

/** What an answer read by `pausedDownload` brought: in all, while paused, and how it ended. */
export interface PausedDownload {
  readonly bytes: number;
  readonly whilePaused: number;
  /** 'end', or why the exchange failed. */
  readonly outcome: string;
}

/**
 * One download through `upstream`, its exchange paused at every chunk and resumed a millisecond
 * later, as a slow client makes the proxy wait: what arrived, and what arrived while paused.
 */
export function pausedDownload(upstream: Upstream): Promise<PausedDownload> {
  const seen = { bytes: 0, whilePaused: 0 };
  let paused = false;
  return new Promise((resolve) => {
    const call = upstream.send(
      { method: 'GET', pathAndQuery: '/v1/videos/task_1/content', headers: [], body: 'none' },
      {
        head: () => undefined,
        data: (chunk) => {
          seen.bytes += chunk.length;
          if (paused) return void (seen.whilePaused += chunk.length);
          paused = true;
          call.pause();
          setTimeout(() => {
            paused = false;
            call.resume();
          }, 1);
        },
        end: () => resolve({ ...seen, outcome: 'end' }),
        fail: (failure) => resolve({ ...seen, outcome: failure.why }),
      },
    );
  });
}
