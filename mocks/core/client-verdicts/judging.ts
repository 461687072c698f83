import type { VideoStatus } from '../../../src/spec/lifecycle.ts';
import type { CallerTrack, TaskTrack } from './caller-track.ts';
import type { RuleNumber, RuleNumbers, RuleTable } from './rule-table.ts';
import type { Timing } from './timing.ts';
import type { VerdictDraft } from './verdict-book.ts';

/** A status's place in the lifecycle (`Judging.statusBits`): a bit per set it belongs to. */
export const STATUS = { stops: 1, again: 2, slows: 4 } as const;

/** §3 rule 1: polled again and not slowed down (`queued`, `in_progress`), from its `statusBits`. */
export function running(bits: number): boolean {
  return (bits & (STATUS.again | STATUS.slows)) === STATUS.again;
}

/** What the rules' judges need from the judge that runs them (`ClientJudge`). */
export interface Judging {
  readonly rules: RuleTable;
  readonly numbers: RuleNumbers;
  /**
   * Records one breach of a rule by a caller, about a task when the rule is about one; `draft` says
   * what happened. A breach the task (or else the caller) has made before is counted on its verdict
   * and `draft` is not called: one call judges the first breach and every repeat.
   */
  breach(
    rule: RuleNumber,
    caller: CallerTrack,
    task: TaskTrack | undefined,
    at: number,
    draft: () => VerdictDraft,
  ): void;
  /** Every timing comparison: one clock, one tolerance (decisions/044). */
  readonly timing: Timing;
  /** Whether a task exists and had not finished at mock time `at`. */
  unfinished(taskId: string, at: number): boolean;
  /** The lifecycle's sets a status is in (`STATUS` bits; 0 for `undefined`): one lookup for all three. */
  statusBits(status: VideoStatus | undefined): number;
  /** §3: `completed`, `failed` (the lifecycle's `stopPolling`). */
  stopsPolling(status: VideoStatus): boolean;
  /** §3 rule 1: `queued`, `in_progress` (polled again, never resubmitted; `unknown` aside). */
  isRunning(status: VideoStatus): boolean;
  /** §3: the states polled again (`queued`, `in_progress`, `unknown`). */
  pollsAgain(status: VideoStatus | undefined): boolean;
}
