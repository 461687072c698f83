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
}

/**
 * The lines of an open file, read in fixed chunks: linear in the file's size (a line's pieces are joined
 * once, when its end is found). Throws `tooLong(lineNumber)`'s error for a line over `MAX_LINE_BYTES`.
 */
export function* readLines(
  fd: number,
  tooLong: (lineNumber: number) => Error,
  maxLineBytes = MAX_LINE_BYTES,
): Generator<FileLine> {
  const chunk = Buffer.allocUnsafe(1 << 20);
  let pieces: Buffer[] = [];
  let pending = 0;
  let lineNumber = 1;
  let position = 0;
  for (;;) {
    const read = readSync(fd, chunk, 0, chunk.length, position);
    if (read === 0) break;
    position += read;
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl >= 0 && nl < read; nl = chunk.indexOf(10, start)) {
      if (pending + nl - start > maxLineBytes) throw tooLong(lineNumber);
      const line =
        pieces.length === 0
          ? chunk.toString('utf8', start, nl)
          : Buffer.concat([...pieces, chunk.subarray(start, nl)]).toString('utf8');
      yield { text: line, bytes: pending + nl + 1 - start, complete: true };
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
  if (pending > 0)
    yield { text: Buffer.concat(pieces).toString('utf8'), bytes: pending, complete: false };
}
