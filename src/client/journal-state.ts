import { JournalError } from './errors.ts';
import { parseEntry, type StoredEntry } from './journal-entries.ts';
import { Redactor } from '../redaction/redactor.ts';

/**
 * What a journal file says, folded into one record per client request ID (§8). `submitting` with nothing
 * after it means the process died mid-submission: like `unconfirmed`, the task may exist and must be
 * checked by request ID against the client's own records or with an administrator, never resubmitted blindly (§7).
 */
export type RecordState =
  'submitting' | 'unconfirmed' | 'refused' | 'active' | 'completed' | 'failed';

export interface JournalRecord {
  /** The client's own request ID of the submission (sent as `X-Request-Id`). */
  readonly clientRequestId: string;
  readonly model: string;
  /** The submission endpoint; absent only when the journal has no `submitting` entry for it. */
  readonly endpoint?: string;
  /** ISO time of the first entry for this client request ID. */
  readonly submittedAt: string;
  readonly taskId?: string;
  readonly state: RecordState;
  /** `error.code` of a failed task, or the code of a refusal. */
  readonly errorCode?: string;
  /** Why it is unconfirmed, or the refusal's message. */
  readonly reason?: string;
  /** ISO time of the last entry for this client request ID. */
  readonly updatedAt: string;
}

export interface JournalState {
  /** In the order their first entry was written. */
  readonly records: readonly JournalRecord[];
  /** The last line lacked its newline and was not an entry (a crash mid-append): it was ignored, nothing before it. */
  readonly tornTail: boolean;
  /** Lines that were torn tails once and were terminated by a later append (ignored). */
  readonly terminatedFragments: readonly number[];
  /** `final` entries for a task ID no `submitted` entry names (kept, not folded). */
  readonly orphans: readonly { readonly line: number; readonly entry: StoredEntry }[];
}

/** The lines of a journal file, classified without throwing. */
export interface JournalScan {
  readonly entries: readonly { readonly line: number; readonly entry: StoredEntry }[];
  /** The 1-based line number of a torn last line (one without its final newline), if any. */
  readonly tornLine: number | undefined;
  /** Whether the file lacks a newline after its last byte. */
  readonly missingNewline: boolean;
  readonly terminatedFragments: readonly number[];
  /** Complete lines (newline-terminated) that are not entries, not marked as terminated fragments: damage. */
  readonly corrupt: readonly {
    readonly line: number;
    readonly problem: string;
    readonly text: string;
  }[];
}

/**
 * Classifies every line of `text`: entries, the torn tail, terminated fragments and damage (among it
 * the `undecodable` lines, 1-based, whose bytes were not UTF-8).
 */
export function scanJournal(text: string, undecodable?: ReadonlySet<number>): JournalScan {
  const raw = text.split('\n');
  const missingNewline = raw[raw.length - 1] !== '';
  const parsed = raw.map((content, i) => ({
    line: i + 1,
    content,
    result: undecodable?.has(i + 1)
      ? 'its bytes are not valid UTF-8 (the journal is written in UTF-8: it was changed or damaged)'
      : content.trim() === ''
        ? undefined
        : parseLine(content),
  }));
  // Only the very last line, and only without its newline, can be a write cut short by a crash: each
  // entry goes out in one write ending in "\n". A complete line that is bad is damage, wherever it is.
  const lastLine = missingNewline ? raw.length : undefined;
  const marked = new Set<number>();
  for (const p of parsed)
    if (typeof p.result === 'object' && p.result.type === 'torn') marked.add(p.result.line);

  const entries: { line: number; entry: StoredEntry }[] = [];
  const corrupt: { line: number; problem: string; text: string }[] = [];
  const terminatedFragments: number[] = [];
  let tornLine: number | undefined;
  for (const p of parsed) {
    if (p.result === undefined) continue;
    if (marked.has(p.line)) terminatedFragments.push(p.line);
    else if (p.line === lastLine) tornLine = p.line;
    else if (typeof p.result === 'string')
      corrupt.push({ line: p.line, problem: p.result, text: p.content });
    else if (p.result.type !== 'torn') entries.push({ line: p.line, entry: p.result });
  }
  return { entries, tornLine, missingNewline, terminatedFragments, corrupt };
}

/**
 * Folds a scan into records. Throws `JournalError` naming the file and line when a complete line is
 * damaged (the last one included): a journal is never read by silently dropping data.
 */
export function foldJournal(scan: JournalScan, file: string): JournalState {
  refuseDamage(scan, file);
  const records = new Map<string, JournalRecord>();
  const byTask = new Map<string, string>();
  const orphans: { line: number; entry: StoredEntry }[] = [];
  const update = (
    clientRequestId: string,
    at: string,
    change: Partial<JournalRecord> & { state: RecordState },
    model?: string,
  ): void => updateRecord(records, clientRequestId, at, change, model);
  for (const { line, entry } of scan.entries) {
    if (entry.type === 'submitting')
      update(
        entry.clientRequestId,
        entry.at,
        { state: 'submitting', endpoint: entry.endpoint },
        entry.model,
      );
    else if (entry.type === 'submitted') {
      byTask.set(entry.taskId, entry.clientRequestId);
      const active = { state: 'active', taskId: entry.taskId } as const;
      update(entry.clientRequestId, entry.at, active, entry.model);
    } else if (entry.type === 'unconfirmed')
      update(entry.clientRequestId, entry.at, { state: 'unconfirmed', reason: entry.reason });
    else if (entry.type === 'refused')
      update(entry.clientRequestId, entry.at, {
        state: 'refused',
        ...(entry.code !== undefined ? { errorCode: entry.code } : {}),
        ...(entry.message !== undefined ? { reason: entry.message } : {}),
      });
    else if (entry.type === 'final') {
      const clientRequestId = byTask.get(entry.taskId);
      if (clientRequestId === undefined) orphans.push({ line, entry });
      else
        update(clientRequestId, entry.at, {
          state: entry.status,
          ...(entry.errorCode !== undefined ? { errorCode: entry.errorCode } : {}),
        });
    }
  }
  return {
    records: [...records.values()],
    tornTail: scan.tornLine !== undefined,
    terminatedFragments: scan.terminatedFragments,
    orphans,
  };
}

/** Throws `JournalError` naming the file and the first damaged complete line, if there is one. */
function refuseDamage(scan: JournalScan, file: string): void {
  const first = scan.corrupt[0];
  if (first === undefined) return;
  const shown = first.text.length > 120 ? `${first.text.slice(0, 120)}…` : first.text;
  const text =
    `Task journal ${file} is damaged at line ${first.line}: ${first.problem} ` +
    `(it reads ${JSON.stringify(shown)}). Nothing was dropped; repair or ` +
    `move that line by hand.`;
  throw new JournalError(new Redactor([]).redact(text), file, first.line);
}

/** Applies one entry's change to its record (a new record when it is the first), stamped `at`. */
function updateRecord(
  records: Map<string, JournalRecord>,
  clientRequestId: string,
  at: string,
  change: Partial<JournalRecord> & { state: RecordState },
  model?: string,
): void {
  const before = records.get(clientRequestId) ?? {
    clientRequestId,
    model: model ?? '',
    submittedAt: at,
    state: change.state,
    updatedAt: at,
  };
  records.set(clientRequestId, {
    ...before,
    ...(model !== undefined ? { model } : {}),
    ...change,
    updatedAt: at,
  });
}

function parseLine(content: string): StoredEntry | string {
  try {
    return parseEntry(JSON.parse(content));
  } catch (error) {
    return `not JSON (${(error as Error).message})`;
  }
}
