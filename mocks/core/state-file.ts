import {
  closeSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { FamilyState } from './catalog.ts';
import type { Clock } from './clock.ts';
import type { TaskPlan } from './plan.ts';
import { TaskRecord, type TaskStore } from './store.ts';

/**
 * A mock's state on disk, so a restarted mock keeps its tasks, its clock position and the second
 * family's binding ([decisions/007](../../decisions/007-mock-state-file.md)).
 *
 * One file of JSON lines. Line 1 is a header (format, seed, start count, clock, binding, row counter);
 * then one line per task (`{"task": {...}}`, a full record: the last line for an ID wins) and state
 * lines (`{"clock": ms, "familyBound": b}`, `{"start": n, ...}`, `{"reset": true}`), replayed in order.
 * While the mock runs, changes are appended in batches, fsync'd at most once per `flushIntervalMs`;
 * the whole file is rewritten atomically (temp file, fsync, rename) when the mock starts with a
 * wasteful journal, after a reset, when the journal outgrows the store, and on `close()`.
 */
export const STATE_FORMAT = 'videotask-mock-state';
export const STATE_VERSION = 1;
export const DEFAULT_FLUSH_INTERVAL_MS = 1000;

export interface StateFileOptions {
  readonly path: string;
  /** Real ms between two appends of the changes (each one fsync'd). Default 1000. */
  readonly flushIntervalMs?: number | undefined;
  /** Told when a write fails; the mock keeps serving and the changes stay pending (retried). Default: ignored. */
  readonly onError?: ((error: Error) => void) | undefined;
}

/** A state file that cannot be used: it exists but does not parse, or cannot be written. */
export class StateFileError extends Error {
  override readonly name = 'StateFileError';
  constructor(
    readonly file: string,
    /** 1-based line of the problem, when it is in one line. */
    readonly line: number | undefined,
    readonly problem: string,
  ) {
    super(`state file ${file}${line === undefined ? '' : `, line ${line}`}: ${problem}`);
  }
}

/** What a state file held when it was read (`undefined`: no file, or an empty one: a fresh start). */
export interface RestoredState {
  readonly seed: number | string;
  /** Times a mock has started on this file before. */
  readonly starts: number;
  /** The simulated time the clock resumes from (ms since the epoch). */
  readonly clock: number;
  readonly familyBound: boolean;
  readonly rows: number;
  /** By ID, in submission order. */
  readonly tasks: Map<string, TaskRecord>;
  /** Complete lines read (header included). */
  readonly lines: number;
  /** Bytes up to the end of the last complete line. */
  readonly validBytes: number;
  /** Bytes of a torn last line (a write cut short by a crash), ignored. */
  readonly ignoredBytes: number;
  /** The file's last line is complete but has no final newline. */
  readonly missingNewline: boolean;
}

/** A state file being kept up to date (`MockService.stateFile`). */
export interface StateFile {
  readonly path: string;
  /** What was read at start-up; `undefined` on a fresh start. */
  readonly restored: RestoredState | undefined;
  /** Appends the pending changes and fsyncs (the timer does this every `flushIntervalMs`). Throws on a write error. */
  flush(): void;
  /** Rewrites the whole file atomically from the current state. Throws on a write error. */
  compact(): void;
  /** Stops the timer and writes a compacted file: after it returns, nothing is lost. Idempotent. */
  close(): void;
}

/** The seed of the random source (task IDs, plans) for this start: the saved seed, varied per restart. */
export function randomSeedFor(
  seed: number | string,
  restored: RestoredState | undefined,
): number | string {
  return restored === undefined || restored.starts === 0
    ? seed
    : `${seed}/start-${restored.starts + 1}`;
}

// ---------------------------------------------------------------------------------------------------
// Reading

/**
 * Reads a state file. A missing or empty file is a fresh start (`undefined`); anything else that does
 * not parse throws a `StateFileError` naming the line (never a silent fresh start over a file that has data).
 */
export function readStateFile(path: string): RestoredState | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(path, undefined, `cannot read it: ${(error as Error).message}`);
  }
  try {
    if (fstatSync(fd).size === 0) return undefined;
    return parse(path, fd);
  } finally {
    closeSync(fd);
  }
}

