// `videotask mock --workers N` as real processes (decisions/016, 021): every worker answers every task
// the same, a control change answered 200 is on every worker by the next request, a dead worker is
// replaced, and --state survives kill -9 of the whole group. Bad --workers and --worker-timeout values:
// test/mocks/cli-mock-flags.test.ts, in-process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  exitCode,
  killMockProcesses,
  killMockProcessesBut,
  spawnMock,
  type MockProcess,
} from '../helpers/mock-process.ts';
import { eventually } from '../helpers/eventually.ts';
import {
  call,
  pinnedTo,
  readByServer,
  readMany,
  startWorkers,
  statusOf,
  submit,
  workerPids,
  type Answer,
} from '../helpers/workers.ts';

const ORDER = ['unknown', 'queued', 'in_progress', 'completed', 'failed'];
const dir = mkdtempSync(join(tmpdir(), 'videotask-workers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * One group of two workers on a manual clock, shared by the tests that only submit, advance, force and
 * reset (each on tasks of its own): started once instead of once per test. A test that pauses, kills
 * or restarts workers starts its own, killed after it.
 */
let shared: Promise<{ mock: MockProcess; base: string }> | undefined;
const sharedGroup = () => (shared ??= startWorkers('--clock', 'manual'));
afterEach(async () => killMockProcessesBut(shared === undefined ? [] : [(await shared).mock]));
afterAll(killMockProcesses);

describe('videotask mock --workers N (real processes)', () => {
  it('says how many workers, and every worker answers a task submitted on another the same', async () => {
    const { mock, base } = await sharedGroup();
    expect(mock.stdout()).toMatch(/workers 2 on this port/);
    const ids = [
      await submit(base, 'a red kite'),
      await submit(base, 'x [mock:slow]'),
      await submit(base, 'x [mock:fail:MyOwnCode]', { seconds: '2.5' }), // its facts are in the extras
    ];
    await call(base, 'POST', '/__mock/clock/advance', { ms: 30_000 });
    const workers = new Set<string>();
    for (const id of ids) {
      const answers = await readMany(base, `/v1/videos/${id}`, 8);
      for (const answer of answers) {
        workers.add(answer.worker);
        expect(answer.status).toBe(200);
        expect(answer.text).toBe(answers[0]!.text);
      }
    }
    expect([...workers].sort()).toEqual(['1', '2']);
  }, 60_000);

  it('shows a clock advance on every worker in the next request after its 200', async () => {
    const { base } = await sharedGroup();
    for (let round = 0; round < 12; round++) {
      const id = await submit(base, `round ${round}`);
      const advanced = await call(base, 'POST', '/__mock/clock/advance', { ms: 600_000 });
      expect(advanced.status).toBe(200);
      const answers = await readMany(base, `/v1/videos/${id}`);
      expect(answers.map(statusOf)).toEqual(answers.map(() => 'completed'));
    }
  }, 60_000);

  it('holds the 200 of a control change until every worker has it, one paused within the deadline too', async () => {
    // Past the deadline a paused worker is replaced instead: test/mocks/worker-stalled-replaced.e2e.test.ts.
    const { mock, base } = await startWorkers('--clock', 'manual', '--worker-timeout', '60');
    const id = await submit(base, 'a red kite');
    const before = (JSON.parse((await call(base, 'GET', '/__mock/clock')).text) as { now: number })
      .now;
    const pids = workerPids(mock.child.pid!);
    const [running, paused] = pids as [number, number];
    // Every request on the running worker: what holds them is the primary waiting for the paused one.
    const [first, second, submitter, probe] = await pinnedTo(base, pids, running, 4);
    process.kill(paused, 'SIGSTOP');
    let answered = 0;
    let advances: Promise<Answer>[];
    let submission: Promise<Answer>;
    const counted = async (answer: Promise<Answer>) => {
      const done = await answer;
      answered++;
      return done;
    };
    try {
      advances = [first!, second!].map((pinned) =>
        counted(pinned.call(base, 'POST', '/__mock/clock/advance', { ms: 300_000 })),
      );
      // Its extras are durable too: the submission's 200 waits for every worker to hold them.
      const body = { model: 'video-pro-v1', prompt: 'x [mock:fail:MyOwnCode]', seconds: '2.5' };
      submission = counted(submitter!.call(base, 'POST', '/v1/videos', body));
      // The running worker has read all three (and relayed what it relays as it read them) …
      const port = Number(new URL(base).port);
      await eventually(
        () => [first!, second!, submitter!].every((c) => readByServer(port, c.localPort)),
        'the running worker reads the three requests',
      );
      // … and the primary answers a request relayed after them (one channel, in order): they are
      // there, held, and the clock is not advanced while a worker has not answered.
      const read = await probe!.call(base, 'GET', '/__mock/clock');
      expect((JSON.parse(read.text) as { now: number }).now).toBe(before);
      expect(answered).toBe(0);
    } finally {
      process.kill(paused, 'SIGCONT');
    }
    expect((await Promise.all(advances)).map((a) => a.status)).toEqual([200, 200]);
    const answers = await readMany(base, `/v1/videos/${id}`);
    expect(answers.map(statusOf)).toEqual(answers.map(() => 'completed'));
    const created = await submission;
    expect(created.status).toBe(200);
    const withExtras = (JSON.parse(created.text) as { id: string }).id;
    const reads = await readMany(base, `/v1/videos/${withExtras}`);
    expect(reads.map((a) => a.text)).toEqual(reads.map(() => reads[0]!.text));
    for (const pinned of [first, second, submitter, probe]) pinned!.close();
  }, 60_000);

  it('shows a forced outcome and a reset on every worker in the next request after their 200', async () => {
    const { base } = await sharedGroup();
    for (let round = 0; round < 8; round++) {
      const id = await submit(base, `round ${round}`);
      const forced = await call(base, 'POST', `/__mock/tasks/${id}/outcome`, { outcome: 'fail' });
      expect(forced.status).toBe(200);
      const answers = await readMany(base, `/v1/videos/${id}`);
      expect(answers.map(statusOf)).toEqual(answers.map(() => 'failed'));
      const reset = await call(base, 'POST', '/__mock/reset');
      expect(reset.status).toBe(200);
      const gone = await readMany(base, `/v1/videos/${id}`);
      expect(gone.map((a) => a.status)).toEqual(gone.map(() => 404));
    }
  }, 60_000);

  it('replaces a worker killed with -9, and the new one answers the same', async () => {
    const { mock, base } = await startWorkers('--clock', 'manual');
    const id = await submit(base, 'a red kite');
    await call(base, 'POST', '/__mock/clock/advance', { ms: 10_000 });
    const before = (await call(base, 'GET', `/v1/videos/${id}`)).text;
    const [victim] = workerPids(mock.child.pid!);
    process.kill(victim!, 'SIGKILL');
    const deadline = Date.now() + 20_000;
    while (!/exited on SIGKILL; starting another/.test(mock.stderr()) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(mock.stderr()).toMatch(/worker \d+ \(process \d+\) exited on SIGKILL; starting another/);
    const seen = new Set<string>();
    while (!seen.has('3') && Date.now() < deadline) {
      const answers = await readMany(base, `/v1/videos/${id}`, 4);
      for (const answer of answers) {
        seen.add(answer.worker);
        expect(answer.text).toBe(before);
      }
    }
    expect(seen).toContain('3'); // the replacement (cluster worker IDs count up)
  }, 60_000);

  it('keeps tasks, forced outcomes and the clock after kill -9 of the whole group (--state)', async () => {
    const file = join(dir, 'group.state');
    const first = await startWorkers('--clock', 'manual', '--state', file);
    const done = await submit(first.base, 'a red kite');
    const forced = await submit(first.base, 'x [mock:stuck]');
    await call(first.base, 'POST', `/__mock/tasks/${forced}/outcome`, { outcome: 'fail' });
    await call(first.base, 'POST', '/__mock/clock/advance', { ms: 600_000 });
    const clock = JSON.parse((await call(first.base, 'GET', '/__mock/clock')).text) as {
      now: number;
    };
    const group = [first.mock.child.pid!, ...workerPids(first.mock.child.pid!)];
    for (const pid of group) process.kill(pid, 'SIGKILL');
    await first.mock.exited;

    const second = await startWorkers('--clock', 'manual', '--state', file);
    const after = JSON.parse((await call(second.base, 'GET', '/__mock/clock')).text) as {
      now: number;
    };
    expect(after.now).toBeGreaterThanOrEqual(clock.now);
    expect((await readMany(second.base, `/v1/videos/${done}`)).map(statusOf)).toEqual(
      Array(6).fill('completed'),
    );
    expect((await readMany(second.base, `/v1/videos/${forced}`)).map(statusOf)).toEqual(
      Array(6).fill('failed'),
    );
    second.mock.child.kill('SIGTERM');
    expect(await exitCode(second.mock, 15_000)).toBe(0);
  }, 90_000);

  it('shows no task going backwards after kill -9 of the group with a real clock (--state)', async () => {
    const file = join(dir, 'real-clock.state');
    const args = ['--speed', '50', '--state', file];
    const first = await startWorkers(...args);
    const ids = await Promise.all([1, 2, 3, 4].map((n) => submit(first.base, `kite ${n}`)));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const rank = (answer: Answer) => {
      const task = JSON.parse(answer.text) as { status: string; progress: number };
      return ORDER.indexOf(task.status) * 1000 + task.progress;
    };
    const seen = new Map<string, number>();
    for (const id of ids)
      seen.set(id, Math.max(...(await readMany(first.base, `/v1/videos/${id}`, 4)).map(rank)));
    const group = [first.mock.child.pid!, ...workerPids(first.mock.child.pid!)];
    for (const pid of group) process.kill(pid, 'SIGKILL');
    await first.mock.exited;

    const second = await startWorkers(...args);
    for (const id of ids) {
      const now = await readMany(second.base, `/v1/videos/${id}`, 4);
      for (const answer of now) expect(rank(answer)).toBeGreaterThanOrEqual(seen.get(id)!);
    }
  }, 90_000);

  it('stops every worker and exits 0 on SIGINT', async () => {
    const { mock } = await startWorkers();
    const workers = workerPids(mock.child.pid!);
    expect(workers).toHaveLength(2);
    mock.child.kill('SIGINT');
    expect(await exitCode(mock, 15_000)).toBe(0);
    const alive = workers.filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
    expect(alive).toEqual([]);
  }, 60_000);

  it('exits 1 saying what to do when the port is in use', async () => {
    const { base } = await startWorkers();
    const port = new URL(base).port;
    const second = spawnMock('--port', port, '--workers', '2');
    expect(await exitCode(second, 30_000)).toBe(1);
    expect(second.stderr()).toContain(`port ${port} is in use. Pick another with --port N`);
  }, 60_000);
});
