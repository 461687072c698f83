import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { readFileSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { writeTextAtomicallySync } from '../../../src/node/atomic-file.ts';
import { StateFileError } from './format.ts';

/** A held lock on a state file: `FILE.lock`, holding the owner's process ID and host. */
export interface StateLock {
  readonly path: string;
  /** Removes the lock (if still ours). Idempotent. */
  release(): void;
}

/** How many takeovers may be stacked (a claim left by a claimant that died while taking over, …). */
const MAX_CLAIM_DEPTH = 4;

/** Another process (alive) holds `lock`: the lock itself, or the claim to take a stale one over. */
class LockHeld extends Error {
  constructor(
    readonly holder: Holder,
    readonly lock: string,
  ) {
    super(`held by process ${holder.pid}`);
  }
}

/**
 * Locks a state file for this process, so that a second mock on it stops instead of losing the first
 * one's changes. A lock left by a process of this host that no longer runs (kill -9) is taken over,
 * by one process only however many try at once (issue 24 item 12): see `acquire`. Throws a
 * `StateFileError` when another live process holds it.
 */
export function lockStateFile(file: string): StateLock {
  const path = `${file}.lock`;
  const mine = JSON.stringify({
    pid: process.pid,
    host: hostname(),
    token: randomBytes(8).toString('hex'), // every lock's content is unique: it names its takeover
  });
  try {
    acquire(path, mine, 0);
  } catch (error) {
    if (error instanceof StateFileError) throw error;
    if (!(error instanceof LockHeld))
      throw new StateFileError(
        file,
        undefined,
        `cannot lock it (${path}): ${(error as Error).message}`,
      );
    const { holder, lock } = error;
    const what = lock === path ? 'in use by another mock' : 'in use by another mock taking it over';
    throw new StateFileError(
      file,
      undefined,
      `${what} (process ${holder.pid}${elsewhere(holder.host)}; lock ${lock}). ` +
        'Stop that mock first, or use another file',
    );
  }
  return held(path, mine);
}

/**
 * Makes `lock` hold `mine`. A lock appears whole (a written file linked in place: O_EXCL semantics), so
 * nobody reads a half-written one as stale. A stale lock (its holder no longer runs) is taken over in
 * three steps: claim it under a name derived from its content, created exclusively (the same way,
 * recursively: only one process at a time holds the claim on that stale content); check that the lock
 * still holds that content; replace it with one atomic rename. A process that judged the same lock
 * stale a moment later finds the claim taken (its holder alive: "in use") or, once the claim is
 * released, a lock whose content is no longer the stale one it judged. Throws `LockHeld` when a live
 * process holds the lock or the claim.
 */
function acquire(lock: string, mine: string, depth: number): void {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (createWhole(lock, mine)) return;
    const stale = readContent(lock);
    if (stale === undefined) continue; // released meanwhile: another process moved on, try again
    const holder = parseHolder(stale);
    if (holder !== undefined && (holder.host !== hostname() || isAlive(holder.pid)))
      throw new LockHeld(holder, lock);
    if (depth === MAX_CLAIM_DEPTH)
      throw new Error(`${lock} and the claims on it were left by processes that no longer run`);
    const claim = `${lock}.${createHash('sha256').update(stale).digest('hex').slice(0, 16)}`;
    acquire(claim, mine, depth + 1);
    try {
      if (readContent(lock) === stale) {
        replaceWhole(lock, mine);
        return;
      }
    } finally {
      removeIfHolding(claim, mine);
    }
  }
  throw new Error(`${lock} keeps reappearing`);
}

/**
 * Tries before giving up on a lock or claim that keeps vanishing between our create and our read. Each
 * try follows another process's step (a claim released, a stale lock replaced), so the contenders run
 * out long before this; 3 was too few: six processes taking over one stale lock on a loaded machine
 * released the claim between one loser's two calls three times running, and that loser said
 * "keeps reappearing" instead of "in use" (test/mocks/state-lock-takeover-atomic.e2e.test.ts).
 */
const MAX_ATTEMPTS = 100;

/** Creates `path` holding `content`, whole (linked in place), unless it exists (false). */
function createWhole(path: string, content: string): boolean {
  try {
    writeTextAtomicallySync(path, content, { mode: 0o600, exclusive: true, temp: tempPath(path) });
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
    // A file system without hard links (FAT): create it in place, exclusively.
    try {
      writeFileSync(path, content, { flag: 'wx', mode: 0o600 });
      return true;
    } catch (inPlace) {
      if ((inPlace as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw inPlace;
    }
  }
}

/** Replaces `path` with a file holding `content`, atomically. */
function replaceWhole(path: string, content: string): void {
  writeTextAtomicallySync(path, content, { mode: 0o600, temp: tempPath(path) });
}

/** The temporary file beside `path`: `PATH.PID-RANDOM.tmp` (its PID lets `removeLeftovers` judge it). */
function tempPath(path: string): string {
  return `${path}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
}

function readContent(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function removeIfHolding(path: string, content: string): void {
  if (readContent(path) === content) removeQuietly(path);
}

function held(path: string, content: string): StateLock {
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    process.off('exit', release);
    try {
      removeIfHolding(path, content);
    } catch {
      // already gone
    }
  };
  process.on('exit', release);
  return { path, release };
}

interface Holder {
  readonly pid: number;
  readonly host: string;
}

/** The holder a lock's content names; `undefined` when it names none (damaged): stale. */
function parseHolder(content: string): Holder | undefined {
  try {
    const value = JSON.parse(content) as { pid?: unknown; host?: unknown };
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
 * Removes what processes killed mid-way left: a compaction's `.FILE.PID.tmp`, a lock's
 * `FILE.lock.PID-RANDOM.tmp` and a takeover's claims (`FILE.lock.HASH…`) whose process no longer runs.
 * Called with the lock held, so no live compaction can be writing one. Returns the names removed.
 */
export function removeLeftovers(file: string): string[] {
  const compaction = `.${basename(file)}.`;
  const lock = `${basename(file)}.lock.`;
  const directory = dirname(file);
  const leftovers = readdirSync(directory).filter((name) => {
    if (name.startsWith(compaction)) return /^\d+\.tmp$/.test(name.slice(compaction.length));
    if (!name.startsWith(lock)) return false;
    const parts =
      /^((?:[0-9a-f]{16}\.)*[0-9a-f]{16})$|^(?:[0-9a-f]{16}\.)*(\d+)-[0-9a-f]{12}\.tmp$/.exec(
        name.slice(lock.length),
      );
    if (parts === null) return false;
    if (parts[2] !== undefined) return !isAlive(Number(parts[2]));
    const holder = parseHolder(readContent(join(directory, name)) ?? '');
    return holder === undefined || (holder.host === hostname() && !isAlive(holder.pid));
  });
  for (const name of leftovers) removeQuietly(join(directory, name));
  return leftovers;
}

/** ` on HOST` when the lock's holder runs on another machine. */
const elsewhere = (host: string): string => (host === hostname() ? '' : ` on ${host}`);