interface Header {
  seed: number | string;
  starts: number;
  clock: number;
  familyBound: boolean;
  rows: number;
}

function parse(path: string, fd: number): RestoredState {
  let header: Header | undefined;
  const tasks = new Map<string, TaskRecord>();
  let lineNumber = 0;
  let validBytes = 0;
  let ignoredBytes = 0;
  let missingNewline = false;
  const fail = (problem: string): never => {
    throw new StateFileError(path, lineNumber, problem);
  };

  const apply = (text: string): void => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      fail(`not JSON (${(error as Error).message})`);
    }
    if (!isObject(value)) return fail('not a JSON object');
    if (header === undefined) {
      header = readHeader(value, fail);
      return;
    }
    if ('task' in value) {
      onlyKeys(value, ['task'], fail);
      const task = readTask(value['task'], fail);
      tasks.set(task.id, task);
      header.rows = Math.max(header.rows, task.row);
      return;
    }
    onlyKeys(value, ['reset', 'start', 'clock', 'familyBound'], fail);
    if (Object.keys(value).length === 0) fail('an empty object: expected a task or a state line');
    if ('reset' in value) {
      if (value['reset'] !== true) fail('reset must be true');
      tasks.clear();
      header.rows = 0;
    }
    if ('start' in value)
      header.starts = Math.max(header.starts, integer(value['start'], 'start', 1, fail));
    if ('clock' in value)
      header.clock = Math.max(header.clock, finite(value['clock'], 'clock', fail));
    if ('familyBound' in value) {
      if (typeof value['familyBound'] !== 'boolean') fail('familyBound must be true or false');
      header.familyBound = value['familyBound'] as boolean;
    }
  };

  // Line by line over fixed-size chunks: a file of a million tasks is larger than one string may be.
  const chunk = Buffer.allocUnsafe(1 << 20);
  let carry: Buffer = Buffer.alloc(0);
  let position = 0;
  for (;;) {
    const read = readSync(fd, chunk, 0, chunk.length, position);
    if (read === 0) break;
    position += read;
    const data =
      carry.length === 0
        ? chunk.subarray(0, read)
        : Buffer.concat([carry, chunk.subarray(0, read)]);
    let start = 0;
    for (let nl = data.indexOf(10, start); nl >= 0; nl = data.indexOf(10, start)) {
      lineNumber++;
      const line = data.toString('utf8', start, nl);
      if (line.trim() === '') fail('an empty line');
      apply(line);
      validBytes += nl + 1 - start;
      start = nl + 1;
    }
    carry = Buffer.from(data.subarray(start));
  }
  if (carry.length > 0) {
    // The last line has no newline: complete (hand-edited) or torn by a crash mid-write.
    lineNumber++;
    const text = carry.toString('utf8');
    let complete = false;
    try {
      JSON.parse(text);
      complete = true;
    } catch {
      // torn
    }
    if (complete || header === undefined) {
      apply(text);
      validBytes += carry.length;
      missingNewline = true;
    } else {
      ignoredBytes = carry.length;
      lineNumber--;
    }
  }
  if (header === undefined) throw new StateFileError(path, 1, 'no header line');
  const h: Header = header;
  let clock = h.clock;
  for (const task of tasks.values()) clock = Math.max(clock, task.createdAt);
  return {
    seed: h.seed,
    starts: h.starts,
    clock,
    familyBound: h.familyBound,
    rows: h.rows,
    tasks,
    lines: lineNumber,
    validBytes,
    ignoredBytes,
    missingNewline,
  };
}

