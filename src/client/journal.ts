import { open, readFile, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { JournalError } from './errors.ts';
import { entryLine, type JournalEntry } from './journal-entries.ts';
import { foldJournal, scanJournal, type JournalState } from './journal-state.ts';

export type { JournalEntry, StoredEntry } from './journal-entries.ts';
export type { JournalRecord, JournalState, RecordState } from './journal-state.ts';

/**
 * The client's own records (§8: "Clients persist the task ID, submission time, model, their own
 * request ID and final status so that polling survives a restart"), which is also where an
 * unconfirmed submission is checked (§7). Append-only; never holds an API key.
 */
export interface TaskJournal {
  /** Resolves once the entry is durable (written and fsync'd). */
  append(entry: JournalEntry): Promise<void>;
  read(): Promise<JournalState>;
  close(): Promise<void>;
}

export interface FileJournalOptions {
  /** ISO time source for `at`. Default: the real time. */
  readonly now?: () => Date;
}

/**
 * A `TaskJournal` in a JSON-lines file, created with mode 0600 if missing. Each append is one
 * `write` of the whole line followed by `FileHandle.sync()`, and appends are serialized, so a
 * `kill -9` can at worst leave the last line torn (without its newline). `read()` ignores and reports
 * such a tail (`tornTail`), loses nothing before it, and throws `JournalError` naming the line if a
 * complete line (the last one included) is damaged. A missing file reads as empty; a directory throws.
 * The first append after a torn tail terminates the fragment with a newline and a `torn` marker
 * entry (one write together with the new entry), so the next entry is never glued to it and later
 * reads skip it. One writer per file. Limit: if that repair write is itself torn (power loss, not
 * `kill -9`), the old fragment is left unmarked mid-file and `read()` throws naming its line.
 *
 * @example
 * const journal = new FileJournal('videotask-journal.jsonl');
 * await journal.append({ type: 'submitting', requestId, model: 'video-pro-v1', endpoint: '/v1/video/generations' });
 * const { records } = await journal.read();
 * await journal.close();
 */
export class FileJournal implements TaskJournal {
  readonly #now: () => Date;
  #handle: Promise<FileHandle> | undefined;
  #chain: Promise<void> = Promise.resolve();
  /** The file's tail must be checked (and a torn fragment terminated) before the next write. */
  #checkTail = true;
  #closed = false;

  constructor(
    readonly path: string,
    options: FileJournalOptions = {},
  ) {
    if (typeof path !== 'string' || path === '')
      throw new RangeError('path must be a non-empty string');
    this.#now = options.now ?? (() => new Date());
  }

  append(entry: JournalEntry): Promise<void> {
    if ((entry as { type?: unknown } | undefined)?.type === 'torn')
      return Promise.reject(
        new RangeError('A "torn" marker is written by the journal itself, not appended'),
      );
    if (this.#closed) return Promise.reject(new Error(`Task journal ${this.path} is closed`));
    let line: string;
    try {
      line = entryLine(entry, this.#now().toISOString());
    } catch (error) {
      return Promise.reject(error);
    }
    const done = this.#chain.then(() => this.#write(line));
    this.#chain = done.catch(() => undefined);
    return done;
  }

  async read(): Promise<JournalState> {
    await this.#chain;
    return foldJournal(scanJournal(await readText(this.path)), this.path);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#chain;
    const handle = this.#handle;
    this.#handle = undefined;
    if (handle !== undefined) await (await handle).close();
  }

  async #write(line: string): Promise<void> {
    if (this.#handle === undefined) {
      const opening = openForAppend(this.path);
      this.#handle = opening;
      // A failed open is retried by the next append rather than remembered.
      opening.catch(() => {
        if (this.#handle === opening) this.#handle = undefined;
      });
    }
    const handle = await this.#handle;
    let text = line;
    if (this.#checkTail) {
      const scan = scanJournal(await readText(this.path));
      if (scan.tornLine !== undefined) {
        const torn = entryLine({ type: 'torn', line: scan.tornLine }, this.#now().toISOString());
        text = `${scan.missingNewline ? '\n' : ''}${torn}${line}`;
      }
    }
    try {
      const bytes = Buffer.from(text, 'utf8');
      let written = 0;
      // One write in practice; a short write (disk full) continues where it stopped.
      while (written < bytes.length)
        written += (await handle.write(bytes, written, bytes.length - written)).bytesWritten;
      await handle.sync();
      this.#checkTail = false;
    } catch (error) {
      this.#checkTail = true;
      throw error;
    }
  }
}

async function openForAppend(path: string): Promise<FileHandle> {
  const existed = await stat(path).then(
    () => true,
    () => false,
  );
  const handle = await open(path, 'a', 0o600).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EISDIR') throw error;
    throw new JournalError(`Task journal ${path} is a directory, not a journal file`, path);
  });
  if (!existed) await syncDirectory(dirname(path));
  return handle;
}

/** Makes a new file's directory entry durable too (best effort: not every platform can open a directory). */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Windows and some file systems refuse; the file's own data is still fsync'd.
  }
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return '';
    if (code === 'EISDIR')
      throw new JournalError(`Task journal ${path} is a directory, not a journal file`, path);
    throw error;
  }
}
