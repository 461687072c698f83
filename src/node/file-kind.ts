import { constants, type Stats } from 'node:fs';

/**
 * Flags that open a path for reading without waiting: a FIFO with no writer would otherwise block the
 * open for ever (issue 24 item 13). A regular file reads the same with them.
 */
export const READ_WITHOUT_WAITING = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** The same for appending (created 0600 if missing): a FIFO with no reader fails at once (ENXIO). */
export const APPEND_WITHOUT_WAITING =
  constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NONBLOCK ?? 0);

/**
 * What a path is when it is not a regular file, as a phrase ("a FIFO (named pipe)", "a character
 * device", …); `undefined` for a regular file. Files the tools keep (state files, journals) are regular
 * files: anything else never ends (`/dev/zero`), blocks (a FIFO) or cannot be rewritten in place.
 */
export function notRegularFile(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}
