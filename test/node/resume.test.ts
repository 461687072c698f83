import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../src/client/errors.ts';
import { FileJournal } from '../../src/node/file-journal.ts';
import type { GetTask } from '../../src/client/poller.ts';
import { resumeJournal } from '../../src/node/resume.ts';
import { mockSource } from '../client/mock-source.ts';

const ENDPOINT = '/v1/video/generations';
const MODEL = 'video-pro-v1';

let dir: string;
let journal: FileJournal;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'videotask-resume-'));
  journal = new FileJournal(join(dir, 'journal.jsonl'));
});
afterEach(async () => {
  await journal.close();
  await rm(dir, { recursive: true, force: true });
});

/** Journals a submission the way the CLI does: `submitting`, then `submitted` with the task ID. */
async function journaled(clientRequestId: string, taskId: string): Promise<void> {
  await journal.append({ type: 'submitting', clientRequestId, model: MODEL, endpoint: ENDPOINT });
  await journal.append({ type: 'submitted', clientRequestId, taskId, model: MODEL });
}

describe('resumeJournal against the in-process mock', () => {
  it(
    'polls only the active tasks to their end, appends finals, flags unknown ' +
      'submissions, creates nothing',
    async () => {
      const source = mockSource();
      const succeeding = source.submit(undefined, 'req-ok');
      const failing = source.submit('fail:GenerationTimeout', 'req-fail');
      const done = source.submit(undefined, 'req-done');
      await journaled('req-ok', succeeding);
      await journaled('req-fail', failing);
      await journaled('req-done', done);
      await journal.append({ type: 'final', taskId: done, status: 'completed' });
      await journal.append({
        type: 'submitting',
        clientRequestId: 'req-unconfirmed',
        model: MODEL,
        endpoint: ENDPOINT,
      });
      await journal.append({
        type: 'unconfirmed',
        clientRequestId: 'req-unconfirmed',
        reason: 'RequestTimeoutError: no answer within 30 s',
      });
      await journal.append({
        type: 'submitting',
        clientRequestId: 'req-crashed',
        model: MODEL,
        endpoint: ENDPOINT,
      });
      await journal.append({
        type: 'submitting',
        clientRequestId: 'req-refused',
        model: MODEL,
        endpoint: ENDPOINT,
      });
      await journal.append({
        type: 'refused',
        clientRequestId: 'req-refused',
        status: 400,
        code: 'invalid_request',
      });

      const tasksBefore = source.service.store.size;
      const submissionsBefore = new Map(source.service.submissionsByClientRequestId);
      const queried = new Set<string>();
      const getTask: GetTask = (id, signal) => (queried.add(id), source.getTask(id, signal));

      const summary = await resumeJournal(
        journal,
        getTask,
        { sleep: source.sleep, now: source.now },
        { concurrency: 2 },
      );

      expect(queried).toEqual(new Set([succeeding, failing]));
      expect(summary.results.map((r) => [r.clientRequestId, r.taskId, r.outcome])).toEqual([
        ['req-ok', succeeding, 'completed'],
        ['req-fail', failing, 'failed'],
      ]);
      expect(summary.results[1]).toMatchObject({
        errorCode: 'GenerationTimeout',
        task: { status: 'failed', error: { code: 'GenerationTimeout' } },
      });
      expect(summary.needsCheck.map((c) => [c.record.clientRequestId, c.record.state])).toEqual([
        ['req-unconfirmed', 'unconfirmed'],
        ['req-crashed', 'submitting'],
      ]);
      for (const check of summary.needsCheck)
        expect(check.message).toMatch(
          new RegExp(
            `${check.record.clientRequestId}.*not resubmitted.*own records or with the service.s administrator`,
          ),
        );
      expect(summary.settled).toBe(2);

      const after = await journal.read();
      expect(after.records.map((r) => [r.clientRequestId, r.state, r.errorCode])).toEqual([
        ['req-ok', 'completed', undefined],
        ['req-fail', 'failed', 'GenerationTimeout'],
        ['req-done', 'completed', undefined],
        ['req-unconfirmed', 'unconfirmed', undefined],
        ['req-crashed', 'submitting', undefined],
        ['req-refused', 'refused', 'invalid_request'],
      ]);
      expect(source.service.store.size).toBe(tasksBefore);
      expect(source.service.submissionsByClientRequestId).toEqual(submissionsBefore);

      // A second resume has nothing left to poll.
      queried.clear();
      expect(
        (await resumeJournal(journal, getTask, { sleep: source.sleep, now: source.now })).results,
      ).toEqual([]);
      expect(queried.size).toBe(0);
    },
  );

  it(
    'reports a task still running at the timeout, or one the service no ' +
      'longer knows, without writing a final',
    async () => {
      const source = mockSource();
      const stuck = source.submit('stuck');
      await journaled('req-stuck', stuck);
      await journaled('req-gone', 'task_does_not_exist');
      const summary = await resumeJournal(journal, source.getTask, {
        sleep: source.sleep,
        now: source.now,
        maxAttempts: 5,
      });
      expect(summary.results).toEqual([
        expect.objectContaining({
          clientRequestId: 'req-stuck',
          outcome: 'timed-out',
          lastStatus: 'in_progress',
        }),
        expect.objectContaining({
          clientRequestId: 'req-gone',
          outcome: 'error',
          error: expect.any(NotFoundError) as unknown,
        }),
      ]);
      expect((await journal.read()).records.map((r) => r.state)).toEqual(['active', 'active']);
      expect(source.service.store.size).toBe(1);
    },
  );

  it('refuses a bad concurrency up front', async () => {
    await expect(
      resumeJournal(journal, mockSource().getTask, {}, { concurrency: 0 }),
    ).rejects.toThrow(/concurrency/);
  });
});
