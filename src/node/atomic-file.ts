import {
  closeSync,
  fchmodSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/**
 * Streams `chunks` into `.<name>.<random>.part` beside `target`, fsyncs it, runs `check`, and renames it
 * onto `target`. On any failure the temporary file is removed and `target` is left as it was. The file
 * is created with `mode` (default 0o666, less the umask): 0o600 for a file only its owner may read.
 */
export async function writeAtomically(
  target: string,
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  check: () => void,
  options: { readonly mode?: number } = {},
): Promise<void> {
  const dir = dirname(target);
  const temp = join(dir, `.${basename(target)}.${randomBytes(6).toString('hex')}.part`);
  let handle: FileHandle | undefined = await open(temp, 'wx', options.mode ?? 0o666);
  try {
    for await (const chunk of chunks) await writeAll(handle, chunk);
    await handle.sync();
    await handle.close();
    handle = undefined;
    check();
    await rename(temp, target);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dir);
}

/** A whole text file, written as `writeAtomically` writes: whole or not at all (`mode` less the umask). */
export async function writeTextAtomically(
  target: string,
  text: string,
  options: { readonly mode?: number } = {},
): Promise<void> {
  await writeAtomically(target, [new TextEncoder().encode(text)], () => undefined, options);
}

/** How `writeTextAtomicallySync` writes (see there). */
export interface SyncWriteOptions {
  /** The file's permissions, set whatever the umask (default 0o666 less the umask). */
  readonly mode?: number;
  /** Make the target's folder first. */
  readonly createFolder?: boolean;
  /**
   * Create `target` only if it does not exist: the whole file is linked in place (O_EXCL semantics
   * without a half-written file), else the call throws the `EEXIST` error. A file system without hard
   * links throws its own error (EPERM, ENOTSUP, ENOSYS) and leaves `target` untouched.
   */
  readonly exclusive?: boolean;
  /**
   * The temporary file's path (default `.<name>.<random>.part` beside `target`), for a caller whose
   * clean-up recognises its own leftovers by name. It must be in `target`'s folder and unique.
   */
  readonly temp?: string;
}

/**
 * `writeTextAtomically` for code that cannot wait (a report written as a run ends, a lock taken): the
 * same temporary file beside `target`, fsynced and renamed (or, `exclusive`, linked), removed on
 * failure. `mode` is set whatever the umask, even over a stale file; `createFolder` makes the target's
 * folder first.
 */
export function writeTextAtomicallySync(
  target: string,
  text: string,
  options: SyncWriteOptions = {},
): void {
  const dir = dirname(target);
  if (options.createFolder === true) mkdirSync(dir, { recursive: true });
  const temp =
    options.temp ?? join(dir, `.${basename(target)}.${randomBytes(6).toString('hex')}.part`);
  // Outside the try: a file already at `temp` is not ours to remove.
  const fd = openSync(temp, 'wx', options.mode ?? 0o666);
  try {
    try {
      writeFileSync(fd, text);
      if (options.mode !== undefined) fchmodSync(fd, options.mode);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (options.exclusive === true) linkSync(temp, target);
    else renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  if (options.exclusive === true) rmSync(temp, { force: true });
}

/** Writes every byte of `chunk` (a write may take fewer than it was given). */
export async function writeAll(handle: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.byteLength) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.byteLength - offset);
    offset += bytesWritten;
  }
}

/** `writeAll` for code that cannot wait: every byte of `bytes`, at `position` onwards if given. */
export function writeAllSync(fd: number, bytes: Uint8Array, position?: number): void {
  for (let offset = 0; offset < bytes.byteLength;) {
    const at = position === undefined ? null : position + offset;
    offset += writeSync(fd, bytes, offset, bytes.byteLength - offset, at);
  }
}

/** Makes the rename durable where the platform allows it (best effort: not possible on Windows). */
export async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Durability of the directory entry is a bonus, not a condition of success.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** `syncDirectory` for code that cannot wait (a rename that must end in one synchronous step). */
export function syncDirectorySync(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Windows and some file systems refuse: the rename is still atomic, only its durability is the OS's.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
