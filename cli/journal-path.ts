import { stat } from 'node:fs/promises';
import { notRegularFile } from '../src/node/file-kind.ts';
import { dirname } from 'node:path';
import { UsageError } from './options.ts';

/**
 * `--journal FILE` for a command that reads it (`wait`, `monitor`): it must exist and be a regular file.
 * A typo must not read as an empty journal ("0 task(s) followed"), a directory gets a plain answer, and
 * a FIFO or a device (`/dev/zero`: 628 MB read, then exit 1) is refused before anything is read.
 */
export async function checkJournalToRead(path: string): Promise<void> {
  if (path === '') throw new UsageError('--journal needs a file name');
  const kind = await kindOf(path);
  if (kind === 'missing')
    throw new UsageError(
      `--journal ${path}: no such file. Give the journal written by \`videotask submit --journal\`.`,
    );
  if (kind === 'a directory')
    throw new UsageError(`--journal ${path} is a directory: give the journal file inside it.`);
  if (kind !== 'file')
    throw new UsageError(
      `--journal ${path} is ${kind}, not a journal file: give the file written by ` +
        '`videotask submit --journal`.',
    );
}

/**
 * `--journal FILE` for `submit`, which creates it if needed: it must be a regular file or missing (not
 * a directory, a FIFO, `/dev/null`…) and its directory must exist, so that no submission goes out that
 * could not be journaled.
 */
export async function checkJournalToWrite(path: string): Promise<void> {
  if (path === '') throw new UsageError('--journal needs a file name');
  const kind = await kindOf(path);
  if (kind === 'a directory')
    throw new UsageError(`--journal ${path} is a directory: give a file name inside it.`);
  if (kind !== 'file' && kind !== 'missing')
    throw new UsageError(
      `--journal ${path} is ${kind}, not a journal file: give the name of a regular file ` +
        '(a new one, or the journal of an earlier submit).',
    );
  if ((await kindOf(dirname(path))) !== 'a directory')
    throw new UsageError(`--journal ${path}: the directory ${dirname(path)} does not exist.`);
}

/** `file` (a regular one), `missing`, or what else it is ("a directory", "a FIFO (named pipe)", …). */
async function kindOf(path: string): Promise<string> {
  try {
    return notRegularFile(await stat(path)) ?? 'file';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw new UsageError(`--journal ${path}: ${(error as Error).message}`);
  }
}
