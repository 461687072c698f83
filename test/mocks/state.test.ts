// `videotask mock --state FILE`: tasks, clock position and the second family's binding survive a
// restart (SIGTERM: nothing lost; kill -9: at most the last second), and a corrupt file is refused.
import {
  appendFileSync,
  copyFileSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { pollTask, VideoTaskClient } from '../../src/index.ts';
import { readStateFile, StateFileError } from '../../mocks/core/state-file.ts';
import { coreClient } from '../helpers/core-client.ts';
import {
  exitCode,
  killMockProcesses,
  LISTENING,
  listening,
  spawnMock,
} from '../helpers/mock-process.ts';

/** The banner's last line: what a test reads of it is complete once this is printed. */
const BANNER_END = /state file: .*\n/;

const dir = mkdtempSync(join(tmpdir(), 'videotask-state-'));
const SPEED = 20;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('state file, in-process', () => {
  const services: { stateFile: { close(): void } | undefined }[] = [];
  afterEach(() => {
    for (const s of services.splice(0)) s.stateFile?.close();
  });
  const open = (path: string, options: Parameters<typeof coreClient>[0] = {}) => {
    const client = coreClient({ stateFile: path, ...options });
    services.push(client.service);
    return client;
  };

  it('round-trips every task field, Infinity run times, forced plans, query counters, rows, clock and binding', () => {
    const path = join(dir, 'roundtrip.state');
    const a = open(path);
    const stuck = a.submit({ model: 'video-pro-v1', prompt: 'x [mock:stuck]' });
    const flaky = a.submit({
      model: 'video-lite-v1',
      prompt: 'x [mock:flaky:3]',
      metadata: { duration: 7 },
    });
    const forced = a.submit({ model: 'video-pro-v1', prompt: 'x' }, 'sk-mock-bob');
    expect(a.call('GET', `/v1/videos/${flaky}`).status).toBe(503);
    expect(a.call('GET', `/v1/videos/${flaky}`).status).toBe(200);
    a.service.clock.advance(1_000);
    expect(
      a.call('POST', `/__mock/tasks/${forced}/outcome`, {
        body: { outcome: 'fail', code: 'GenerationTimeout', afterMs: 600_000 },
      }).status,
    ).toBe(200);
    expect(a.call('PUT', '/__mock/family', { body: { bound: true } }).status).toBe(200);
    const vip = a.submit({ model: 'alt-video-v2', prompt: 'x' }, 'sk-mock-vip');
    a.service.clock.advance(4_000);
    const before = [...a.service.store.values()].map((t) => ({
      ...t,
      plan: t.plan,
      queries: t.queries,
    }));
    const now = a.service.clock.now();
    a.service.stateFile!.close();

    const b = open(path, { clock: { mode: 'manual' }, seed: 'other' });
    expect(b.service.seed).toBe('test'); // the file's seed wins: signed URLs stay valid
    expect(b.service.clock.now()).toBe(now); // a manual clock sits at the saved position
    expect(b.service.family.bound).toBe(true);
    expect(
      [...b.service.store.values()].map((t) => ({ ...t, plan: t.plan, queries: t.queries })),
    ).toEqual(before);
    expect(b.service.store.get(stuck)!.plan.runMs).toBe(Number.POSITIVE_INFINITY);
    expect(b.service.store.get(forced)!.plan).toMatchObject({
      scenario: 'forced:fail',
      errorCode: 'GenerationTimeout',
    });
    expect(b.service.store.get(vip)!.platform).toBe('61');
    // The query counter went on: the third query is answered, the fourth is the flaky 503.
    expect(b.call('GET', `/v1/videos/${flaky}`).status).toBe(200);
    expect(b.call('GET', `/v1/videos/${flaky}`).status).toBe(503);
    expect(b.call('GET', `/v1/videos/${forced}`, { key: 'sk-mock-alice' }).status).toBe(404);
    const next = b.submit();
    expect(before.map((t) => t.id)).not.toContain(next);
    expect(b.service.store.get(next)!.row).toBe(5);
  });

  it('journals changes between compactions: a copy taken after a flush (a crash) loads them all', () => {
    const path = join(dir, 'journal.state');
    const a = open(path);
    const ids = [a.submit(), a.submit()];
    a.service.stateFile!.flush();
    const third = a.submit({ model: 'video-pro-v1', prompt: 'x [mock:flaky:2]' });
    a.call('GET', `/v1/videos/${third}`);
    a.service.clock.advance(90_000);
    a.service.stateFile!.flush();
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({
      format: 'videotask-mock-state',
      version: 1,
      starts: 1,
      rows: 0,
    });
    expect(lines.length).toBe(1 + 2 + 1 + 1 + 1); // header, 2 tasks + clock, 1 task + clock
    const crashed = join(dir, 'journal-copy.state');
    copyFileSync(path, crashed);
    const restored = readStateFile(crashed)!;
    expect([...restored.tasks.keys()]).toEqual([...ids, third]);
    expect(restored.tasks.get(third)!.queries).toBe(1);
    expect(restored.clock).toBe(a.service.clock.now());
    expect(restored.rows).toBe(3);
  });

  it('compacts a wasteful journal when it starts: one line per task again', () => {
    const path = join(dir, 'compact.state');
    const a = open(path);
    const ids = [a.submit(), a.submit()];
    for (let i = 0; i < 1_100; i++) {
      a.service.clock.advance(10);
      a.service.stateFile!.flush();
    }
    expect(readFileSync(path, 'utf8').trimEnd().split('\n').length).toBe(1 + 2 + 1_100);
    const saved = a.service.clock.now();
    services.pop();
    const crashed = join(dir, 'compact-copy.state');
    copyFileSync(path, crashed);
    a.service.stateFile!.close();
    const b = open(crashed);
    expect(b.service.clock.now()).toBe(saved);
    const lines = readFileSync(crashed, 'utf8').trimEnd().split('\n');
    expect(lines.length).toBe(1 + 2);
    expect(JSON.parse(lines[0]!)).toMatchObject({ starts: 2, clock: saved, rows: 2 });
    expect([...b.service.store.values()].map((t) => t.id)).toEqual(ids);
  });

  it('persists a reset as an empty store, and the binding it restores', () => {
    const path = join(dir, 'reset.state');
    const a = open(path);
    a.submit();
    a.call('PUT', '/__mock/family', { body: { bound: true } });
    a.service.stateFile!.flush();
    expect(a.call('POST', '/__mock/reset').status).toBe(200);
    a.service.stateFile!.flush();
    const restored = readStateFile(path)!;
    expect(restored.tasks.size).toBe(0);
    expect(restored.rows).toBe(0);
    expect(restored.familyBound).toBe(false);
  });

  it('replays reset lines and state lines in order (the journal as a crash leaves it)', () => {
    const path = join(dir, 'replay.state');
    const a = open(path);
    const [first, second] = [a.submit(), a.submit()];
    a.service.stateFile!.close();
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    const header = JSON.parse(lines[0]!) as { clock: number };
    writeFileSync(
      path,
      [
        lines[0],
        lines[1],
        '{"reset":true}',
        lines[2],
        `{"clock":${header.clock + 5000},"familyBound":true}`,
        '{"start":7}',
        '',
      ].join('\n'),
    );
    const restored = readStateFile(path)!;
    expect([...restored.tasks.keys()]).toEqual([second]);
    expect(restored.tasks.has(first)).toBe(false);
    expect(restored).toMatchObject({
      clock: header.clock + 5000,
      familyBound: true,
      starts: 7,
      rows: 2,
    });
  });

  it('reports write failures: close() throws naming the file, the timer tells onError', async () => {
    const sub = mkdtempSync(join(dir, 'gone-'));
    const path = join(sub, 'gone.state');
    const errors: Error[] = [];
    const a = open(path, {
      stateFile: { path, flushIntervalMs: 20, onError: (e) => errors.push(e) },
    });
    a.submit();
    rmSync(sub, { recursive: true });
    a.call('POST', '/__mock/reset'); // the next flush compacts, which needs the directory
    await sleep(100);
    expect(errors[0]?.message).toContain(path);
    services.pop();
    expect(() => a.service.stateFile!.close()).toThrow(/cannot write it/);
  });

  it('ignores a torn last line, and refuses a file that does not parse, naming the line', () => {
    const path = join(dir, 'torn.state');
    const a = open(path);
    const id = a.submit();
    a.service.stateFile!.close();
    appendFileSync(path, '{"task":{"id":"task_');
    const restored = readStateFile(path)!;
    expect([...restored.tasks.keys()]).toEqual([id]);
    expect(restored.ignoredBytes).toBeGreaterThan(0);
    // Opening it drops the torn bytes before appending, so the next line does not merge with them.
    const b = open(path);
    b.submit();
    b.service.stateFile!.flush();
    expect(readStateFile(path)!.tasks.size).toBe(2);

    // A complete last line without its newline (a hand edit) is kept, and terminated before appending.
    b.service.stateFile!.close();
    writeFileSync(path, readFileSync(path, 'utf8').trimEnd());
    const c = open(path);
    expect(c.service.store.size).toBe(2);
    c.submit();
    c.service.stateFile!.flush();
    expect(readStateFile(path)!.tasks.size).toBe(3);

    const good = readFileSync(path, 'utf8').split('\n');
    const cases: [string, RegExp][] = [
      ['not json\n', /line 1: not JSON/],
      [
        '{"format":"videotask-mock-state","version":9}\n',
        /line 1: format version 9 is not supported/,
      ],
      [`${good[0]}\n{"task":{"id":"x"}}\n`, /line 2: task\.owner must be a non-empty string/],
      [`${good[0]}\n{"clock":"soon"}\n${good[1]}\n`, /line 2: clock must be a number/],
      [`${good[0]}\n\n`, /line 2: an empty line/],
    ];
    for (const [text, message] of cases) {
      const bad = join(dir, 'bad.state');
      writeFileSync(bad, text);
      expect(() => readStateFile(bad)).toThrow(StateFileError);
      expect(() => readStateFile(bad)).toThrow(message);
      expect(() => coreClient({ stateFile: bad })).toThrow(bad);
      expect(readFileSync(bad, 'utf8')).toBe(text); // never overwritten
    }
    // Missing and empty files are fresh starts.
    expect(readStateFile(join(dir, 'missing.state'))).toBeUndefined();
    writeFileSync(join(dir, 'empty.state'), '');
    expect(readStateFile(join(dir, 'empty.state'))).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------------

afterEach(killMockProcesses);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(
  base: string,
  method: string,
  path: string,
  key?: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

async function submit(
  base: string,
  key: string,
  body: Record<string, unknown> = { model: 'video-pro-v1', prompt: 'a red kite' },
  scenario?: string,
): Promise<string> {
  const answer = await call(
    base,
    'POST',
    '/v1/videos',
    key,
    body,
    scenario === undefined ? {} : { 'x-mock-scenario': scenario },
  );
  if (answer.status !== 200)
    throw new Error(`submission answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.id as string;
}

const ORDER = ['unknown', 'queued', 'in_progress', 'completed', 'failed'];

describe('videotask mock --state FILE (real processes)', () => {
  it('keeps tasks, owners, clock position and binding across SIGTERM; a polling client reaches completed', async () => {
    const file = join(dir, 'sigterm.state');
    const a = spawnMock('--state', file, '--port', '0', '--speed', String(SPEED));
    const base = await listening(a, BANNER_END);
    expect(a.stdout()).toContain(`state file: ${file} (new)`);

    expect((await call(base, 'PUT', '/__mock/family', undefined, { bound: true })).status).toBe(
      200,
    );
    const tasks: { id: string; key: string }[] = [];
    const add = async (key: string, body?: Record<string, unknown>, scenario?: string) => {
      const id = await submit(base, key, body, scenario);
      tasks.push({ id, key });
      return id;
    };
    const polled = await add('sk-mock-alice');
    await add('sk-mock-alice', undefined, 'stuck');
    const queued = await add('sk-mock-alice', undefined, 'slow');
    await add('sk-mock-bob', undefined, 'stuck');
    const vip = await add('sk-mock-vip', { model: 'alt-video-v2', prompt: 'a kite' });
    // The polled task: forced to complete 80 s (simulated) from now, i.e. 4 s of running mock at 20×: after the restart.
    expect(
      (
        await call(base, 'POST', `/__mock/tasks/${polled}/outcome`, undefined, {
          outcome: 'succeed',
          afterMs: 80_000,
        })
      ).status,
    ).toBe(200);

    // A client that kept the task ID polls through the restart (connection refused meanwhile).
    const client = new VideoTaskClient({
      baseUrl: base,
      apiKey: 'sk-mock-alice',
      requestTimeoutMs: 2_000,
    });
    const seen: { status: string; at: number }[] = [];
    const polling = pollTask(
      (id, signal) => client.getVideo(id, signal === undefined ? {} : { signal }),
      polled,
      {
        initialIntervalMs: 200,
        factor: 1,
        maxIntervalMs: 200,
        queryRetries: 50,
        timeoutMs: 20_000,
        maxAttempts: 200,
        onUpdate: (task) => seen.push({ status: task.status, at: Date.now() }),
      },
    );

    await sleep(300);
    type Inspection = {
      id: string;
      owner: string;
      createdAt: number;
      plan: { scenario: string };
      channelType: number;
    };
    const inspect = async (b: string): Promise<Record<string, Inspection>> =>
      Object.fromEntries(
        ((await call(b, 'GET', '/__mock/tasks')).body.tasks as Inspection[]).map((t) => [t.id, t]),
      );
    const view = async (b: string) =>
      Promise.all(
        tasks.map(
          async ({ id, key }) =>
            (await call(b, 'GET', `/v1/videos/${id}`, key)).body as {
              id: string;
              status: string;
              progress: number;
              created_at: number;
            },
        ),
      );
    const beforeInspect = await inspect(base);
    const beforeView = await view(base);
    const clockBefore = (await call(base, 'GET', '/__mock/clock')).body.now as number;
    expect(beforeView.find((t) => t.id === queued)!.status).toBe('queued');

    expect(seen.at(-1)?.status).toBe('in_progress');
    a.child.kill('SIGTERM');
    expect(await exitCode(a, 8_000)).toBe(0);
    const down = Date.now();
    const saved = readStateFile(file)!;
    expect(saved.tasks.size).toBe(tasks.length);
    expect(saved.clock).toBeGreaterThanOrEqual(clockBefore);

    const port = new URL(base).port;
    const b = spawnMock('--state', file, '--port', port, '--speed', String(SPEED));
    const base2 = await listening(b, BANNER_END);
    const up = Date.now();
    expect(base2).toBe(base);
    expect(b.stdout()).toMatch(/restored 5 tasks, clock [^,]+, start 2\)/);

    // The clock continued from where it stopped: neither from the real time nor counting the downtime.
    const clockAfter = (await call(base, 'GET', '/__mock/clock')).body.now as number;
    expect(clockAfter).toBeGreaterThanOrEqual(saved.clock);
    expect(clockAfter - saved.clock).toBeLessThan((Date.now() - up + 500) * SPEED);
    expect(up - down).toBeGreaterThan(0);

    const afterInspect = await inspect(base);
    const afterView = await view(base);
    for (const [i, { id }] of tasks.entries()) {
      const was = beforeView[i]!;
      const is = afterView[i]!;
      expect(is.id).toBe(id);
      expect(is.created_at).toBe(was.created_at);
      expect(ORDER.indexOf(is.status)).toBeGreaterThanOrEqual(ORDER.indexOf(was.status));
      if (is.status === was.status) expect(is.progress).toBeGreaterThanOrEqual(was.progress);
      const { owner, createdAt, plan, channelType } = beforeInspect[id]!;
      expect(afterInspect[id]).toMatchObject({ owner, createdAt, plan, channelType });
    }
    // The slow task was queued and continues from there (its plan and creation time are kept), not from zero.
    expect(afterInspect[queued]!.plan.scenario).toBe('slow');
    expect(afterInspect[polled]!.plan.scenario).toBe('forced:succeed');

    // Owner isolation (§5) and the binding survived.
    expect((await call(base, 'GET', `/v1/videos/${polled}`, 'sk-mock-bob')).status).toBe(404);
    expect((await call(base, 'GET', `/v1/videos/${tasks[3]!.id}`, 'sk-mock-alice')).status).toBe(
      404,
    );
    expect((await call(base, 'GET', '/__mock/family')).body.bound).toBe(true);
    expect(afterInspect[vip]!.channelType).toBe(61);
    const fresh = await submit(base, 'sk-mock-vip', { model: 'alt-video-v2', prompt: 'again' });
    expect(tasks.map((t) => t.id)).not.toContain(fresh);

    const { task } = await polling;
    expect(task).toMatchObject({ id: polled, status: 'completed', progress: 100 });
    // It kept polling after the restart (through the refused connections meanwhile) and saw the end there.
    expect(seen.filter((s) => s.at >= up).map((s) => s.status)).toContain('in_progress');
    expect(seen.at(-1)!.at).toBeGreaterThanOrEqual(up);

    b.child.kill('SIGTERM');
    expect(await exitCode(b, 8_000)).toBe(0);
  });

  it('after kill -9 keeps every task submitted more than ~1.2 s before, and ignores a torn last line', async () => {
    const file = join(dir, 'kill9.state');
    const a = spawnMock('--state', file, '--port', '0', '--speed', String(SPEED));
    const base = await listening(a, BANNER_END);
    const keys = ['sk-mock-alice', 'sk-mock-bob', 'sk-mock-vip'];
    const burst = (n: number, at = base) =>
      Promise.all(
        Array.from({ length: n }, (_, i) =>
          submit(at, keys[i % 3]!, undefined, i % 4 === 0 ? 'stuck' : undefined).then((id) => ({
            id,
            key: keys[i % 3]!,
          })),
        ),
      );
    const early = await burst(60);
    const earlyDone = Date.now();
    await sleep(1_300);
    const late = await burst(60);
    a.child.kill('SIGKILL');
    await a.exited;
    expect(Date.now() - earlyDone).toBeGreaterThan(1_200);
    appendFileSync(file, '{"task":{"id":"task_torn'); // as if the crash had cut a write short

    const b = spawnMock('--state', file, '--port', '0', '--speed', String(SPEED));
    const base2 = await listening(b, BANNER_END);
    expect(b.stdout()).toMatch(/ignored a torn last line/);
    for (const { id, key } of early)
      expect((await call(base2, 'GET', `/v1/video/generations/${id}`, key)).status).toBe(200);
    const kept = (
      await Promise.all(late.map(({ id, key }) => call(base2, 'GET', `/v1/videos/${id}`, key)))
    ).filter((r) => r.status === 200).length;
    expect(kept).toBeGreaterThanOrEqual(0); // the last second may be lost
    const health = (await call(base2, 'GET', '/__mock/health')).body as { tasks: number };
    expect(health.tasks).toBe(early.length + kept);
    const more = await burst(10, base2);
    const all = new Set([...early, ...late, ...more].map((t) => t.id));
    expect(all.size).toBe(early.length + late.length + more.length); // never a repeated ID

    b.child.kill('SIGTERM');
    expect(await exitCode(b, 8_000)).toBe(0);
    expect(readStateFile(file)!.tasks.size).toBe(early.length + kept + more.length);
  });

  it('exits 2 naming the file and the line when the state file is corrupt, and leaves it alone', async () => {
    const file = join(dir, 'corrupt.state');
    const text =
      '{"format":"videotask-mock-state","version":1,"seed":1,"starts":1,"clock":0,"familyBound":false,"rows":0}\n{"task":\n{"clock":1}\n';
    writeFileSync(file, text);
    const mock = spawnMock('--state', file, '--port', '0');
    expect(await exitCode(mock, 15_000)).toBe(2);
    expect(mock.stderr()).toContain(`state file ${file}, line 2: not JSON`);
    expect(mock.stdout()).not.toMatch(LISTENING);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});
