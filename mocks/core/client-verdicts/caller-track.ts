import type { VideoStatus } from '../../../src/spec/lifecycle.ts';
import type { Form, Observation } from './observation.ts';
import type { Evidence, VerdictEntry } from './verdict-book.ts';

/** How much of a caller's traffic is remembered (decisions/019): windows, so memory stays bounded. */
export interface ClientLimits {
  /** Callers judged; requests of further callers are only counted. Default 100. */
  readonly maxCallers: number;
  /** Tasks remembered per caller, the oldest forgotten first. Default 1,000. */
  readonly maxTasksPerCaller: number;
  /** Submissions remembered per caller for their refusals, 429s and lost answers. Default 128. */
  readonly maxAttemptsPerCaller: number;
  /** Verdict entries kept; past it, breaches are only counted. Default 1,000. */
  readonly maxVerdicts: number;
  /** Content redirects awaiting their follow-up. Default 256. */
  readonly maxPendingRedirects: number;
}

export const DEFAULT_CLIENT_LIMITS: ClientLimits = {
  maxCallers: 100,
  maxTasksPerCaller: 1_000,
  maxAttemptsPerCaller: 128,
  maxVerdicts: 1_000,
  maxPendingRedirects: 256,
};

/** A caller's queries of one task on one form: the polling loop as the rules see it. */
export interface PollStream {
  readonly form: Form;
  /** The latest query: mock time, order, method, path, status. `at` is NaN before the first. */
  at: number;
  order: number;
  method: string;
  path: string;
  status: number;
  /** The latest answer was a 2xx. */
  ok: boolean;
  /** The latest status a 2xx answer showed, its `Judging.statusBits` and its situation bit on this form. */
  told: VideoStatus | undefined;
  toldBits: number;
  toldMet: number;
  /** The interval kept just before the first `unknown` of a streak (ms), or -1. */
  baseline: number;
  /**
   * `poll-growth`'s row: intervals in a row after a running answer that did not grow (0: none), the
   * shortest of them (ms), and the mock time of the query the row started from.
   */
  flatRow: number;
  flatShortest: number;
  flatSince: number;
}

/** Who a verdict is about (a task, or a caller): it keeps its entries, to count the next breaches. */
export interface VerdictHolder {
  /** By `RuleNumber` (made on the first verdict). */
  verdicts: (VerdictEntry | undefined)[] | undefined;
}

/** One task as its caller has seen it. */
export interface TaskTrack extends VerdictHolder {
  readonly id: string;
  /** Its submission, when seen: fingerprint (0 when not), request ID, the request, its order. */
  readonly fingerprint: number;
  readonly clientRequestId: string | undefined;
  readonly submitted: Evidence | undefined;
  readonly submitOrder: number;
  /** Told `queued` or `in_progress` (the submission answer, a query). */
  seenRunning: boolean;
  /** Told `completed` or `failed`, and by which query. */
  finished: Evidence | undefined;
  /** Told `completed` (by any query): its content may be downloaded (§3 rule 2). */
  toldCompleted: boolean;
  /**
   * Mock time from which a running answer meets the situation `long-running` (its submission's time
   * plus `RuleNumbers.longRunningMs`; never when its submission was not seen).
   */
  readonly longAfter: number;
  /** Status queries before it was told finished, and after. */
  queries: number;
  rereads: number;
  /** 5xx answers to its status queries in a row (0 after any other answer). */
  failsInRow: number;
  /** The latest query of it, on whichever form. */
  latest: PollStream | undefined;
  readonly streams: PollStream[];
}

/** A caller's latest attempt of one submission (by fingerprint) and what its answers were. */
export interface AttemptRun {
  method: string;
  path: string;
  at: number;
  order: number;
  status: number;
  lost: boolean;
  /** The second family's binding when it was answered. */
  bound: boolean;
  /** Its 429's `Retry-After` in ms (-1: none). */
  retryAfterMs: number;
  /** The wait before this attempt, when it was a retry after a 429 (-1: it was not). */
  wait: number;
  /** Answers lost in a row, the first of them, and the request ID it carried. */
  lostInRow: number;
  firstLost: Evidence | undefined;
  lostClientRequestId: string | undefined;
}

/** Everything remembered of one caller, within the limits. */
export class CallerTrack implements VerdictHolder {
  verdicts: (VerdictEntry | undefined)[] | undefined = undefined;
  requests = 0;
  /** The order of its latest request. */
  latest = 0;
  /** Situations met (`situationBit`), query forms used (`FORM_BITS`), whether it used the second family. */
  met = 0;
  forms = 0;
  secondFamily = false;
  readonly tasks = new Map<string, TaskTrack>();
  readonly byFingerprint = new Map<number, TaskTrack>();
  readonly byClientRequestId = new Map<string, TaskTrack>();
  readonly attempts = new Map<number, AttemptRun>();
  /** Tasks forgotten to stay within the limits. */
  forgotten = 0;
  /** Its content redirects awaiting their follow-up (`PendingRedirects`). */
  pendingRedirects = 0;
  /** The task of its latest query: a polling loop asks the same one again, without hashing its ID. */
  #lastTask: TaskTrack | undefined = undefined;

