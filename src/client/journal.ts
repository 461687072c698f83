import type { JournalEntry } from './journal-entries.ts';
import type { JournalState } from './journal-state.ts';

export type { JournalEntry, StoredEntry } from './journal-entries.ts';
export type { JournalRecord, JournalState, RecordState } from './journal-state.ts';

/**
 * The client's own records (§8: "Clients persist the task ID, submission time, model, their own
 * request ID and final status so that polling survives a restart"), which is also where an
 * unconfirmed submission is checked (§7). Append-only; never holds an API key. `FileJournal` of
 * `videotask/node` keeps one in a JSON-lines file; a page can keep one wherever it stores data.
 */
export interface TaskJournal {
  /** Resolves once the entry is durable. */
  append(entry: JournalEntry): Promise<void>;
  read(): Promise<JournalState>;
  close(): Promise<void>;
}
