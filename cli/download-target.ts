import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { UsageError } from './usage-error.ts';

/** `-o -`: the video goes to standard output. */
export const STDOUT = '-';

/**
 * `download -o FILE`, checked before anything is downloaded: a mistake in the target must not cost a
 * whole download that fails at its last step (the rename). FILE names a file, not a directory (it is
 * replaced by a rename, so a directory, a device or a FIFO never is); it may exist only with
 * `--force`; its directory exists and is writable. `-o -` writes to standard output, unless that is
 * a terminal.
 */
export async function checkDownloadTarget(
  path: string,
  options: { force: boolean; taskId: string },
): Promise<void> {
  if (path === STDOUT) {
    if (process.stdout.isTTY === true)
      throw new UsageError(
        '-o - writes the video to standard output, which is a terminal here: ' +
          'redirect it (`> video.mp4`) or pipe it into another program',
      );
    return;
  }
  const example = `-o ${join(path, `${options.taskId}.mp4`)}`;
  if (path.endsWith('/') || path.endsWith(sep))
    throw new UsageError(`-o ${path} names a directory: give the file to write, e.g. ${example}`);
  const target = await statOf(path);
  if (target?.isDirectory() === true)
    throw new UsageError(`-o ${path} is a directory: give the file to write, e.g. ${example}`);
  if (target !== undefined && !target.isFile())
    throw new UsageError(
      `-o ${path} is not a regular file; give the file to write (or -o - for standard output)`,
    );
  if (target !== undefined && !options.force)
    throw new UsageError(`${path} exists: pass --force to replace it`);
  const folder = dirname(resolve(path));
  if ((await statOf(folder))?.isDirectory() !== true)
    throw new UsageError(`-o ${path}: the directory ${folder} does not exist; create it first`);
  try {
    await access(folder, constants.W_OK);
  } catch {
    throw new UsageError(`-o ${path}: the directory ${folder} is not writable`);
  }
}

async function statOf(path: string): Promise<Awaited<ReturnType<typeof stat>> | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTDIR')
      throw new UsageError(`-o ${path}: a part of the path is not a directory`);
    throw new UsageError(`-o ${path}: ${(error as Error).message}`);
  }
}
