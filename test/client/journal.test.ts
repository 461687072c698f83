import { spawn } from 'node:child_process';
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileJournal, type JournalEntry } from '../../src/client/journal.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const WRITER = fileURLToPath(new URL('../fixtures/journal-writer.ts', import.meta.url));
const ENDPOINT = '/v1/video/generations';
const clock = (): (() => Date) => {
  let t = Date.UTC(2026, 10, 22);
  return () => new Date((t += 1000));
};

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'videotask-journal-'));
  file = join(dir, 'journal.jsonl');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function withJournal<T>(use: (journal: FileJournal) => Promise<T>): Promise<T> {
  const journal = new FileJournal(file, { now: clock() });
  try {
    return await use(journal);
  } finally {
    await journal.close();
  }
}

const two: JournalEntry[] = [
  { type: 'submitting', requestId: 'r1', model: 'video-pro-v1', endpoint: ENDPOINT },
  { type: 'submitted', requestId: 'r1', taskId: 'task_1', model: 'video-pro-v1' },
];

describe('FileJournal', () => {
  it('round-trips every entry type into one record per request ID', async () => {
    const state = await withJournal(async (journal) => {
      for (const entry of [
        ...two,
        { type: 'submitting', requestId: 'r2', model: 'video-lite-v1', endpoint: '/v1/videos' },
        {
          type: 'unconfirmed',
          requestId: 'r2',
          reason: 'RequestTimeoutError: no answer within 30 s',
        },
        { type: 'submitting', requestId: 'r3', model: 'video-pro-v1', endpoint: ENDPOINT },
        {
          type: 'refused',
          requestId: 'r3',
          status: 400,
          code: 'invalid_request',
          message: 'prompt is empty',
        },
        { type: 'submitting', requestId: 'r4', model: 'video-pro-v1', endpoint: ENDPOINT },
        { type: 'submitted', requestId: 'r4', taskId: 'task_4', model: 'video-pro-v1' },
        { type: 'final', taskId: 'task_4', status: 'failed', errorCode: 'GenerationTimeout' },
        { type: 'final', taskId: 'task_1', status: 'completed' },
        { type: 'submitting', requestId: 'r5', model: 'video-pro-v1', endpoint: ENDPOINT },
      ] satisfies JournalEntry[])
        await journal.append(entry);
      return journal.read();
    });
    expect(state.tornTail).toBe(false);
    expect(state.records.map((r) => [r.requestId, r.state, r.taskId, r.errorCode])).toEqual([
      ['r1', 'completed', 'task_1', undefined],
      ['r2', 'unconfirmed', undefined, undefined],
      ['r3', 'refused', undefined, 'invalid_request'],
      ['r4', 'failed', 'task_4', 'GenerationTimeout'],
      ['r5', 'submitting', undefined, undefined],
    ]);
    expect(state.records[0]).toMatchObject({
      model: 'video-pro-v1',
      endpoint: ENDPOINT,
      submittedAt: '2026-11-22T00:00:01.000Z',
    });
    const lines = (await readFile(file, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { at: string });
    expect(lines).toHaveLength(11);
    for (const line of lines) expect(new Date(line.at).toISOString()).toBe(line.at);
  });

  it('never stores an API key: only the listed fields are written, free text is redacted', async () => {
    await withJournal(async (journal) => {
      await journal.append({
        ...two[0]!,
        apiKey: 'sk-live-0123456789abcdef',
        authorization: 'Bearer sk-live-0123456789abcdef',
      } as unknown as JournalEntry);
      await journal.append({
        type: 'unconfirmed',
        requestId: 'r1',
        reason: 'proxy echoed Authorization: Bearer sk-live-0123456789abcdef',
      });
    });
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('0123456789abcdef');
    const keys = text
      .trimEnd()
      .split('\n')
      .flatMap((l) => Object.keys(JSON.parse(l) as object));
    expect(new Set(keys)).toEqual(
      new Set(['type', 'at', 'requestId', 'model', 'endpoint', 'reason']),
    );
  });

  it('ignores and reports a torn last line (half a line, no newline), keeping everything before it', async () => {
    await withJournal(async (journal) => {
      for (const entry of two) await journal.append(entry);
    });
    await appendFile(
      file,
      '{"type":"final","at":"2026-11-22T00:00:09.000Z","taskId":"task_1","sta',
    );
    const state = await withJournal((journal) => journal.read());
    expect(state.tornTail).toBe(true);
    expect(state.records).toEqual([
      expect.objectContaining({ requestId: 'r1', state: 'active', taskId: 'task_1' }),
    ]);
  });

  it.each([
    [
      'a complete-looking line without its newline',
      '{"type":"final","at":"2026-11-22T00:00:09.000Z","taskId":"task_1","status":"completed"}',
    ],
    ['an unparsable last line (zeros after a crash)', '\0\0\0\0\n'],
  ])('treats %s as a torn tail', async (_name, tail) => {
    await withJournal(async (journal) => {
      for (const entry of two) await journal.append(entry);
    });
    await appendFile(file, tail);
    const state = await withJournal((journal) => journal.read());
    expect(state).toMatchObject({
      tornTail: true,
      records: [{ requestId: 'r1', state: 'active' }],
    });
  });

  it('terminates a torn fragment before the next append, so nothing is glued to it', async () => {
    await withJournal(async (journal) => {
      for (const entry of two) await journal.append(entry);
    });
    await appendFile(
      file,
      '{"type":"final","at":"2026-11-22T00:00:09.000Z","taskId":"task_1","status":"completed"}',
    );
    const state = await withJournal(async (journal) => {
      await journal.append({
        type: 'submitting',
        requestId: 'r2',
        model: 'video-pro-v1',
        endpoint: ENDPOINT,
      });
      return journal.read();
    });
    expect(state).toMatchObject({ tornTail: false, terminatedFragments: [3] });
    // The fragment never counted (its append never resolved), before or after the repair.
    expect(state.records.map((r) => [r.requestId, r.state])).toEqual([
      ['r1', 'active'],
      ['r2', 'submitting'],
    ]);
    const lines = (await readFile(file, 'utf8')).split('\n');
    expect(lines[2]).toMatch(/"status":"completed"}$/);
    expect(JSON.parse(lines[3]!)).toMatchObject({ type: 'torn', line: 3 });
    expect(JSON.parse(lines[4]!)).toMatchObject({ type: 'submitting', requestId: 'r2' });
  });

  it('throws naming the file and line when a line in the middle is damaged', async () => {
    await writeFile(
      file,
      [
        '{"type":"submitting","at":"2026-11-22T00:00:01.000Z","requestId":"r1","model":"m","endpoint":"/v1/videos"}',
        'garbage',
        '{"type":"submitted","at":"2026-11-22T00:00:02.000Z","requestId":"r1","taskId":"t1","model":"m"}',
        '',
      ].join('\n'),
    );
    await expect(withJournal((journal) => journal.read())).rejects.toThrow(
      `Task journal ${file} is damaged at line 2`,
    );
  });

  it('lands 100 concurrent appends whole and in call order', async () => {
    const state = await withJournal(async (journal) => {
      await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          journal.append({
            type: 'submitting',
            requestId: `r${i}`,
            model: 'video-pro-v1',
            endpoint: ENDPOINT,
          }),
        ),
      );
      return journal.read();
    });
    expect(state.records.map((r) => r.requestId)).toEqual(
      Array.from({ length: 100 }, (_, i) => `r${i}`),
    );
    expect((await readFile(file, 'utf8')).split('\n')).toHaveLength(101);
  });

  it('creates the file with mode 0600, reads a missing file as empty, refuses bad entries and appends after close', async () => {
    const journal = new FileJournal(file);
    expect(await journal.read()).toEqual({
      records: [],
      tornTail: false,
      terminatedFragments: [],
      orphans: [],
    });
    await journal.append(two[0]!);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await expect(
      journal.append({
        type: 'final',
        taskId: 'task_1',
        status: 'queued',
      } as unknown as JournalEntry),
    ).rejects.toThrow(RangeError);
    await journal.close();
    await expect(journal.append(two[1]!)).rejects.toThrow(/closed/);
  });

  it('survives a real kill -9: every append that resolved is there, and the file reads', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, file], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('close', (_code, signal) => resolve(signal)),
    );
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (out === '') setTimeout(() => (child.kill('SIGKILL'), resolve()), 200);
        out += chunk.toString();
      });
      child.on('close', () => reject(new Error(`writer exited before it was killed: ${err}`)));
    });
    expect(await exited).toBe('SIGKILL');
    const confirmed = out
      .split('\n')
      .filter((l) => /^\d+$/.test(l))
      .map(Number);
    expect(confirmed.length).toBeGreaterThan(0);
    const state = await withJournal((journal) => journal.read());
    const ids = new Set(state.records.map((r) => r.requestId));
    for (const i of confirmed)
      expect(ids.has(`req-${i}`), `req-${i} resolved but is missing`).toBe(true);
    // At most the one append in flight at the kill may be there beyond the confirmed ones.
    expect(ids.size - confirmed.length).toBeLessThanOrEqual(1);
  });
});