function readHeader(value: Record<string, unknown>, fail: (problem: string) => never): Header {
  if (value['format'] !== STATE_FORMAT)
    fail(`not a videotask mock state file (its first line has no "format": "${STATE_FORMAT}")`);
  if (value['version'] !== STATE_VERSION)
    fail(
      `format version ${JSON.stringify(value['version'])} is not supported (this mock reads version ${STATE_VERSION})`,
    );
  onlyKeys(
    value,
    ['format', 'version', 'seed', 'starts', 'clock', 'familyBound', 'rows', 'savedAt'],
    fail,
  );
  const seed = value['seed'];
  if (!(typeof seed === 'string' || (typeof seed === 'number' && Number.isFinite(seed))))
    fail('seed must be a number or a string');
  if (typeof value['familyBound'] !== 'boolean') fail('familyBound must be true or false');
  return {
    seed: seed as number | string,
    starts: integer(value['starts'], 'starts', 0, fail),
    clock: finite(value['clock'], 'clock', fail),
    familyBound: value['familyBound'] as boolean,
    rows: integer(value['rows'], 'rows', 0, fail),
  };
}

const OUTCOMES: readonly string[] = ['succeed', 'fail', 'stuck'];

function readTask(raw: unknown, fail: (problem: string) => never): TaskRecord {
  if (!isObject(raw)) return fail('task must be an object');
  onlyKeys(
    raw,
    ['id', 'owner', 'model', 'createdAt', 'platform', 'seconds', 'quota', 'row', 'queries', 'plan'],
    fail,
    'task.',
  );
  const text = (key: string): string =>
    typeof raw[key] === 'string' && raw[key] !== ''
      ? (raw[key] as string)
      : fail(`task.${key} must be a non-empty string`);
  const id = text('id');
  const owner = text('owner');
  const model = text('model');
  const createdAt = finite(raw['createdAt'], 'task.createdAt', fail);
  const platform = text('platform');
  const seconds = finite(raw['seconds'], 'task.seconds', fail);
  const quota = finite(raw['quota'], 'task.quota', fail);
  const row = integer(raw['row'], 'task.row', 0, fail);
  const queries = integer(raw['queries'], 'task.queries', 0, fail);
  const task = new TaskRecord(
    id,
    owner,
    model,
    createdAt,
    readPlan(raw['plan'], fail),
    platform,
    seconds,
    quota,
    row,
  );
  task.queries = queries;
  return task;
}

function readPlan(raw: unknown, fail: (problem: string) => never): TaskPlan {
  if (!isObject(raw)) return fail('task.plan must be an object');
  onlyKeys(
    raw,
    [
      'unknownMs',
      'queueMs',
      'runMs',
      'outcome',
      'errorCode',
      'errorMessage',
      'scenario',
      'flakyEvery',
      'progressFloor',
    ],
    fail,
    'task.plan.',
  );
  const runMs =
    raw['runMs'] === 'Infinity'
      ? Number.POSITIVE_INFINITY
      : finite(raw['runMs'], 'task.plan.runMs (or "Infinity")', fail);
  const outcome = raw['outcome'];
  if (typeof outcome !== 'string' || !OUTCOMES.includes(outcome))
    fail(`task.plan.outcome must be one of ${OUTCOMES.join(', ')}`);
  if (typeof raw['scenario'] !== 'string') fail('task.plan.scenario must be a string');
  for (const key of ['errorCode', 'errorMessage'])
    if (raw[key] !== undefined && typeof raw[key] !== 'string')
      fail(`task.plan.${key} must be a string`);
  const plan: { -readonly [K in keyof TaskPlan]: TaskPlan[K] } = {
    unknownMs: finite(raw['unknownMs'], 'task.plan.unknownMs', fail),
    queueMs: finite(raw['queueMs'], 'task.plan.queueMs', fail),
    runMs,
    outcome: outcome as TaskPlan['outcome'],
    scenario: raw['scenario'] as string,
  };
  if (raw['errorCode'] !== undefined) plan.errorCode = raw['errorCode'] as string;
  if (raw['errorMessage'] !== undefined) plan.errorMessage = raw['errorMessage'] as string;
  if (raw['flakyEvery'] !== undefined)
    plan.flakyEvery = integer(raw['flakyEvery'], 'task.plan.flakyEvery', 1, fail);
  if (raw['progressFloor'] !== undefined)
    plan.progressFloor = finite(raw['progressFloor'], 'task.plan.progressFloor', fail);
  return plan;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function onlyKeys(
  value: Record<string, unknown>,
  allowed: readonly string[],
  fail: (problem: string) => never,
  prefix = '',
): void {
  const unknown = Object.keys(value).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) fail(`unknown field ${unknown.map((k) => prefix + k).join(', ')}`);
}

