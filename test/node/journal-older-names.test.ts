import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { VideoTask } from '../../src/client/index.ts';
import { resumeJournal } from '../../src/node/resume.ts';
import { fakeTime } from '../client/fake-time.ts';
import { journalFixture } from './journal-fixture.ts';

const { file, withJournal } = journalFixture();

/**
 * Journals written before the client's own request ID was named `clientRequestId` (issue 23: it was
 * `requestId`, the name the service's answer ID also had) hold it as `requestId`. They read as they
 * did, resume as they did, and take new entries under the new name.
 */
const OLDER_JOURNAL = [
  {
    type: 'submitting',
    at: '2026-11-20T10:00:00.000Z',
    requestId: 'vt-1',
    model: 'video-pro-v1',
    endpoint: 'generations',
  },
  {
    type: 'submitted',
    at: '2026-11-20T10:00:01.000Z',
    requestId: 'vt-1',
    taskId: 'task_1',
    model: 'video-pro-v1',
  },
  {
    type: 'submitting',
    at: '2026-11-20T10:00:02.000Z',
    requestId: 'vt-2',
    model: 'video-pro-v1',
    endpoint: 'videos',
  },
  {
    type: 'unconfirmed',
    at: '2026-11-20T10:00:32.000Z',
    requestId: 'vt-2',
    reason: 'RequestTimeoutError',
  },
  {
    type: 'submitting',
    at: '2026-11-20T10:00:33.000Z',
    requestId: 'vt-3',
    model: 'video-pro-v1',
    endpoint: 'videos',
  },
  {
    type: 'refused',
    at: '2026-11-20T10:00:34.000Z',
    requestId: 'vt-3',
    status: 400,
    code: 'invalid_request',
  },
]
  .map((entry) => `${JSON.stringify(entry)}\n`)
  .join('');

const completed = (id: string): Promise<VideoTask> =>
  Promise.resolve({
    id,
    object: 'video',
    model: 'video-pro-v1',
    status: 'completed',
    progress: 100,
    created_at: 1,
  });

describe('a journal written with the older name requestId', () => {
  it('reads into the same records, by client request ID', async () => {
    await writeFile(file(), OLDER_JOURNAL);
    const state = await withJournal((journal) => journal.read());
    expect(state.records.map((r) => [r.clientRequestId, r.state, r.taskId, r.errorCode])).toEqual([
      ['vt-1', 'active', 'task_1', undefined],
      ['vt-2', 'unconfirmed', undefined, undefined],
      ['vt-3', 'refused', undefined, 'invalid_request'],
    ]);
  });

  it('resumes: the active task is polled and finished under the new name, the unconfirmed one listed', async () => {
    await writeFile(file(), OLDER_JOURNAL);
    // Fake time: the poll's first wait (§8: 5 s) passes at once.
    const { sleep, now } = fakeTime();
    const summary = await withJournal((journal) =>
      resumeJournal(journal, completed, { sleep, now }),
    );
    expect(summary.results).toMatchObject([{ clientRequestId: 'vt-1', outcome: 'completed' }]);
    expect(summary.needsCheck.map((c) => c.record.clientRequestId)).toEqual(['vt-2']);
    const lines = (await readFile(file(), 'utf8')).trimEnd().split('\n');
    expect(lines.slice(0, 6).join('\n')).toBe(OLDER_JOURNAL.trimEnd());
    expect(JSON.parse(lines[6]!)).toMatchObject({
      type: 'final',
      taskId: 'task_1',
      status: 'completed',
    });
  });

  it('takes new entries under clientRequestId, and the mixed file reads whole', async () => {
    await writeFile(file(), OLDER_JOURNAL);
    const state = await withJournal(async (journal) => {
      await journal.append({
        type: 'submitting',
        clientRequestId: 'vt-4',
        model: 'video-pro-v1',
        endpoint: 'videos',
      });
      return journal.read();
    });
    expect(state.records.map((r) => r.clientRequestId)).toEqual(['vt-1', 'vt-2', 'vt-3', 'vt-4']);
    const last = (await readFile(file(), 'utf8')).trimEnd().split('\n').at(-1)!;
    expect(Object.keys(JSON.parse(last) as object)).toEqual([
      'type',
      'at',
      'clientRequestId',
      'model',
      'endpoint',
    ]);
  });
});
