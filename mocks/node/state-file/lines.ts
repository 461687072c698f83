import { isUtf8 } from 'node:buffer';
import { readSync } from 'node:fs';

/** The longest line a state file may hold (its lines are short; a longer one is damage, not data). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface FileLine {
  /** The line's text, without its newline. */
  readonly text: string;
  /** Its bytes, newline included when `complete`. */
  readonly bytes: number;
  /** It ends with a newline (the last line of a file may not). */
  readonly complete: boolean;
  /** Its bytes are valid UTF-8 (else `text` holds U+FFFD where they were not: never data). */
  readonly utf8: boolean;
}

/**
 * The lines of an open file's first `size` bytes (what it held when opened: nothing appended since is
 * read), in fixed chunks: linear in the file's size (a line's pieces are joined once, when its end is
 * found). Throws `tooLong(lineNumber)`'s error for a line over `maxLineBytes`.
 */
export function* readLines(
  fd: number,
  size: number,
  tooLong: (lineNumber: number) => Error,
  maxLineBytes = MAX_LINE_BYTES,
): Generator<FileLine> {
  const chunk = Buffer.allocUnsafe(1 << 20);
  let pieces: Buffer[] = [];
  let pending = 0;
  let lineNumber = 1;
  let position = 0;
  while (position < size) {
    const read = readSync(fd, chunk, 0, Math.min(chunk.length, size - position), position);
    if (read === 0) break;
    position += read;
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl >= 0 && nl < read; nl = chunk.indexOf(10, start)) {
      if (pending + nl - start > maxLineBytes) throw tooLong(lineNumber);
      const bytes =
        pieces.length === 0
          ? chunk.subarray(start, nl)
          : Buffer.concat([...pieces, chunk.subarray(start, nl)]);
      yield line(bytes, true);
      pieces = [];
      pending = 0;
      lineNumber++;
      start = nl + 1;
    }
    if (start < read) {
      pending += read - start;
      if (pending > maxLineBytes) throw tooLong(lineNumber);
      pieces.push(Buffer.from(chunk.subarray(start, read)));
    }
  }
  if (pending > 0) yield line(Buffer.concat(pieces), false);
}

function line(bytes: Buffer, complete: boolean): FileLine {
  return {
    text: bytes.toString('utf8'),
    bytes: bytes.length + (complete ? 1 : 0),
    complete,
    utf8: isUtf8(bytes),
  };
}
