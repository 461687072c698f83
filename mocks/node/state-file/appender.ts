import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync } from 'node:fs';
import { writeAllSync } from '../../../src/node/atomic-file.ts';

/**
 * The state file's appender: the file appended to line by line with plain `write(2)`s (in the kernel
 * once written: a kill -9 of the process loses nothing), fsync'd when a caller needs the lines to
 * survive the machine too. (The client's task journal is another thing: src/node/file-journal.ts.)
 */
export class StateFileAppender {
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
      writeAllSync(fd, bytes, this.#size);
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
