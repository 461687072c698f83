import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * A file appended to line by line with plain `write(2)`s (in the kernel once written: a kill -9 of
 * the process loses nothing), fsync'd when a caller needs the lines to survive the machine too.
 */
export class JournalFile {
  #fd: number | undefined;
  #size = 0;
  /** While a compaction copies the state, the lines appended meanwhile (it adds them to its copy). */
  capture: string[] | undefined;
  /** Lines the file holds (set when opened on an existing file or rewritten; counted on appends). */
  lines = 0;

  constructor(readonly path: string) {}

  /** Opens it for appending (created, readable by its owner only, if missing). */
  open(): void {
    this.close();
    this.#fd = openSync(this.path, 'a', 0o600);
    this.#size = fstatSync(this.#fd).size;
  }

  get size(): number {
    return this.#size;
  }

  /** Cuts the file back to `size` bytes (a torn last line). */
  truncate(size: number): void {
    ftruncateSync(this.#fd!, size);
    this.#size = size;
  }

  /** Appends lines (each without its newline); fsyncs when `durable`. On failure nothing is left half-written. */
  append(lines: readonly string[], durable: boolean): void {
    if (this.#fd === undefined) this.open();
    const fd = this.#fd!;
    const bytes = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
    try {
      for (let offset = 0; offset < bytes.length;)
        offset += writeSync(fd, bytes, offset, bytes.length - offset, this.#size + offset);
      if (durable) fsyncSync(fd);
    } catch (error) {
      try {
        ftruncateSync(fd, this.#size);
      } catch {
        // the next start sees a torn last line, which it ignores
      }
      throw error;
    }
    this.#size += bytes.length;
    this.lines += lines.length;
    this.capture?.push(...lines);
  }

  sync(): void {
    if (this.#fd !== undefined) fsyncSync(this.#fd);
  }

  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }
}

/** Makes a new or renamed entry of a directory durable. Not every platform can open one: skipped there. */
export function syncDirectoryOf(file: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dirname(file), 'r');
    fsyncSync(fd);
  } catch {
    // Windows and some file systems refuse: the rename is still atomic, only its durability is the OS's.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
