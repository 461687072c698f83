import { Redactor } from '../redaction/redactor.ts';

/**
 * The entries of the task journal (§8: "Clients persist the task ID, submission time, model, their
 * own request ID and final status so that polling survives a restart"), one JSON object per line.
 * Only the fields listed here are ever written: an entry has no key field, and free text is
 * redacted, so an API key cannot reach the file (§5). `clientRequestId` is the client's own request
 * ID (sent as `X-Request-Id`); journals written before it was named so carry it as `requestId`,
 * and read the same.
 */
export type JournalEntry =
  /** About to send a submission: if nothing follows, the process died mid-submission. */
  | {
      readonly type: 'submitting';
      readonly clientRequestId: string;
      readonly model: string;
      readonly endpoint: string;
    }
  /** The service answered 200 with a task (§4.1). */
  | {
      readonly type: 'submitted';
      readonly clientRequestId: string;
      readonly taskId: string;
      readonly model: string;
    }
  /** The outcome is unknown (timeout, reset, 5xx, §7): the task may exist. */
  | { readonly type: 'unconfirmed'; readonly clientRequestId: string; readonly reason: string }
  /** A 4xx: nothing was created (§7). */
  | {
      readonly type: 'refused';
      readonly clientRequestId: string;
      readonly status: number;
      readonly code?: string;
      readonly message?: string;
    }
  /** The task reached a stop status (§3). */
  | {
      readonly type: 'final';
      readonly taskId: string;
      readonly status: 'completed' | 'failed';
      readonly errorCode?: string;
    };

/** Written by the journal itself, never by a caller: line `line` is a fragment left by a crash, ignored on read. */
export type TornMarker = { readonly type: 'torn'; readonly line: number };

/** An entry as stored: with the ISO time it was appended. */
export type StoredEntry = (JournalEntry | TornMarker) & { readonly at: string };

const FIELDS: Readonly<
  Record<StoredEntry['type'], Readonly<Record<string, 'string' | 'number' | 'string?'>>>
> = {
  submitting: { clientRequestId: 'string', model: 'string', endpoint: 'string' },
  submitted: { clientRequestId: 'string', taskId: 'string', model: 'string' },
  unconfirmed: { clientRequestId: 'string', reason: 'string' },
  refused: { clientRequestId: 'string', status: 'number', code: 'string?', message: 'string?' },
  final: { taskId: 'string', status: 'string', errorCode: 'string?' },
  torn: { line: 'number' },
};
const FREE_TEXT = new Set(['reason', 'message']);
/** Free text holds no key of ours, but may hold someone's bearer token or URL credentials. */
const BEARERS = new Redactor([]);

/**
 * The line for `entry` (with its trailing newline): `type`, `at`, then only the entry's own fields,
 * free text redacted. Throws `RangeError` for an entry that is not one of the types above.
 *
 * @example
 * entryLine({ type: 'submitted', clientRequestId: 'r1', taskId: 'task_1', model: 'video-pro-v1' },
 * '2026-01-01T00:00:00.000Z');
 */
export function entryLine(entry: JournalEntry | TornMarker, at: string): string {
  const out: Record<string, unknown> = { type: entry.type, at };
  const problem = checkEntry(entry);
  if (problem !== undefined) throw new RangeError(`Not a journal entry: ${problem}`);
  const source = entry as unknown as Record<string, unknown>;
  for (const field of Object.keys(FIELDS[entry.type])) {
    const value = source[field];
    // checkEntry has made every free-text field present a string.
    if (value !== undefined)
      out[field] =
        FREE_TEXT.has(field) && typeof value === 'string' ? BEARERS.redact(value) : value;
  }
  return `${JSON.stringify(out)}\n`;
}

/** The entry a parsed line holds (an entry of an older journal as today's), or why it is not one. */
export function parseEntry(value: unknown): StoredEntry | string {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return 'not a JSON object';
  const at = (value as { at?: unknown }).at;
  if (typeof at !== 'string' || Number.isNaN(Date.parse(at))) return '"at" is not an ISO time';
  const entry = withTodaysNames(value as Record<string, unknown>);
  const problem = checkEntry(entry);
  return problem ?? (entry as StoredEntry);
}

/** Journals written before the client's request ID was named `clientRequestId` call it `requestId`. */
function withTodaysNames(entry: Record<string, unknown>): Record<string, unknown> {
  if (!('requestId' in entry) || 'clientRequestId' in entry) return entry;
  const { requestId, ...rest } = entry;
  return { ...rest, clientRequestId: requestId };
}

function checkEntry(value: object): string | undefined {
  const v = value as Record<string, unknown>;
  const type = v['type'];
  if (typeof type !== 'string' || !Object.hasOwn(FIELDS, type))
    return `unknown type ${JSON.stringify(type)}`;
  for (const [field, kind] of Object.entries(FIELDS[type as StoredEntry['type']])) {
    const present = v[field];
    if (kind === 'string?' && present === undefined) continue;
    if (
      kind === 'number'
        ? typeof present !== 'number'
        : typeof present !== 'string' || (kind === 'string' && present === '')
    )
      return `${type}.${field} is missing or not a ${kind.replace('?', '')}`;
  }
  if (type === 'final' && v['status'] !== 'completed' && v['status'] !== 'failed')
    return `final.status must be completed or failed, got ${JSON.stringify(v['status'])}`;
  return undefined;
}
