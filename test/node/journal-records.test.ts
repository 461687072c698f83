import { readFile, stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { JournalError } from '../../src/client/errors.ts';
import type { JournalEntry } from '../../src/client/journal.ts';
import { FileJournal } from '../../src/node/file-journal.ts';
import { ENDPOINT, journalFixture, submitting, two } from './journal-fixture.ts';

const { dir, file, withJournal, write } = journalFixture();

/** The journal's lines, each parsed. */
async function lines<T>(): Promise<T[]> {
  const text = await readFile(file(), 'utf8');
  return text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as T);
}

describe('FileJournal records', () => {
  it('round-trips every entry type into one record per client request ID', async () => {
    const entries: JournalEntry[] = [
      ...two,
      { type: 'submitting', clientRequestId: 'r2', model: 'video-lite-v1', endpoint: '/v1/videos' },
      {
        type: 'unconfirmed',
        clientRequestId: 'r2',
        reason: 'RequestTimeoutError: no answer within 30 s',
      },
      submitting('r3'),
      {
        type: 'refused',
        clientRequestId: 'r3',
        status: 400,
        code: 'invalid_request',
        message: 'prompt is empty',
      },
      submitting('r4'),
      { type: 'submitted', clientRequestId: 'r4', taskId: 'task_4', model: 'video-pro-v1' },
      { type: 'final', taskId: 'task_4', status: 'failed', errorCode: 'GenerationTimeout' },
      { type: 'final', taskId: 'task_1', status: 'completed' },
      submitting('r5'),
    ];
    const state = await withJournal(async (journal) => {
      for (const entry of entries) await journal.append(entry);
      return journal.read();
    });
    expect(state.tornTail).toBe(false);
    expect(state.records.map((r) => [r.clientRequestId, r.state, r.taskId, r.errorCode])).toEqual([
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
    const written = await lines<{ at: string }>();
    expect(written).toHaveLength(11);
    for (const line of written) expect(new Date(line.at).toISOString()).toBe(line.at);
  });

  it('never stores an API key: only the listed fields are written, free text is redacted', async () => {
    await write([
      {
        ...two[0]!,
        apiKey: 'sk-live-0123456789abcdef',
        authorization: 'Bearer sk-live-0123456789abcdef',
      } as unknown as JournalEntry,
      {
        type: 'unconfirmed',
        clientRequestId: 'r1',
        reason: 'proxy echoed Authorization: Bearer sk-live-0123456789abcdef',
      },
    ]);
    expect(await readFile(file(), 'utf8')).not.toContain('0123456789abcdef');
    const keys = (await lines<object>()).flatMap((l) => Object.keys(l));
    expect(new Set(keys)).toEqual(
      new Set(['type', 'at', 'clientRequestId', 'model', 'endpoint', 'reason']),
    );
  });

  it('lands 100 concurrent appends whole and in call order', async () => {
    const requestIds = Array.from({ length: 100 }, (_, i) => `r${i}`);
    const state = await withJournal(async (journal) => {
      await Promise.all(requestIds.map((id) => journal.append(submitting(id))));
      return journal.read();
    });
    expect(state.records.map((r) => r.clientRequestId)).toEqual(requestIds);
    expect((await readFile(file(), 'utf8')).split('\n')).toHaveLength(101);
  });

  it(
    'creates the file with mode 0600, reads a missing file as empty, refuses bad entries and ' +
      'appends after close',
    async () => {
      const journal = new FileJournal(file());
      expect(await journal.read()).toEqual({
        records: [],
        tornTail: false,
        terminatedFragments: [],
        orphans: [],
      });
      await journal.append(two[0]!);
      expect((await stat(file())).mode & 0o777).toBe(0o600);
      const notFinal = { type: 'final', taskId: 'task_1', status: 'queued' };
      await expect(journal.append(notFinal as unknown as JournalEntry)).rejects.toThrow(RangeError);
      await journal.close();
      await expect(journal.append(two[1]!)).rejects.toThrow(/closed/);
    },
  );

  it('throws JournalError, not EISDIR, for a directory, on read and on append', async () => {
    const journal = new FileJournal(dir());
    await expect(journal.read()).rejects.toThrow(
      new JournalError(`Task journal ${dir()} is a directory, not a journal file`, dir()),
    );
    await expect(journal.append(two[0]!)).rejects.toBeInstanceOf(JournalError);
    await journal.close();
  });
});
