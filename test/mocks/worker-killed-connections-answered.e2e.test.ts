// Issue 24 item 9: killing a worker with -9 left one in-flight request neither answered nor closed for
// 100 s or more. What held it open was the primary: node:cluster's primary accepts each connection,
// sends it to a worker and closes its own copy only once the worker says it took it; a worker killed
// before that left the copy open in the primary for ever. The primary now hands such a connection to
// another worker, which answers it (decisions/021); what the dead worker had taken closes with it.
import { afterEach, describe, expect, it } from 'vitest';
import { killMockProcesses } from '../helpers/mock-process.ts';
import {
  call,
  pinnedConnection,
  startWorkers,
  workerPids,
  type Answer,
} from '../helpers/workers.ts';

afterEach(killMockProcesses);

/** Resolves with the answer, or with the error that ended the request (a closed connection). */
const settled = (answer: Promise<Answer>): Promise<Answer | Error> =>
  answer.then(
    (a) => a,
    (error: Error) => error,
  );

describe.runIf(process.platform === 'linux')(
  'kill -9 of a worker during a held request (--workers 2)',
  () => {
    it('closes what it had taken, and has another worker answer what it had not', async () => {
      // A long deadline: the kill below, not the stall detection, is what this test is about.
      const { mock, base } = await startWorkers('--clock', 'manual', '--worker-timeout', '600');
      const pids = workerPids(mock.child.pid!);
      const pinned = await pinnedConnection(base, pids);
      const victim = pinned.pid;
      // The victim holds a submission's answer for 60 s (the lost-answer scenario) …
      const prompt = 'a kite [mock:lost-answer:60]';
      const held = settled(
        pinned.call(base, 'POST', '/v1/videos', { model: 'video-pro-v1', prompt }),
      );
      for (;;) {
        const { tasks } = JSON.parse((await call(base, 'GET', '/__mock/tasks')).text) as {
          tasks: unknown[];
        };
        if (tasks.length === 1) break; // created, and its answer held
      }
      // … and, stopped, is handed a connection it cannot take: of two new ones, node:cluster hands it
      // one (it is free) and the other worker the other.
      process.kill(victim, 'SIGSTOP');
      const submit = (n: number) =>
        settled(call(base, 'POST', '/v1/videos', { model: 'video-pro-v1', prompt: `kite ${n}` }));
      const fresh = [submit(1), submit(2)];
      const first = await Promise.race(fresh);
      expect(first).toMatchObject({ status: 200 });
      process.kill(victim, 'SIGKILL');

      const started = Date.now();
      const answers = await Promise.all(fresh);
      expect(answers.map((a) => (a instanceof Error ? a.message : a.status))).toEqual([200, 200]);
      const heldEnd = await held;
      expect(heldEnd).toBeInstanceOf(Error); // closed with the victim, not held for 60 s
      expect(Date.now() - started).toBeLessThan(15_000);
      const taken = (answers as Answer[]).map((a) => a.worker);
      expect(taken).not.toContain(''); // both answered by a worker, neither by nothing
      // Each submission made one task: the one the victim never read was not lost, nor made twice.
      const { tasks } = JSON.parse((await call(base, 'GET', '/__mock/tasks')).text) as {
        tasks: { prompt?: string }[];
      };
      expect(tasks).toHaveLength(3);
      expect(mock.stderr()).toMatch(new RegExp(`\\(process ${victim}\\) exited on SIGKILL`));
      pinned.close();
    }, 90_000);
  },
);
