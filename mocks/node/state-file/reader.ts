import { closeSync, fstatSync, openSync, statSync, type Stats } from 'node:fs';
import { READ_WITHOUT_WAITING, notRegularFile } from '../../../src/node/file-kind.ts';
import type { KeptState } from '../../core/service/persistence.ts';
import {
  applyOperation,
  countClientRequestId,
  emptySharedState,
  type SharedState,
} from '../../core/state/shared-state.ts';
import {
  extrasFromJson,
  finite,
  integer,
  isObject,
  onlyKeys,
  operationFromJson,
  planFromJson,
  taskIdOf,
  type Fail,
} from '../../core/state/shared-state-json.ts';
import { TIME_BOUND_MS } from '../../core/task-id/task-id-layout.ts';
import {
  STATE_FORMAT,
  STATE_VERSION,
  StateFileError,
  type Header,
  type SecretRecord,
} from './format.ts';
import { MAX_LINE_BYTES, readLines } from './lines.ts';

/** What a state file held (decisions/012), with what its reader saw of the file itself. */
export interface RestoredState extends KeptState {
  readonly secret: SecretRecord;
  /** Complete lines read (header included). */
  readonly lines: number;
  /** Bytes up to the end of the last complete line. */
  readonly validBytes: number;
  /** Bytes of a torn last line (a write cut short by a crash), ignored. */
  readonly ignoredBytes: number;
  /** The file's last line is complete but has no final newline. */
  readonly missingNewline: boolean;
}

/**
 * Reads a state file. A missing or empty file is a fresh start (`undefined`); anything else that does
 * not parse throws a `StateFileError` naming the line (never a silent fresh start over a file with data),
 * and so does anything that is not a regular file (a FIFO is never waited on, a device never read).
 */
export function readStateFile(path: string): RestoredState | undefined {
  let fd: number;
  try {
    fd = openSync(path, READ_WITHOUT_WAITING);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(path, undefined, `cannot read it: ${(error as Error).message}`);
  }
  try {
    const stats = fstatSync(fd);
    refuseOddFile(path, stats);
    if (stats.size === 0) return undefined;
    return parse(path, fd, stats.size);
  } finally {
    closeSync(fd);
  }
}

/**
 * Throws a `StateFileError` unless `path` is missing or a regular file (issue 24 item 13: `--state` on a
 * FIFO hung without a word). A mock checks this before it locks the file: the lock is made next to it.
 */
