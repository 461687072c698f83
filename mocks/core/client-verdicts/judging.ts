import type { VideoStatus } from '../../../src/spec/lifecycle.ts';
import type { CallerTrack } from './caller-track.ts';
import type { RuleId, RuleTable } from './rule-table.ts';
import type { VerdictDraft, VerdictEntry } from './verdict-book.ts';

/** What the rules' judges need from the judge that runs them (`ClientJudge`). */
export interface Judging {
  readonly rules: RuleTable;
  /** Records one breach of a rule; `draft` is read only the first time for its caller and task. */
  breach(
    id: RuleId,
    caller: CallerTrack,
    taskId: string | undefined,
    at: number,
    draft: () => VerdictDraft,
  ): VerdictEntry | undefined;
  /** One more breach of an entry already made. */
  again(entry: VerdictEntry, at: number): void;
  /**
   * Whether an interval (mock ms) says how long a client waited. On a manual clock, 0 says nothing:
   * the clock only moves when the test moves it, and the client may have waited in real time.
   */
  measurable(ms: number): boolean;
  /** How far apart on the mock's clock two requests may seem by timing noise alone (0 on a manual clock). */
  readonly noiseMs: number;
  /** Whether a task exists and had not finished at mock time `at`. */
  unfinished(taskId: string, at: number): boolean;
  /** §3: `completed`, `failed` (the lifecycle's `stopPolling`). */
  stopsPolling(status: VideoStatus): boolean;
  /** §3 rule 1: `queued`, `in_progress` (polled again, never resubmitted; `unknown` aside). */
  isRunning(status: VideoStatus): boolean;
  /** §3: the states polled again (`queued`, `in_progress`, `unknown`). */
  pollsAgain(status: VideoStatus | undefined): boolean;
}