  constructor(
    /** `Observation.caller`: the Authorization header as sent (never shown). */
    readonly caller: string,
    readonly limits: ClientLimits,
  ) {}

  /** The track of a task the caller queried, made when the task is new to it. */
  task(id: string): TaskTrack {
    const last = this.#lastTask;
    if (last !== undefined && last.id === id) return last;
    return (this.#lastTask = this.tasks.get(id) ?? this.remember(newTrack(id, undefined)));
  }

  /** Remembers a task, forgetting the oldest past the limit. */
  remember(track: TaskTrack): TaskTrack {
    if (this.tasks.size >= this.limits.maxTasksPerCaller) this.#forgetOldest();
    this.tasks.set(track.id, track);
    this.#lastTask = track;
    if (track.fingerprint !== 0) this.byFingerprint.set(track.fingerprint, track);
    if (track.clientRequestId !== undefined)
      this.byClientRequestId.set(track.clientRequestId, track);
    return track;
  }

  /** The run of a submission, made (forgetting the oldest past the limit) when `create`. */
  attempt(fingerprint: number, create: boolean): AttemptRun | undefined {
    const known = this.attempts.get(fingerprint);
    if (known !== undefined || !create) return known;
    if (this.attempts.size >= this.limits.maxAttemptsPerCaller)
      this.attempts.delete(this.attempts.keys().next().value!);
    const run: AttemptRun = {
      method: '',
      path: '',
      at: 0,
      order: 0,
      status: 0,
      lost: false,
      bound: false,
      retryAfterMs: -1,
      wait: -1,
      lostInRow: 0,
      firstLost: undefined,
      lostClientRequestId: undefined,
    };
    this.attempts.set(fingerprint, run);
    return run;
  }

  #forgetOldest(): void {
    const oldest = this.tasks.values().next().value!;
    this.tasks.delete(oldest.id);
    if (this.#lastTask === oldest) this.#lastTask = undefined;
    if (this.byFingerprint.get(oldest.fingerprint) === oldest)
      this.byFingerprint.delete(oldest.fingerprint);
    if (
      oldest.clientRequestId !== undefined &&
      this.byClientRequestId.get(oldest.clientRequestId) === oldest
    )
      this.byClientRequestId.delete(oldest.clientRequestId);
    this.forgotten++;
  }
}

/** A bit per query form, for `CallerTrack.forms`. */
export const FORM_BITS: Readonly<Record<Form, number>> = { openai: 1, wrapper: 2, native: 4 };

/**
 * A task's track; `submission` when its submission was observed, `longRunningMs` after which a running
 * answer meets `long-running`.
 */
export function newTrack(
  id: string,
  submission: Observation | undefined,
  longRunningMs = Number.POSITIVE_INFINITY,
): TaskTrack {
  return {
    longAfter: submission === undefined ? Number.POSITIVE_INFINITY : submission.at + longRunningMs,
    id,
    fingerprint: submission?.fingerprint ?? 0,
    clientRequestId: submission?.clientRequestId,
    submitted: submission === undefined ? undefined : evidenceOf(submission),
    submitOrder: submission?.order ?? 0,
    seenRunning: false,
    finished: undefined,
    toldCompleted: false,
    queries: 0,
    rereads: 0,
    failsInRow: 0,
    latest: undefined,
    streams: [],
    verdicts: undefined,
  };
}

/** The stream of a task's queries on one form. */
export function streamOf(track: TaskTrack, form: Form): PollStream {
  // A polling loop asks on one form: the stream of the task's latest query, found without a search.
  const latest = track.latest;
  if (latest !== undefined && latest.form === form) return latest;
  for (const stream of track.streams) if (stream.form === form) return stream;
  const stream: PollStream = {
    form,
    at: Number.NaN,
    order: 0,
    method: 'GET',
    path: '',
    status: 0,
    ok: false,
    told: undefined,
    toldBits: 0,
    toldMet: 0,
    baseline: -1,
    flatRow: 0,
    flatShortest: 0,
    flatSince: 0,
  };
  track.streams.push(stream);
  return stream;
}

export function evidenceOf(o: Observation): Evidence {
  const base = { method: o.method, path: o.path, at: o.at, status: o.status };
  return o.lost ? { ...base, lost: true } : base;
}

/** The latest query of a stream as evidence. */
export function streamEvidence(stream: PollStream): Evidence {
  return { method: stream.method, path: stream.path, at: stream.at, status: stream.status };
}

/** A run's latest attempt as evidence. */
export function attemptEvidence(run: AttemptRun): Evidence {
  const base = { method: run.method, path: run.path, at: run.at, status: run.status };
  return run.lost ? { ...base, lost: true } : base;
}
