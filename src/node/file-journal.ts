import { isUtf8 } from 'node:buffer';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { JournalError } from '../client/errors.ts';
import { entryLine, type JournalEntry } from '../client/journal-entries.ts';
import { foldJournal, scanJournal, type JournalState } from '../client/journal-state.ts';
import type { TaskJournal } from '../client/journal.ts';
import { syncDirectory } from './atomic-file.ts';
import { APPEND_WITHOUT_WAITING, READ_WITHOUT_WAITING, notRegularFile } from './file-kind.ts';

/**
 * The most a journal file may hold: 256 MiB (some 300,000 submissions at their four entries). A bigger
 * one is refused unread (`JournalError`): it is not a journal this library wrote, or it is time for a
 * new one. Anything but a regular file (a FIFO, `/dev/zero`) is refused likewise (issue 24 item 13).
 */
export const MAX_JOURNAL_BYTES = 256 * 2 ** 20;

export interface FileJournalOptions {
  /** ISO time source for `at`. Default: the real time. */
  readonly now?: () => Date;
}

/**
 * A `TaskJournal` in a JSON-lines file (Node only), created with mode 0600 if missing. Each append is one
 * `write` of the whole line followed by `FileHandle.sync()`, and appends are serialized, so a
 * `kill -9` can at worst leave the last line torn (without its newline). `read()` ignores and reports
 * such a tail (`tornTail`), loses nothing before it, and throws `JournalError` naming the line if a
 * complete line (the last one included) is damaged. A missing file reads as empty; a directory throws.
 * The first append after a torn tail terminates the fragment with a newline and a `torn` marker
 * entry (one write together with the new entry), so the next entry is never glued to it and later
 * reads skip it. One writer per file. Limit: if that repair write is itself torn (power loss, not
 * `kill -9`), the old fragment is left unmarked mid-file and `read()` throws naming its line. A line
 * whose bytes are not UTF-8 is damage too (never read as U+FFFD); the file must be a regular file of at
 * most `MAX_JOURNAL_BYTES`.
 *
 * @example
 * const journal = new FileJournal('videotask-journal.jsonl');
 * const entry = { clientRequestId, model: 'video-pro-v1', endpoint: '/v1/video/generations' };
 * await journal.append({ type: 'submitting', ...entry });
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
    return foldJournal(scanJournal(...(await readJournal(this.path))), this.path);
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
      const scan = scanJournal(...(await readJournal(this.path)));
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
  const handle = await open(path, APPEND_WITHOUT_WAITING, 0o600).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EISDIR') throw notAJournal(path, 'a directory');
      if (error.code === 'ENXIO') throw notAJournal(path, 'a FIFO (named pipe)'); // with no reader
      throw error;
    },
  );
  const kind = notRegularFile(await handle.stat());
  if (kind !== undefined) {
    await handle.close();
    throw notAJournal(path, kind);
  }
  if (!existed) await syncDirectory(dirname(path));
  return handle;
}

/**
 * A journal's text and the complete lines whose bytes are not UTF-8 (1-based): a missing file is empty;
 * anything but a regular file, or one over `MAX_JOURNAL_BYTES`, throws `JournalError` unread.
 */
async function readJournal(path: string): Promise<[text: string, undecodable: Set<number>]> {
  let handle: FileHandle;
  try {
    handle = await open(path, READ_WITHOUT_WAITING);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return ['', new Set()];
    if (code === 'EISDIR') throw notAJournal(path, 'a directory');
    throw error;
  }
  try {
    const stats = await handle.stat();
    const kind = notRegularFile(stats);
    if (kind !== undefined) throw notAJournal(path, kind);
    if (stats.size > MAX_JOURNAL_BYTES)
      throw new JournalError(
        `Task journal ${path} holds ${stats.size} bytes, more than the ${MAX_JOURNAL_BYTES / 2 ** 20} MiB ` +
          'a journal may: it is not one videotask wrote, or start a new journal (keep this one aside).',
        path,
      );
    // What it held when opened: an append made meanwhile is read next time.
    const bytes = Buffer.alloc(stats.size);
    let filled = 0;
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const read = bytes.subarray(0, filled);
    return [read.toString('utf8'), undecodableLines(read)];
  } finally {
    await handle.close();
  }
}

/** The complete lines (1-based) of `bytes` that are not valid UTF-8: one native pass when all are. */
function undecodableLines(bytes: Buffer): Set<number> {
  const lines = new Set<number>();
  if (isUtf8(bytes)) return lines;
  for (let start = 0, line = 1; ; line++) {
    const end = bytes.indexOf(10, start);
    if (end < 0) return lines; // the last line, without its newline, may be a torn write
    if (!isUtf8(bytes.subarray(start, end))) lines.add(line);
    start = end + 1;
  }
}

function notAJournal(path: string, kind: string): JournalError {
  return new JournalError(`Task journal ${path} is ${kind}, not a journal file`, path);
}
