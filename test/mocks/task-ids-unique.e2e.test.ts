// Two submissions could get the same task ID, "the only task identifier" (§1): an ID is its task's facts
// (owner, reset generation, createdAt in ms, model, scenario, seconds, argument) and a 27-bit random
// `draw` (decisions/010), so two identical submissions of one user in one mock millisecond collided
// whenever their draws did: 1M of them at one instant made 996,259 IDs, and a test submitting 1,000
// identical tasks on a manual clock saw two share an ID once in 270 seeds. The seeds below are ones
// that collided: in one process (on the 6th submission), across a restart on a state file, and between
// the two workers of `--workers 2`. Now a process redraws an ID it knows is taken (those it listed,
// restored ones too), and each worker draws in a share of its own (draws ≡ slot mod N + 1), which a
// replacement takes over together with the IDs its predecessor made at the clock's current instant
// (as every worker does after a restart): the last two seeds collide within one share.
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createRandom, type Random } from '../../mocks/core/plan/random.ts';
import {
  DRAWS,
  drawIn,
  inShare,
  shareWithin,
  type TaskIdShare,
} from '../../mocks/core/task-id/task-id-share.ts';
import { taskIdShareOf } from '../../mocks/node/cluster/messages.ts';
import { coreClient } from '../helpers/core-client.ts';
import { exitCode, killMockProcesses } from '../helpers/mock-process.ts';
import { stateFileServices } from '../helpers/state-file-services.ts';
import {
  call,
  pinnedConnection,
  startWorkers,
  workerPids,
  type Answer,
} from '../helpers/workers.ts';

afterEach(killMockProcesses);
const { dir, open, closedByTest } = stateFileServices('videotask-task-ids-');
const BODY = { model: 'video-pro-v1', prompt: 'a red kite' };

describe('task IDs in one process', () => {
  it('are unique for identical submissions at one instant, a seed that collided on the 6th included', () => {
    for (const seed of [1733562, 'test']) {
      const { submit, call: ask, service } = coreClient({ seed });
      const ids = Array.from({ length: seed === 'test' ? 1000 : 6 }, () => submit(BODY));
      expect(new Set(ids).size).toBe(ids.length);
      expect(service.store.size).toBe(ids.length);
      const listed = ask('GET', '/__mock/tasks').body as { tasks: { id: string }[] };
      expect(listed.tasks.map((t) => t.id)).toEqual(ids);
    }
  });

  it('replays the same IDs from the same seed: a redraw comes from the seeded source', () => {
    const run = () => {
      const { submit } = coreClient({ seed: 1733562 });
      return Array.from({ length: 8 }, () => submit(BODY));
    };
    expect(run()).toEqual(run());
  });

  it('are unique across a restart on a state file (a seed whose next start drew the same)', () => {
    const path = join(dir, 'restart.state');
    const first = open(path, { seed: 132495 });
    const before = first.submit(BODY);
    first.service.stateFile!.close();
    closedByTest(first);
    const second = open(path);
    const after = [second.submit(BODY), second.submit(BODY)];
    expect(after).not.toContain(before);
    expect(new Set(after).size).toBe(2);
  });
});

