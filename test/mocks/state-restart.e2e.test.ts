// `videotask mock --state FILE` as a process: every acknowledged task answers after SIGTERM or kill -9,
// the clock never resumes before what an answer revealed, and a second mock on the file exits 2.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { pollTask, VideoTaskClient } from '../../src/index.ts';
import {
  exitCode,
  killMockProcesses,
  LISTENING,
  listening,
  spawnMock,
} from '../helpers/mock-process.ts';
import { stateFileHeader } from '../helpers/state-file-services.ts';
import {
  call,
  keepSubmitting,
  status,
  submit,
  expectKeptAfterKill,
} from '../helpers/state-restart.ts';

const BANNER_END = /state file: .*\n/;
const ORDER = ['unknown', 'queued', 'in_progress', 'completed', 'failed'];
const dir = mkdtempSync(join(tmpdir(), 'videotask-state-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(killMockProcesses);

/** Acknowledged tasks before the kill -9: counted, not timed, so a loaded machine only takes longer. */
const BEFORE_KILL = 60;

describe('videotask mock --state FILE (real processes)', () => {
  it('keeps every acknowledged task after kill -9, with nothing going backwards', async () => {
    const file = join(dir, 'kill9.state');
    const a = spawnMock('--state', file, '--port', '0', '--speed', '50');
    const base = await listening(a, BANNER_END);
    expect(a.stdout()).toContain(`secret: kept in the state file ${file}`);
    // The kill comes once BEFORE_KILL tasks are acknowledged, with submissions and queries in flight.
    const submitters = keepSubmitting(base, BEFORE_KILL);
    await submitters.reached;
    a.child.kill('SIGKILL');
    await a.exited;
    await submitters.stop();
    const { acknowledged, seen } = submitters;
    expect(acknowledged.length).toBeGreaterThanOrEqual(BEFORE_KILL);

    const b = spawnMock('--state', file, '--port', '0', '--speed', '50');
    const base2 = await listening(b, BANNER_END);
    for (const { id, key } of acknowledged) {
      const now = await status(base2, id, key);
      const before = seen.get(id);
      expect(now.status).toBeDefined();
      if (before === undefined) continue;
      expect(ORDER.indexOf(now.status)).toBeGreaterThanOrEqual(ORDER.indexOf(before.status));
      if (now.status === before.status)
        expect(now.progress).toBeGreaterThanOrEqual(before.progress);
    }
    await expectKeptAfterKill(base2, acknowledged);
  }, 90_000);

  it('resumes a manual clock at least where an acknowledged advance put it, after kill -9', async () => {
    const file = join(dir, 'manual.state');
    const a = spawnMock('--state', file, '--port', '0', '--clock', 'manual');
    const base = await listening(a, BANNER_END);
    const id = await submit(base, 'sk-mock-alice');
    const advanced = await call(base, 'POST', '/__mock/clock/advance', undefined, { ms: 600_000 });
    expect(advanced.status).toBe(200);
    expect((await status(base, id, 'sk-mock-alice')).status).toBe('completed');
    a.child.kill('SIGKILL'); // at once: the advance must already be on disk
    await a.exited;
    const b = spawnMock('--state', file, '--port', '0', '--clock', 'manual');
    const base2 = await listening(b, BANNER_END);
    expect((await call(base2, 'GET', '/__mock/clock')).body['now']).toBe(advanced.body['now']);
    expect((await status(base2, id, 'sk-mock-alice')).status).toBe('completed');
  });

  it('keeps tasks, owners and binding across SIGTERM; a polling client reaches completed', async () => {
    const file = join(dir, 'sigterm.state');
    const a = spawnMock('--state', file, '--port', '0', '--speed', '20');
    const base = await listening(a, BANNER_END);
    expect(a.stdout()).toContain(`state file: ${file} (new)`);
    await call(base, 'PUT', '/__mock/family', undefined, { bound: true });
    const polled = await submit(base, 'sk-mock-alice');
    const foreign = await submit(base, 'sk-mock-bob', 'x [mock:stuck]');
    await call(base, 'POST', `/__mock/tasks/${polled}/outcome`, undefined, {
      outcome: 'succeed',
      afterMs: 80_000, // 4 s of a mock running at 20×: after the restart
    });
    const client = new VideoTaskClient({
      baseUrl: base,
      apiKey: 'sk-mock-alice',
      requestTimeoutMs: 2_000,
    });
    // The client polls through the restart: it is told nothing, and retries while the mock is away
    // for as long as the restart takes (bounded by the test's own timeout, not by a guess at it).
    let pollingSeen: () => void;
    const pollingStarted = new Promise<void>((resolve) => (pollingSeen = resolve));
    const polling = pollTask((taskId) => client.getVideo(taskId), polled, {
      initialIntervalMs: 200,
      factor: 1,
      maxIntervalMs: 200,
      queryRetries: Number.MAX_SAFE_INTEGER,
      timeoutMs: 300_000,
      maxAttempts: Number.MAX_SAFE_INTEGER,
      onUpdate: () => pollingSeen(),
    });
    await pollingStarted;
    a.child.kill('SIGTERM');
    expect(await exitCode(a, 30_000)).toBe(0);
    const b = spawnMock('--state', file, '--port', new URL(base).port, '--speed', '20');
    await listening(b, BANNER_END);
    expect(b.stdout()).toMatch(/restored 2 tasks, clock [^,]+, start 2\)/);
    expect((await call(base, 'GET', `/v1/videos/${foreign}`, 'sk-mock-alice')).status).toBe(404);
    expect((await call(base, 'GET', '/__mock/family')).body['bound']).toBe(true);
    const { task } = await polling;
    expect(task).toMatchObject({ id: polled, status: 'completed', progress: 100 });
    b.child.kill('SIGTERM');
    expect(await exitCode(b, 30_000)).toBe(0);
  }, 90_000);

  it('exits 2 when another mock holds the file, naming it, and leaves the file alone', async () => {
    const file = join(dir, 'busy.state');
    // A manual clock: a real one's lease would have the first mock itself append to the file meanwhile.
    const a = spawnMock('--state', file, '--port', '0', '--clock', 'manual');
    await listening(a, BANNER_END);
    const text = readFileSync(file, 'utf8');
    const second = spawnMock('--state', file, '--port', '0');
    expect(await exitCode(second, 15_000)).toBe(2);
    expect(second.stderr()).toContain(
      `state file ${file}: in use by another mock (process ${a.child.pid}`,
    );
    expect(second.stdout()).not.toMatch(LISTENING);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('exits 2 naming the file and the line when the state file is corrupt, and leaves it alone', async () => {
    const file = join(dir, 'corrupt.state');
    const header = stateFileHeader({ secret: 's' });
    const text = `${JSON.stringify(header)}\n{"task":\n`;
    writeFileSync(file, text);
    const mock = spawnMock('--state', file, '--port', '0');
    expect(await exitCode(mock, 15_000)).toBe(2);
    expect(mock.stderr()).toContain(`state file ${file}, line 2: not JSON`);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});
