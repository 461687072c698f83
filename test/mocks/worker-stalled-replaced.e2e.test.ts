// Issue 24 item 7: with `--workers 2`, one worker stopped with SIGSTOP held every control write for ever
// (a clock advance hung past any client timeout, and was applied all the same). Now every
// acknowledgement has a deadline (--worker-timeout, decisions/021): a control change first asks every
// worker to answer, and one that does not within the deadline gets a 503 with Retry-After naming it,
// nothing changed, while the worker is killed and replaced by one started from the state now. A change
// already kept (a submission's extras) is answered once the worker that did not confirm it is gone:
// every process that answers has it. The 503 once lacked the request-ID header every other answer
// carries; it now has one of the primary's.
import { afterEach, describe, expect, it } from 'vitest';
import { killMockProcesses } from '../helpers/mock-process.ts';
import {
  call,
  pinnedConnection,
  readMany,
  startWorkers,
  workerPids,
  type Answer,
} from '../helpers/workers.ts';

afterEach(killMockProcesses);

const TIMEOUT_S = 2;
const nowOf = (answer: Answer) => (JSON.parse(answer.text) as { now: number }).now;

/** Lets a stopped process run again, if it still exists (the mock kills and replaces it). */
function resume(pid: number): void {
  try {
    process.kill(pid, 'SIGCONT');
  } catch {
    // already killed and gone
  }
}

/** Waits until the mock's stderr matches `pattern`, and returns the match. */
async function logged(stderr: () => string, pattern: RegExp): Promise<RegExpExecArray> {
  for (;;) {
    const match = pattern.exec(stderr());
    if (match !== null) return match;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Reads `path` on fresh connections until a worker with an ID above `id` has answered; all answers. */
async function untilWorkerAbove(base: string, path: string, id: number): Promise<Answer[]> {
  const seen: Answer[] = [];
  while (!seen.some((answer) => Number(answer.worker) > id))
    seen.push(...(await readMany(base, path, 4)));
  return seen;
}

describe.runIf(process.platform === 'linux')('a worker stopped with SIGSTOP (--workers 2)', () => {
  it('gets a control change a 503 naming it within the deadline, nothing changed, and is replaced', async () => {
    const { mock, base } = await startWorkers(
      '--clock',
      'manual',
      '--worker-timeout',
      `${TIMEOUT_S}`,
    );
    const pids = workerPids(mock.child.pid!);
    const clock = await call(base, 'GET', '/__mock/clock');
    const before = nowOf(clock);
    const pinned = await pinnedConnection(base, pids);
    const stalled = pids.find((pid) => pid !== pinned.pid)!;
    process.kill(stalled, 'SIGSTOP');
    try {
      const started = Date.now();
      const refused = await pinned.call(base, 'POST', '/__mock/clock/advance', { ms: 60_000 });
      const tookMs = Date.now() - started;
      expect(refused.status).toBe(503);
      expect(tookMs).toBeLessThan(TIMEOUT_S * 1000 + 10_000); // not for ever: the deadline, and some load
      const body = JSON.parse(refused.text) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('worker_unresponsive');
      expect(body.error.message).toContain(`(process ${stalled}) did not answer within 2 s`);
      expect(body.error.message).toContain('nothing was changed');
      // The primary's own 503 carries a request ID like every other answer (§7: a client records it),
      // from the primary's numbering (0 modulo N + 1 = 3): no worker ever hands the same one out.
      expect(refused.requestId).toMatch(/^\d{14}\d{8}$/);
      expect(Number(refused.requestId.slice(14)) % 3).toBe(0);
      expect(refused.requestId).not.toBe(clock.requestId);
      pinned.close();
    } finally {
      resume(stalled);
    }
    await logged(
      () => mock.stderr(),
      new RegExp(`\\(process ${stalled}\\) did not answer within 2 s; replacing it`),
    );
    // The 503 changed nothing, on any worker, the replacement (worker 3) included …
    const reads = await untilWorkerAbove(base, '/__mock/clock', 2);
    expect(reads.map(nowOf)).toEqual(reads.map(() => before));
    expect(workerPids(mock.child.pid!)).not.toContain(stalled);
    // … and the same change, sent again, is made and shown everywhere.
    const advanced = await call(base, 'POST', '/__mock/clock/advance', { ms: 60_000 });
    expect(advanced.status).toBe(200);
    const after = await readMany(base, '/__mock/clock', 8);
    expect(after.map(nowOf)).toEqual(after.map(() => before + 60_000));
  }, 90_000);

  it('answers a submission whose extras it never confirmed once it is replaced: every worker has them', async () => {
    const { mock, base } = await startWorkers(
      '--clock',
      'manual',
      '--worker-timeout',
      `${TIMEOUT_S}`,
    );
    const pids = workerPids(mock.child.pid!);
    const pinned = await pinnedConnection(base, pids);
    const stalled = pids.find((pid) => pid !== pinned.pid)!;
    process.kill(stalled, 'SIGSTOP');
    let created: Answer;
    try {
      // A failure code of its own does not fit in the task ID: the extras are a durable change.
      const body = { model: 'video-pro-v1', prompt: 'x [mock:fail:MyOwnCode]', seconds: '2.5' };
      created = await pinned.call(base, 'POST', '/v1/videos', body);
      pinned.close();
    } finally {
      resume(stalled);
    }
    expect(created.status).toBe(200);
    await logged(
      () => mock.stderr(),
      new RegExp(`\\(process ${stalled}\\) did not confirm a change within 2 s; replacing it`),
    );
    await call(base, 'POST', '/__mock/clock/advance', { ms: 3_600_000 });
    const id = (JSON.parse(created.text) as { id: string }).id;
    const reads = await untilWorkerAbove(base, `/v1/videos/${id}`, 2);
    expect(reads.map((answer) => answer.status)).toEqual(reads.map(() => 200));
    expect(reads.map((answer) => answer.text)).toEqual(reads.map(() => reads[0]!.text));
    expect(reads[0]!.text).toContain('MyOwnCode');
  }, 90_000);
});