describe('task ID shares (workers, replicas)', () => {
  const shareArbitrary = fc
    .record({
      replicas: fc.integer({ min: 1, max: 256 }),
      workers: fc.integer({ min: 1, max: 256 }),
    })
    .chain(({ replicas, workers }) =>
      fc.record({
        replicas: fc.constant(replicas),
        workers: fc.constant(workers),
        replica: fc.integer({ min: 0, max: replicas - 1 }),
        a: fc.integer({ min: 0, max: workers }),
        b: fc.integer({ min: 0, max: workers }),
        seed: fc.integer(),
      }),
    );
  const of = (replica: number, replicas: number, workers: number, slot: number): TaskIdShare =>
    taskIdShareOf(slot === workers ? 'primary' : slot, workers, { index: replica, of: replicas });

  it('never let two processes of a deployment draw the same plan seed, by construction', () => {
    fc.assert(
      fc.property(shareArbitrary, ({ replicas, workers, replica, a, b, seed }) => {
        const mine = of(replica, replicas, workers, a);
        const random = createRandom(seed);
        for (let i = 0; i < 20; i++) {
          const draw = drawIn(mine, random);
          expect(draw).toBeGreaterThanOrEqual(0);
          expect(draw).toBeLessThan(DRAWS);
          expect(inShare(draw, mine)).toBe(true);
          // Another process of the same replica, and the same slot of every other replica.
          if (b !== a) expect(inShare(draw, of(replica, replicas, workers, b))).toBe(false);
          for (const other of [replica - 1, replica + 1].filter((r) => r >= 0 && r < replicas))
            expect(inShare(draw, of(other, replicas, workers, a))).toBe(false);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('reach every draw of their share, up to the last', () => {
    const share = shareWithin({ index: 255, of: 256 }, { index: 256, of: 257 });
    const highest: Random = {
      next: () => 1 - 2 ** -53,
      int: (_, max) => max,
      between: (_, b) => b,
    };
    const last = drawIn(share, highest);
    expect(inShare(last, share)).toBe(true);
    expect(last + share.of).toBeGreaterThanOrEqual(DRAWS);
    expect(last).toBeLessThan(DRAWS);
  });
});

/** Submits identical tasks one connection each until `worker` has made `count` of them. */
async function submitUntil(base: string, worker: string, count: number, ids: Answer[]) {
  for (let tries = 0; ids.filter((a) => a.worker === worker).length < count; tries++) {
    if (tries > 400) throw new Error(`worker ${worker} never made ${count} tasks`);
    const answer = await call(base, 'POST', '/v1/videos', BODY);
    if (answer.status === 200) ids.push(answer);
    else if (answer.status !== 503) throw new Error(`${answer.status}: ${answer.text}`);
  }
}

/** Waits until `worker` answers (a replacement has started). */
async function answering(base: string, worker: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await call(base, 'GET', '/v1/models')).worker !== worker) {
    if (Date.now() > deadline) throw new Error(`worker ${worker} never answered`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const idsOf = (answers: readonly Answer[]) =>
  answers.map((a) => (JSON.parse(a.text) as { id: string }).id);

/** Waits until the primary lists every one of `ids` (it heard of them from their workers). */
async function listedByPrimary(base: string, ids: readonly string[]): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const listed = JSON.parse((await call(base, 'GET', '/__mock/tasks')).text) as {
      tasks: { id: string }[];
    };
    const known = new Set(listed.tasks.map((t) => t.id));
    if (ids.every((id) => known.has(id))) return;
    if (Date.now() > deadline) throw new Error('the primary never listed every task');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('task IDs under --workers 2 (real processes, manual clock)', () => {
  it('differ between the workers (a seed whose two workers drew alike on their 12th)', async () => {
    const { base } = await startWorkers('--clock', 'manual', '--seed', '149489');
    const answers: Answer[] = [];
    await submitUntil(base, '1', 12, answers);
    await submitUntil(base, '2', 12, answers);
    const ids = idsOf(answers);
    expect(new Set(ids).size).toBe(ids.length);
  }, 60_000);

  it("differ from a killed worker's in its replacement, at the same instant", async () => {
    // Worker 3 replaces worker 1 in slot 0: its 2nd draw in the share is worker 1's 12th.
    const { mock, base } = await startWorkers('--clock', 'manual', '--seed', '659967');
    const answers: Answer[] = [];
    await submitUntil(base, '1', 12, answers);
    await listedByPrimary(base, idsOf(answers));
    const pids = workerPids(mock.child.pid!);
    const pinned = await pinnedConnection(base, pids);
    const holder = (await pinned.call(base, 'GET', '/v1/models')).worker;
    pinned.close();
    process.kill(holder === '1' ? pinned.pid : pids.find((p) => p !== pinned.pid)!, 'SIGKILL');
    await answering(base, '3');
    await submitUntil(base, '3', 2, answers);
    const ids = idsOf(answers);
    expect(new Set(ids).size).toBe(ids.length);
  }, 60_000);

  it('differ across a restart on a state file, the clock at the same instant', async () => {
    // Slot 0 of the second start draws on its 11th what slot 0 of the first drew on its 2nd.
    const args = ['--clock', 'manual', '--seed', '8180', '--state', join(dir, 'workers.state')];
    const first = await startWorkers(...args);
    const answers: Answer[] = [];
    await submitUntil(first.base, '1', 2, answers);
    await listedByPrimary(first.base, idsOf(answers));
    first.mock.child.kill('SIGTERM');
    expect(await exitCode(first.mock, 15_000)).toBe(0);
    const second = await startWorkers(...args);
    const later: Answer[] = [];
    await submitUntil(second.base, '1', 11, later);
    const ids = idsOf([...answers, ...later]);
    expect(new Set(ids).size).toBe(ids.length);
  }, 90_000);
});
