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

const BANNER_END = /state file: .*\n/;
const ORDER = ['unknown', 'queued', 'in_progress', 'completed', 'failed'];
const dir = mkdtempSync(join(tmpdir(), 'videotask-state-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(killMockProcesses);

async function call(base: string, method: string, path: string, key?: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  const parsed = (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
  return { status: response.status, body: parsed };
}

async function submit(base: string, key: string, prompt = 'a red kite'): Promise<string> {
  const answer = await call(base, 'POST', '/v1/videos', key, { model: 'video-pro-v1', prompt });
  if (answer.status !== 200) throw new Error(`submission answered ${answer.status}`);
  return answer.body['id'] as string;
}

const status = async (base: string, id: string, key: string) =>
  (await call(base, 'GET', `/v1/videos/${id}`, key)).body as unknown as {
    status: string;
    progress: number;
  };

describe('videotask mock --state FILE (real processes)', () => {
  it('keeps every acknowledged task after kill -9, with nothing going backwards', async () => {
    const file = join(dir, 'kill9.state');
    const a = spawnMock('--state', file, '--port', '0', '--speed', '50');
    const base = await listening(a, BANNER_END);
    expect(a.stdout()).toContain(`secret: kept in the state file ${file}`);
    const keys = ['sk-mock-alice', 'sk-mock-bob', 'sk-mock-vip'];
    const acknowledged: { id: string; key: string }[] = [];
    const seen = new Map<string, { status: string; progress: number }>();
    let stop = false;
    const submitter = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const key = keys[(n + i) % 3]!;
        const id = await submit(base, key, i % 5 === 0 ? 'x [mock:slow]' : 'x').catch(() => '');
        if (id === '') return;
        acknowledged.push({ id, key });
        const shown = await status(base, id, key).catch(() => undefined);
        if (shown === undefined) return;
        seen.set(id, shown);
      }
    };
    const running = Promise.all([0, 1, 2, 3, 4, 5].map(submitter));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    a.child.kill('SIGKILL');
    stop = true;
    await a.exited;
    await running;
    expect(acknowledged.length).toBeGreaterThan(50);

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
    const listed = (await call(base2, 'GET', '/__mock/tasks')).body['tasks'] as { id: string }[];
    expect(new Set(listed.map((t) => t.id))).toEqual(new Set(acknowledged.map((t) => t.id)));
  });

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
    const polling = pollTask((taskId) => client.getVideo(taskId), polled, {
      initialIntervalMs: 200,
      factor: 1,
      maxIntervalMs: 200,
      queryRetries: 50,
      timeoutMs: 20_000,
      maxAttempts: 200,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    a.child.kill('SIGTERM');
    expect(await exitCode(a, 8_000)).toBe(0);
    const b = spawnMock('--state', file, '--port', new URL(base).port, '--speed', '20');
    await listening(b, BANNER_END);
    expect(b.stdout()).toMatch(/restored 2 tasks, clock [^,]+, start 2\)/);
    expect((await call(base, 'GET', `/v1/videos/${foreign}`, 'sk-mock-alice')).status).toBe(404);
    expect((await call(base, 'GET', '/__mock/family')).body['bound']).toBe(true);
    const { task } = await polling;
    expect(task).toMatchObject({ id: polled, status: 'completed', progress: 100 });
    b.child.kill('SIGTERM');
    expect(await exitCode(b, 8_000)).toBe(0);
  });

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