function finite(value: unknown, name: string, fail: (problem: string) => never): number {
  return typeof value === 'number' && Number.isFinite(value)
    ? value
    : fail(`${name} must be a number`);
}

function integer(
  value: unknown,
  name: string,
  min: number,
  fail: (problem: string) => never,
): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min
    ? value
    : fail(`${name} must be an integer ≥ ${min}`);
}

// ---------------------------------------------------------------------------------------------------
// Writing

/** One task as a line (without the newline). `Infinity` (a stuck task's run time) is written as `"Infinity"`. */
export function taskLine(task: TaskRecord): string {
  const { plan } = task;
  const savedPlan = Number.isFinite(plan.runMs) ? plan : { ...plan, runMs: 'Infinity' };
  return JSON.stringify({
    task: {
      id: task.id,
      owner: task.owner,
      model: task.model,
      createdAt: task.createdAt,
      platform: task.platform,
      seconds: task.seconds,
      quota: task.quota,
      row: task.row,
      queries: task.queries,
      plan: savedPlan,
    },
  });
}

export interface StateFileTarget {
  readonly store: TaskStore;
  readonly clock: Clock;
  readonly family: FamilyState;
  readonly seed: number | string;
}

/**
 * Starts keeping `target` in the file: puts the restored tasks in the store (when `restored` is given,
 * from `readStateFile` on the same path), records this start (fsync'd before it returns, so a crash
 * cannot reuse the random source), then appends changes every `flushIntervalMs`.
 */
