import { randomUUID } from 'node:crypto';
import { VideoTaskClient } from '../../../src/client/client.ts';
import { submitWithRetry } from '../../../src/client/retry.ts';

/** What a client's run did: its submissions sent (each may create a task), and how it ended. */
export interface ClientRun {
  /** Submissions that reached the deployment or may have (the proxy answers some itself: 429). */
  submissions: number;
  taskId?: string | undefined;
  status?: string | undefined;
  downloaded?: number | undefined;
  /** Why it stopped short: the submission's answer was lost (it did not resubmit, §7). */
  unconfirmed?: string | undefined;
}

/**
 * A careful client: the project's typed client as documented. One request ID kept for its submission,
 * 429s waited out with backoff (submitWithRetry), an answer that never came not resubmitted (§7), the
 * task polled on §8's schedule (5 s, growing, `unknown` slowing it), the video downloaded once
 * completed, following redirects.
 */
export async function carefulClient(
  baseUrl: string,
  apiKey: string,
  prompt: string,
): Promise<ClientRun> {
  const client = new VideoTaskClient({ baseUrl, apiKey, requestTimeoutMs: 20_000 });
  const run: ClientRun = { submissions: 0 };
  let task;
  try {
    task = await submitWithRetry(
      (clientRequestId) => {
        run.submissions++;
        return client.submit(
          { model: 'video-pro-v1', prompt },
          { clientRequestId, endpoint: 'videos' },
        );
      },
      { clientRequestId: `careful-${randomUUID()}`, jitter: 0 },
    );
  } catch (error) {
    run.unconfirmed = (error as Error).name;
    return run;
  }
  run.taskId = task.id;
  const { task: done } = await client.poll(task.id, { timeoutMs: 60_000 });
  run.status = done.status;
  if (done.status !== 'completed') return run;
  const content = await client.content(task.id);
  run.downloaded = (await new Response(content.body).arrayBuffer()).byteLength;
  return run;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A sloppy client: no request ID, polls every 100 ms (every 10 ms while told `unknown`), submits the
 * same task again while it runs, asks for the content before it completes, keeps polling after it
 * finished, and after a lost answer sends the submission again at once.
 */
export async function sloppyClient(
  baseUrl: string,
  apiKey: string,
  prompt: string,
): Promise<ClientRun> {
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const body = JSON.stringify({ model: 'video-pro-v1', prompt });
  const run: ClientRun = { submissions: 0 };
  const submit = async (): Promise<string | undefined> => {
    run.submissions++;
    try {
      const answer = await fetch(`${baseUrl}/v1/videos`, { method: 'POST', headers, body });
      return ((await answer.json()) as { id?: string }).id;
    } catch {
      return undefined; // the answer was lost: sent again at once, below
    }
  };
  const id = (await submit()) ?? (await submit());
  if (id === undefined) return run;
  run.taskId = id;
  let resubmitted = false;
  let wait = 100;
  for (let i = 0; i < 200; i++) {
    await sleep(wait);
    const answer = await fetch(`${baseUrl}/v1/videos/${id}`, { headers });
    const shown = (await answer.json()) as { status?: string };
    // Told `unknown`, it asks again ten times sooner instead of slower (§3): a break no jitter of a
    // loaded machine hides, as keeping the same 100 ms within the judge's timing tolerance would.
    wait = shown.status === 'unknown' ? 10 : 100;
    if (shown.status === 'in_progress' && !resubmitted) {
      resubmitted = true;
      await fetch(`${baseUrl}/v1/videos/${id}/content`, { headers }).then((r) => r.arrayBuffer());
      await submit(); // and goes on polling the first one
    }
    run.status = shown.status;
    if (shown.status === 'completed' || shown.status === 'failed') break;
  }
  for (let i = 0; i < 4; i++)
    await fetch(`${baseUrl}/v1/videos/${id}`, { headers }).then((r) => r.arrayBuffer());
  return run;
}
