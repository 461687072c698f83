import { hostname } from 'node:os';
import { readFileSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { StateFileError } from './state-file-format.ts';

/** A held lock on a state file: `FILE.lock`, holding the owner's process ID and host. */
export interface StateLock {
  readonly path: string;
  /** Removes the lock (if still ours). Idempotent. */
  release(): void;
}

/**
 * Locks a state file for this process, so that a second mock on it stops instead of losing the first
 * one's changes. A lock left by a process of this host that no longer runs (kill -9) is taken over.
 * Throws a `StateFileError` when another live process holds it.
 */
export function lockStateFile(file: string): StateLock {
  const path = `${file}.lock`;
  const mine = JSON.stringify({ pid: process.pid, host: hostname() });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, mine, { flag: 'wx', mode: 0o600 });
      return held(path, mine);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
        throw new StateFileError(
          file,
          undefined,
          `cannot lock it (${path}): ${(error as Error).message}`,
        );
    }
    const holder = readHolder(path);
    if (holder !== undefined && (holder.host !== hostname() || isAlive(holder.pid)))
      throw new StateFileError(
        file,
        undefined,
        `in use by another mock (process ${holder.pid}${elsewhere(holder.host)}; lock ${path}). ` +
          'Stop that mock first, or use another file',
      );
    removeQuietly(path); // a dead process's lock (or an unreadable one): take it over
  }
  throw new StateFileError(file, undefined, `cannot lock it: ${path} keeps reappearing`);
}

function held(path: string, content: string): StateLock {
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    process.off('exit', release);
    try {
      if (readFileSync(path, 'utf8') === content) unlinkSync(path);
    } catch {
      // already gone
    }
  };
  process.on('exit', release);
  return { path, release };
}

function readHolder(path: string): { pid: number; host: string } | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown; host?: unknown };
    if (
      typeof value.pid === 'number' &&
      Number.isInteger(value.pid) &&
      typeof value.host === 'string'
    )
      return { pid: value.pid, host: value.host };
  } catch {
    // unreadable: treated as stale
  }
  return undefined;
}

/** Whether process `pid` runs: it exists and, where /proc tells, is not a zombie (killed, not reaped). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/**
 * A process killed (kill -9) whose parent has not collected it yet still answers `kill(pid, 0)`; on
 * Linux its /proc/PID/stat state is Z (or X). Elsewhere (no /proc) this says no.
 */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // someone else removed it first
  }
}

/** The temporary file a compaction of `file` by process `pid` writes. */
export function compactionTempPath(file: string, pid = process.pid): string {
  return join(dirname(file), `.${basename(file)}.${pid}.tmp`);
}

/**
 * Removes what compactions killed mid-way left (`.FILE.PID.tmp`). Called with the lock held, so no live
 * compaction can be writing one. Returns the names removed.
 */
export function removeLeftovers(file: string): string[] {
  const prefix = `.${basename(file)}.`;
  const leftovers = readdirSync(dirname(file)).filter(
    (name) => name.startsWith(prefix) && /^\d+\.tmp$/.test(name.slice(prefix.length)),
  );
  for (const name of leftovers) removeQuietly(join(dirname(file), name));
  return leftovers;
}

/** ` on HOST` when the lock's holder runs on another machine. */
const elsewhere = (host: string): string => (host === hostname() ? '' : ` on ${host}`);
