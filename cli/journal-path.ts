import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UsageError } from './usage-error.ts';

/**
 * `--journal FILE` for a command that reads it (`wait`, `monitor`): it must exist and be a file. A
 * typo must not read as an empty journal ("0 task(s) followed"), and a directory gets a plain answer.
 */
export async function checkJournalToRead(path: string): Promise<void> {
  if (path === '') throw new UsageError('--journal needs a file name');
  const kind = await kindOf(path);
  if (kind === 'missing')
    throw new UsageError(
      `--journal ${path}: no such file. Give the journal written by \`videotask submit --journal\`.`,
    );
  if (kind === 'directory')
    throw new UsageError(`--journal ${path} is a directory: give the journal file inside it.`);
}

/**
 * `--journal FILE` for `submit`, which creates it if needed: it must not be a directory and its
 * directory must exist, so that no submission goes out that could not be journaled.
 */
export async function checkJournalToWrite(path: string): Promise<void> {
  if (path === '') throw new UsageError('--journal needs a file name');
  if ((await kindOf(path)) === 'directory')
    throw new UsageError(`--journal ${path} is a directory: give a file name inside it.`);
  if ((await kindOf(dirname(path))) !== 'directory')
    throw new UsageError(`--journal ${path}: the directory ${dirname(path)} does not exist.`);
}

async function kindOf(path: string): Promise<'missing' | 'directory' | 'other'> {
  try {
    return (await stat(path)).isDirectory() ? 'directory' : 'other';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw new UsageError(`--journal ${path}: ${(error as Error).message}`);
  }
}
