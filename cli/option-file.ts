import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { READ_WITHOUT_WAITING, notRegularFile } from '../src/node/file-kind.ts';
import { UsageError } from './usage-error.ts';

/** The largest file an option names (a token, a secret, a config, a spec): far above any real one. */
export const MAX_OPTION_FILE_BYTES = 16 * 2 ** 20;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The text of a file an option names (`--config`, `--secret-file`, …), or a `UsageError` saying why
 * not in the option's words: missing, not a regular file (a FIFO would block for ever, `/dev/zero`
 * never ends: issue 24 item 13), over `maxBytes`, or not UTF-8.
 */
export function readOptionFile(
  option: string,
  file: string,
  maxBytes = MAX_OPTION_FILE_BYTES,
): { text: string; mode: number } {
  let fd: number;
  try {
    fd = openSync(file, READ_WITHOUT_WAITING);
  } catch (error) {
    throw new UsageError(`cannot read ${option} ${file}: ${why(error)}`);
  }
  try {
    const stats = fstatSync(fd);
    const kind = notRegularFile(stats);
    if (kind !== undefined)
      throw new UsageError(`${option} ${file} is ${kind}: give a regular file`);
    if (stats.size > maxBytes)
      throw new UsageError(`${option} ${file} is larger than ${maxBytes} bytes`);
    const bytes = new Uint8Array(stats.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return { text: decoded(option, file, bytes.subarray(0, read)), mode: stats.mode };
  } finally {
    closeSync(fd);
  }
}

function decoded(option: string, file: string, bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new UsageError(`${option} ${file} is not UTF-8 text`);
  }
}

function why(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES') return 'permission denied';
  return code ?? (error as Error).message;
}
