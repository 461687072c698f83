import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { JournalEntry } from '../../src/client/journal.ts';
import { FileJournal } from '../../src/node/file-journal.ts';

export const ENDPOINT = '/v1/video/generations';

/** A clock that starts at 2026-11-22T00:00:00Z and moves one second per reading. */
const clock = (): (() => Date) => {
  let t = Date.UTC(2026, 10, 22);
  return () => new Date((t += 1000));
};

/** A `submitting` entry of `video-pro-v1` through the generations endpoint. */
export const submitting = (clientRequestId: string): JournalEntry => ({
  type: 'submitting',
  clientRequestId,
  model: 'video-pro-v1',
  endpoint: ENDPOINT,
});

/** One submission, accepted as task_1. */
export const two: JournalEntry[] = [
  submitting('r1'),
  { type: 'submitted', clientRequestId: 'r1', taskId: 'task_1', model: 'video-pro-v1' },
];

/** A final entry as the journal writes it, one second after the others. */
export const COMPLETED_LINE = JSON.stringify({
  type: 'final',
  at: '2026-11-22T00:00:09.000Z',
  taskId: 'task_1',
  status: 'completed',
});

export interface JournalFixture {
  /** A fresh directory per test. */
  readonly dir: () => string;
  /** `journal.jsonl` in it. */
  readonly file: () => string;
  /** Opens the journal on the test clock, runs `use`, and closes it whatever happens. */
  readonly withJournal: <T>(use: (journal: FileJournal) => Promise<T>) => Promise<T>;
  /** Appends `entries` in order and closes the journal. */
  readonly write: (entries: readonly JournalEntry[]) => Promise<void>;
}

/** Registers the hooks of one test file: a fresh journal file per test, removed after it. */
export function journalFixture(): JournalFixture {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'videotask-journal-'));
    file = join(dir, 'journal.jsonl');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));
  const withJournal = async <T>(use: (journal: FileJournal) => Promise<T>): Promise<T> => {
    const journal = new FileJournal(file, { now: clock() });
    try {
      return await use(journal);
    } finally {
      await journal.close();
    }
  };
  return {
    dir: () => dir,
    file: () => file,
    withJournal,
    write: (entries) =>
      withJournal(async (journal) => {
        for (const entry of entries) await journal.append(entry);
      }),
  };
}