export function openStateFile(
  options: StateFileOptions,
  target: StateFileTarget,
  restored: RestoredState | undefined,
): StateFile {
  const { path } = options;
  const interval = options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
  if (!(interval > 0 && Number.isFinite(interval)))
    throw new RangeError(`flushIntervalMs must be a positive number, got ${String(interval)}`);
  const { store, clock, family, seed } = target;
  const starts = (restored?.starts ?? 0) + 1;

  if (restored !== undefined) {
    for (const task of restored.tasks.values()) store.add(task);
    store.resumeRows(restored.rows);
  }

  const dirty = new Set<TaskRecord>();
  let resetPending = false;
  let lastClock = Number.NaN;
  let lastBound: boolean | undefined;
  let journalLines = 0;
  let fd: number | undefined;
  let size = 0;
  let closed = false;

  const ioError = (what: string, error: unknown): StateFileError =>
    new StateFileError(path, undefined, `cannot ${what}: ${(error as Error).message}`);

  function openAppend(): void {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
    fd = openSync(path, 'a');
    size = fstatSync(fd).size;
  }

  /** Appends the lines (each without its newline) in writes of a few thousand lines, then fsyncs once. */
  function append(lines: readonly string[]): void {
    if (fd === undefined) openAppend();
    let written = 0;
    try {
      for (let from = 0; from < lines.length; from += 4096) {
        const bytes = Buffer.from(`${lines.slice(from, from + 4096).join('\n')}\n`, 'utf8');
        for (let offset = 0; offset < bytes.length;) offset += writeSync(fd!, bytes, offset);
        written += bytes.length;
      }
      fsyncSync(fd!);
      size += written;
    } catch (error) {
      // Drop a partial write so the file never holds half a line in the middle.
      try {
        ftruncateSync(fd!, size);
      } catch {
        // the next open sees a torn last line, which loading ignores
      }
      throw error;
    }
  }

  function compact(): void {
    const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
    const now = clock.now();
    const bound = family.bound;
    let tmpFd: number | undefined;
    try {
      tmpFd = openSync(tmp, 'w');
      const header = {
        format: STATE_FORMAT,
        version: STATE_VERSION,
        seed,
        starts,
        clock: now,
        familyBound: bound,
        rows: store.rows,
        savedAt: new Date().toISOString(),
      };
      let batch: string[] = [JSON.stringify(header)];
      const write = (): void => {
        const bytes = Buffer.from(`${batch.join('\n')}\n`, 'utf8');
        for (let offset = 0; offset < bytes.length;) offset += writeSync(tmpFd!, bytes, offset);
        batch = [];
      };
      for (const task of store.values()) {
        batch.push(taskLine(task));
        if (batch.length >= 4096) write();
      }
      if (batch.length > 0) write();
      fsyncSync(tmpFd);
      closeSync(tmpFd);
      tmpFd = undefined;
      // Windows cannot rename over an open file: the append handle is reopened after.
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      renameSync(tmp, path);
      syncDirectory(dirname(path));
    } catch (error) {
      if (tmpFd !== undefined) closeSync(tmpFd);
      try {
        unlinkSync(tmp);
      } catch {
        // never created, or already renamed
      }
      throw ioError('write it', error);
    }
    dirty.clear();
    resetPending = false;
    lastClock = now;
    lastBound = bound;
    journalLines = 0;
    try {
      openAppend();
    } catch (error) {
      fd = undefined;
      throw ioError('open it for appending', error);
    }
  }

  function flush(): void {
    if (closed) return;
    // After a reset the dirty set holds exactly the tasks added since: the reset line, then them.
    const lines: string[] = resetPending ? ['{"reset":true}'] : [];
    for (const task of dirty) if (store.get(task.id) === task) lines.push(taskLine(task));
    const now = clock.now();
    const bound = family.bound;
    if (lines.length > 0 || now !== lastClock || bound !== lastBound)
      lines.push(JSON.stringify({ clock: now, familyBound: bound }));
    if (lines.length === 0) return;
    try {
      append(lines);
    } catch (error) {
      throw ioError('append to it', error);
    }
    dirty.clear();
    const wasReset = resetPending;
    resetPending = false;
    lastClock = now;
    lastBound = bound;
    journalLines += lines.length;
    // The journal repeats tasks (changed ones) and clock lines: rewrite it once it outgrows the store,
    // and after a reset (the file shrinks to what is left).
    if (wasReset || journalLines > Math.max(100_000, 2 * store.size)) compact();
  }

  // Record this start before serving anything, so that even after a crash the next start draws
  // different task IDs (`randomSeedFor`).
  try {
    if (
      restored === undefined ||
      restored.lines - 1 - restored.tasks.size > Math.max(1_000, restored.tasks.size)
    ) {
      compact();
    } else {
      openAppend();
      if (restored.ignoredBytes > 0) ftruncateSync(fd!, restored.validBytes);
      size = restored.validBytes;
      if (restored.missingNewline) append(['']);
      append([JSON.stringify({ start: starts, clock: clock.now(), familyBound: family.bound })]);
      lastClock = Number.NaN;
      lastBound = family.bound;
      journalLines = restored.lines - 1 - restored.tasks.size + 1;
    }
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    throw error instanceof StateFileError ? error : ioError('write it', error);
  }

  store.observe({
    changed: (task) => dirty.add(task),
    cleared: () => {
      dirty.clear();
      resetPending = true;
    },
  });

  const report = (error: unknown): void => options.onError?.(error as Error);
  const timer = setInterval(() => {
    try {
      flush();
    } catch (error) {
      report(error);
    }
  }, interval);
  timer.unref();
  // A process that exits without calling close() (end of a script) still writes its last changes.
  const onExit = (): void => {
    try {
      flush();
    } catch (error) {
      report(error);
    }
  };
  process.on('exit', onExit);

  return {
    path,
    restored,
    flush,
    compact: () => {
      if (!closed) compact();
    },
    close() {
      if (closed) return;
      clearInterval(timer);
      process.off('exit', onExit);
      try {
        compact();
      } catch (error) {
        // Keep what an append can still save (a full disk may allow neither).
        try {
          flush();
        } catch {
          // reported below
        }
        throw error;
      } finally {
        closed = true;
        store.observe(undefined);
        if (fd !== undefined) closeSync(fd);
        fd = undefined;
      }
    },
  };
}

/** Makes a rename durable (the directory entry). Not every platform can open a directory: skipped there. */
function syncDirectory(directory: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(directory, 'r');
    fsyncSync(fd);
  } catch {
    // Windows and some file systems refuse: the rename is still atomic, only its durability is the OS's.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