export function checkStateFileKind(path: string): void {
  try {
    refuseOddFile(path, statSync(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function refuseOddFile(path: string, stats: Stats): void {
  const kind = notRegularFile(stats);
  if (kind === 'a directory')
    throw new StateFileError(path, undefined, 'it is a directory: name a file');
  if (kind !== undefined)
    throw new StateFileError(
      path,
      undefined,
      `it is ${kind}, not a regular file: name a file the mock can read and rewrite (or a new one)`,
    );
}

function parse(path: string, fd: number, size: number): RestoredState {
  let lineNumber = 0;
  const fail: Fail = (problem) => {
    throw new StateFileError(path, lineNumber, problem);
  };
  const tooLong = (n: number) =>
    new StateFileError(
      path,
      n,
      `longer than ${MAX_LINE_BYTES / 2 ** 20} MiB: not a state file line`,
    );
  let restoring: Restoring | undefined;
  let validBytes = 0;
  let ignoredBytes = 0;
  let missingNewline = false;
  for (const line of readLines(fd, size, tooLong)) {
    lineNumber++;
    let value: unknown;
    let problem: string | undefined;
    // Bytes that are not UTF-8 are never read as U+FFFD: the line was changed or damaged.
    if (!line.utf8)
      problem =
        'its bytes are not valid UTF-8 (the mock writes UTF-8: the file was changed or damaged)';
    else
      try {
        value = JSON.parse(line.text);
      } catch (error) {
        problem =
          line.text.trim() === '' ? 'an empty line' : `not JSON (${(error as Error).message})`;
      }
    if (problem !== undefined) {
      // Only a last line without its newline can be cut short by a crash (mid-character too): ignored.
      if (!line.complete && restoring !== undefined) {
        ignoredBytes = line.bytes;
        lineNumber--;
        break;
      }
      fail(problem);
    }
    if (!isObject(value)) fail('not a JSON object');
    if (restoring === undefined) restoring = new Restoring(readHeader(value, fail));
    else restoring.apply(value, fail);
    validBytes += line.bytes;
    missingNewline = !line.complete;
  }
  if (restoring === undefined) throw new StateFileError(path, 1, 'no header line');
  return { ...restoring.result(), lines: lineNumber, validBytes, ignoredBytes, missingNewline };
}

class Restoring {
  readonly shared: SharedState;
  tasks: string[] = [];
  clock: number;
  starts: number;

  constructor(readonly header: Header) {
    this.shared = emptySharedState({ mode: 'manual', now: header.clock }, header.familyBound);
    this.shared.generation = header.generation;
    this.clock = header.clock;
    this.starts = header.starts;
  }

  apply(value: Record<string, unknown>, fail: Fail): void {
    const [key] = Object.keys(value);
    if (key === 'task') {
      onlyKeys(value, ['task'], fail);
      this.tasks.push(taskIdOf(value['task'], 'task', fail));
      return;
    }
    if (key === 'op') {
      onlyKeys(value, ['op'], fail);
      const operation = operationFromJson(value['op'], fail);
      applyOperation(this.shared, operation);
      if (operation.op === 'reset') this.tasks = [];
    } else if (key === 'clock' || key === 'start') {
      onlyKeys(value, key === 'start' ? ['start', 'clock'] : ['clock'], fail);
      if (key === 'start')
        this.starts = Math.max(this.starts, integer(value['start'], 'start', 1, fail));
      this.clock = Math.max(this.clock, clockOf(value['clock'], fail));
    } else this.#entry(key, value, fail);
  }

  #entry(key: string | undefined, value: Record<string, unknown>, fail: Fail): void {
    const entry = value[key ?? ''];
    if (key === undefined || !['forced', 'extras', 'queries', 'requestId'].includes(key))
      fail(
        `unknown line: expected one of task, op, clock, start, forced, extras, queries, requestId`,
      );
    onlyKeys(value, [key], fail);
    if (!Array.isArray(entry) || entry.length !== 2) fail(`${key} must be [key, value]`);
    const [id, data] = entry as [unknown, unknown];
    if (key === 'requestId') {
      // A client request ID (the key predates `clientRequestId`: state-file-format.ts).
      if (typeof id !== 'string') fail('requestId[0] must be a string');
      countClientRequestId(
        this.shared.clientRequestIds,
        id,
        integer(data, 'requestId[1]', 1, fail),
      );
      return;
    }
    const task = taskIdOf(id, `${key}[0]`, fail);
    if (key === 'forced') this.shared.forced.set(task, planFromJson(data, fail, 'forced[1]'));
    else if (key === 'extras')
      this.shared.extras.set(task, extrasFromJson(data, fail, 'extras[1]'));
    else this.shared.queries.set(task, integer(data, 'queries[1]', 1, fail));
  }

  result(): Omit<RestoredState, 'lines' | 'validBytes' | 'ignoredBytes' | 'missingNewline'> {
    const { header } = this;
    return {
      seed: header.seed,
      secret: header.secret,
      starts: this.starts,
      clock: this.clock,
      shared: this.shared,
      tasks: this.tasks,
    };
  }
}

/** A clock position: ms within the Date range (issue 14: past it, no restart works). */
function clockOf(value: unknown, fail: Fail): number {
  const ms = finite(value, 'clock', fail);
  if (!(Math.abs(ms) <= TIME_BOUND_MS))
    fail(`clock must be within ±${TIME_BOUND_MS} ms of the epoch (the Date range), got ${ms}`);
  return ms;
}

function readHeader(value: Record<string, unknown>, fail: Fail): Header {
  if (value['format'] !== STATE_FORMAT)
    fail(`not a videotask mock state file (its first line has no "format": "${STATE_FORMAT}")`);
  if (value['version'] !== STATE_VERSION)
    fail(
      `format version ${JSON.stringify(value['version'])} is not supported ` +
        `(this mock reads version ${STATE_VERSION}; start afresh with a new file)`,
    );
  onlyKeys(
    value,
    [
      'format',
      'version',
      'seed',
      'secret',
      'secretFingerprint',
      'starts',
      'clock',
      'generation',
      'familyBound',
      'savedAt',
    ],
    fail,
  );
  const seed = value['seed'];
  if (!(typeof seed === 'string' || (typeof seed === 'number' && Number.isFinite(seed))))
    fail('seed must be a number or a string');
  if (typeof value['familyBound'] !== 'boolean') fail('familyBound must be true or false');
  return {
    seed: seed,
    secret: secretOf(value, fail),
    starts: integer(value['starts'], 'starts', 0, fail),
    clock: clockOf(value['clock'], fail),
    generation: integer(value['generation'], 'generation', 0, fail),
    familyBound: value['familyBound'],
  };
}

function secretOf(value: Record<string, unknown>, fail: Fail): SecretRecord {
  const secret = value['secret'];
  const fingerprint = value['secretFingerprint'];
  if (secret !== undefined) {
    if (typeof secret !== 'string' || secret === '') fail('secret must be a non-empty string');
    return { kept: secret };
  }
  if (typeof fingerprint !== 'string' || !/^[0-9a-f]{16}$/.test(fingerprint))
    fail('the header needs "secret" or "secretFingerprint" (16 hex digits)');
  return { fingerprint: fingerprint };
}
