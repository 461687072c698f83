import { checkFunction, checkNumber } from '../client/check-options.ts';
import type { VideoTask } from '../client/client-types.ts';
import { PollTimeoutError } from '../client/errors.ts';
import type { JournalRecord, TaskJournal } from '../client/journal.ts';
import { pollTask, type GetTask, type PollOptions } from '../client/poller.ts';

/**
 * Poll options of a resume: the stop statuses are always the lifecycle's (a `final` is only
 * `completed` or `failed`).
 */
export type ResumePollOptions = Omit<PollOptions, 'stopOn'>;

export interface ResumeOptions {
  /** Tasks polled at the same time. Default 4. */
  readonly concurrency?: number;
  /** Called after every successful query of every task. */
  readonly onUpdate?: (record: JournalRecord, task: VideoTask, attempt: number) => void;
}

/** How the poll of one journaled `active` task ended. */
export type ResumeResult =
  | {
      readonly clientRequestId: string;
      readonly taskId: string;
      readonly outcome: 'completed' | 'failed';
      readonly task: VideoTask;
      readonly attempts: number;
      readonly errorCode?: string;
    }
  /** Still running when the poll gave up (`PollTimeoutError`): no `final` written; resume again later. */
  | {
      readonly clientRequestId: string;
      readonly taskId: string;
      readonly outcome: 'timed-out';
      readonly error: PollTimeoutError;
      readonly lastStatus: string | undefined;
    }
  /** The query failed for good (404, 4xx, retries exhausted) or the `final` could not be written. */
  | {
      readonly clientRequestId: string;
      readonly taskId: string;
      readonly outcome: 'error';
      readonly error: unknown;
    };

/** A submission whose outcome is unknown: checked by hand, never resubmitted (§7). */
export interface ManualCheck {
  readonly record: JournalRecord;
  readonly message: string;
}

export interface ResumeSummary {
  readonly results: readonly ResumeResult[];
  readonly needsCheck: readonly ManualCheck[];
  /** Records already final or refused: nothing to do. */
  readonly settled: number;
  /** The journal's last line was torn (ignored, reported by `read()`). */
  readonly tornTail: boolean;
}

/**
 * Picks up after a restart (§8): polls every `active` record (submitted, no final) to its end with
 * `pollTask`, at most `concurrency` at a time, and appends a `final` entry for each one that reaches
 * `completed` or `failed`. Never submits anything: `submitting` (the process died mid-submission) and
 * `unconfirmed` records are returned in `needsCheck`, to be looked up by client request ID (§7). An abort of
 * `pollOptions.signal` rejects with its reason once the polls in flight have stopped.
 *
 * @example
 * const summary = await resumeJournal(journal, (id, signal) => client.getVideo(id, { signal }), {
 * timeoutMs: 20 * 60_000 });
 * for (const check of summary.needsCheck) console.warn(check.message);
 */
export async function resumeJournal(
  journal: TaskJournal,
  getTask: GetTask,
  pollOptions: ResumePollOptions = {},
  options: ResumeOptions = {},
): Promise<ResumeSummary> {
  checkFunction('getTask', getTask);
  const concurrency = checkNumber('concurrency', options.concurrency ?? 4, 1, true);
  if (options.onUpdate !== undefined) checkFunction('onUpdate', options.onUpdate);
  pollOptions.signal?.throwIfAborted();
  const state = await journal.read();
  const active = state.records.filter(
    (r): r is JournalRecord & { taskId: string } => r.state === 'active' && r.taskId !== undefined,
  );
  const needsCheck = state.records
    .filter((r) => r.state === 'submitting' || r.state === 'unconfirmed')
    .map(manualCheck);

  const results: ResumeResult[] = new Array<ResumeResult>(active.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < active.length && pollOptions.signal?.aborted !== true) {
      const index = next++;
      results[index] = await resumeOne(
        journal,
        getTask,
        active[index]!,
        pollOptions,
        options.onUpdate,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, active.length) }, worker));
  pollOptions.signal?.throwIfAborted();
  return {
    results,
    needsCheck,
    settled: state.records.length - active.length - needsCheck.length,
    tornTail: state.tornTail,
  };
}

async function resumeOne(
  journal: TaskJournal,
  getTask: GetTask,
  record: JournalRecord & { taskId: string },
  pollOptions: ResumePollOptions,
  onUpdate: ResumeOptions['onUpdate'],
): Promise<ResumeResult> {
  const { clientRequestId, taskId } = record;
  const outer = pollOptions.onUpdate;
  try {
    const { stopOn: _ignored, ...rest } = pollOptions as PollOptions;
    const { task, attempts } = await pollTask(getTask, taskId, {
      ...rest,
      onUpdate: (task, attempt) => {
        outer?.(task, attempt);
        onUpdate?.(record, task, attempt);
      },
    });
    const status = task.status === 'failed' ? 'failed' : 'completed';
    const errorCode = task.error?.code;
    await journal.append({
      type: 'final',
      taskId,
      status,
      ...(errorCode !== undefined ? { errorCode } : {}),
    });
    return {
      clientRequestId,
      taskId,
      outcome: status,
      task,
      attempts,
      ...(errorCode !== undefined ? { errorCode } : {}),
    };
  } catch (error) {
    if (error instanceof PollTimeoutError)
      return { clientRequestId, taskId, outcome: 'timed-out', error, lastStatus: error.lastStatus };
    return { clientRequestId, taskId, outcome: 'error', error };
  }
}

function manualCheck(record: JournalRecord): ManualCheck {
  const what =
    record.state === 'submitting'
      ? 'the process stopped while submitting it'
      : `its submission could not be confirmed (${record.reason ?? 'no reason recorded'})`;
  return {
    record,
    message:
      `Request ${record.clientRequestId} (${record.model}, ${record.submittedAt}): ` +
      `${what}. A task may exist. It was not resubmitted: check it by this ` +
      `request ID in your own records or with the service's administrator ` +
      `before submitting again (the service has no lookup by request ID).`,
  };
}
