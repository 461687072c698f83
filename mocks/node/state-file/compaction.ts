import { closeSync, fsyncSync, openSync, renameSync, unlinkSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { syncDirectorySync, writeAllSync } from '../../../src/node/atomic-file.ts';
import type { StateFileAppender } from './appender.ts';
import { taskLine } from './format.ts';
import { compactionTempPath } from './lock.ts';

const BATCH_LINES = 8192;

/**
 * Rewrites the state file as `snapshot` (as it is now: header and entries, then the listed IDs) without
 * pausing the server (decisions/012): the snapshot is written and fsync'd to a temp file asynchronously,
 * while the journal goes on appending to the old file and remembers what it appends (`capture`); then,
 * in one synchronous step, those lines are added to the temp file, which replaces the old one (fsync,
 * rename, directory fsync). A crash at any point leaves the old file whole (and maybe a temp file,
 * removed at the next start). Resolves `false` when `cancelled()` stopped it.
 */
export async function compactStateFile(
  journal: StateFileAppender,
  snapshot: { readonly head: readonly string[]; readonly ids: readonly string[] },
  cancelled: () => boolean,
): Promise<boolean> {
  const tmp = compactionTempPath(journal.path);
  journal.capture = [];
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(tmp, 'w', 0o600);
    await handle.write(`${snapshot.head.join('\n')}\n`);
    const { ids } = snapshot;
    for (let from = 0; from < ids.length && !cancelled(); from += BATCH_LINES)
      await handle.write(
        `${ids
          .slice(from, from + BATCH_LINES)
          .map(taskLine)
          .join('\n')}\n`,
      );
    if (!cancelled()) await handle.sync();
    await handle.close();
    handle = undefined;
    if (cancelled()) {
      unlinkQuietly(tmp);
      return false;
    }
    switchTo(journal, tmp, journal.capture);
    journal.lines = snapshot.head.length + ids.length + journal.capture.length;
    return true;
  } catch (error) {
    await handle?.close().catch(() => undefined);
    unlinkQuietly(tmp);
    throw error;
  } finally {
    journal.capture = undefined;
  }
}

/** The synchronous end of a compaction: nothing can be appended between its steps. */
function switchTo(journal: StateFileAppender, tmp: string, tail: readonly string[]): void {
  const fd = openSync(tmp, 'a');
  try {
    if (tail.length > 0) writeAllSync(fd, Buffer.from(`${tail.join('\n')}\n`, 'utf8'));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  // Windows cannot rename over an open file: the journal's handle is reopened after.
  journal.close();
  try {
    renameSync(tmp, journal.path);
    syncDirectorySync(dirname(journal.path));
  } finally {
    journal.open();
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // never created, or already renamed
  }
}
