import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { notRegularFile, READ_WITHOUT_WAITING } from './file-kind.ts';

/**
 * The one rule for a file the project reads whole (issue 24 item 13, issue 33 item 8): an option's file
 * (`--config`, `--secret-file`, `--admin-token-file`, `--document`) and a learned profile (`--profile`,
 * `--learn`, `--against-profile`, `learn --out` refining one). It is opened without waiting (a FIFO with
 * no writer would block for ever) and must be a regular file (`/dev/zero` never ends), of at most
 * `MAX_INPUT_FILE_BYTES` (read no further than its size said), and UTF-8 text. Anything else is an
 * `InputFileError` naming the file, what it is and what to give instead; nothing is half read.
 */

/** The largest file read whole: far above any real one (a learned profile is ~150 KB, a spec ~100 KB). */
export const MAX_INPUT_FILE_BYTES = 16 * 2 ** 20;

/** A file the rule refuses: the message names the file (after `label`, e.g. the option) and why. */
export class InputFileError extends Error {
  override readonly name = 'InputFileError';
  constructor(
    message: string,
    /** Nothing is at the path (a command that creates the file may go on). */
    readonly missing = false,
  ) {
    super(message);
  }
}

export interface InputFileOptions {
  /** How the file is named in a message: the option that named it (`--profile`). */
  readonly label: string;
  /** At most this many bytes (default `MAX_INPUT_FILE_BYTES`). */
  readonly maxBytes?: number | undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The text of `file` and its mode, or an `InputFileError` saying why not. */
export function readInputFile(
  file: string,
  options: InputFileOptions,
): { text: string; mode: number } {
  const { label } = options;
  const maxBytes = options.maxBytes ?? MAX_INPUT_FILE_BYTES;
  let fd: number;
  try {
    fd = openSync(file, READ_WITHOUT_WAITING);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputFileError(`cannot read ${label} ${file}: ${why(error)}`, code === 'ENOENT');
  }
  try {
    const stats = fstatSync(fd);
    const kind = notRegularFile(stats);
    if (kind !== undefined)
      throw new InputFileError(`${label} ${file} is ${kind}: give a regular file`);
    if (stats.size > maxBytes)
      throw new InputFileError(
        `${label} ${file} is larger than ${maxBytes} bytes (${stats.size}), the most read from a file`,
      );
    const bytes = new Uint8Array(stats.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return { text: decoded(label, file, bytes.subarray(0, read)), mode: stats.mode };
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether a path names something that is not a regular file (a FIFO, a device, a folder), as a
 * phrase; undefined for a regular file or nothing at all. For a file a command will write, checked
 * before the work that leads to writing it.
 */
export function notRegularPath(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, READ_WITHOUT_WAITING);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? undefined : why(error);
  }
  try {
    return notRegularFile(fstatSync(fd));
  } finally {
    closeSync(fd);
  }
}

function decoded(label: string, file: string, bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new InputFileError(`${label} ${file} is not UTF-8 text`);
  }
}

function why(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES') return 'permission denied';
  if (code === 'ENOTDIR') return 'under a file, not a folder';
  return code ?? (error as Error).message;
}
