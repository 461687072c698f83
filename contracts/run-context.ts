import type { OperationWith } from '../src/spec/route-roles.ts';
import type { Sleep } from '../src/client/sleep.ts';
import type { CoverageNotes } from './coverage-notes.ts';
import type { HttpRecorder } from './http-recorder.ts';
import type { RunLimits } from './run-limits.ts';
import type { FamilyTarget } from './target.ts';
import type { ContractTarget } from './target.ts';
import type { Evidence, Verdicts } from './verdicts.ts';

/** A submission that was not clearly refused and named no task: it may have created one (§7). */
export interface UnconfirmedSubmission {
  /** `POST /v1/videos`. */
  readonly request: string;
  /** The client request ID the suite sent (`X-Request-Id`). */
  readonly clientRequestId: string;
  /** The service's own request ID, when its answer carried one. */
  readonly serviceRequestId?: string | undefined;
  /** `HTTP 500`, `HTTP 200 without a task ID`, `no answer: …`. */
  readonly answered: string;
}

/**
 * Tasks cost money on a real deployment: every request that could create one spends from this, one
 * unit per POST sent (a retry is another POST; a redirect is never followed). The limit is a promise
 * to whoever pays, counted as the document says tasks are created: a unit comes back when the
 * deployment refused (§7: a 4xx is the client's to fix, a 429 is retried: neither made a task). A
 * 5xx, a redirect, a time-out, a dropped connection or a 200 without a readable task may each have
 * created one (§7: "if task creation cannot be confirmed…"), so each keeps its unit for good.
 */
export class TaskBudget {
  created = 0;
  reserved = 0;
  readonly unconfirmed: UnconfirmedSubmission[] = [];

  constructor(readonly limit: number) {}

  /** Tasks that exist or may exist because of the run. */
  get spent(): number {
    return this.created + this.unconfirmed.length;
  }

  /** Units neither spent nor reserved. */
  get left(): number {
    return this.limit - this.spent - this.reserved;
  }

  /**
   * Reserves one task for a request that may create it, leaving `keep` units untouched; false when the
   * budget does not allow it.
   */
  reserve(keep = 0): boolean {
    if (this.spent + this.reserved + keep >= this.limit) return false;
    this.reserved++;
    return true;
  }

  /** Settles a reservation by how the submission ended; only a clear refusal gives the unit back. */
  settle(outcome: 'created' | 'refused' | UnconfirmedSubmission): void {
    this.reserved--;
    if (outcome === 'created') this.created++;
    else if (outcome !== 'refused') this.unconfirmed.push(outcome);
  }
}

/**
 * An input of the run that the deployment showed to be wrong: a second key it refuses, a model its
 * catalog does not list. Never a verdict on the deployment: the run exits 2 and says what to fix.
 */
export interface InputError {
  readonly message: string;
  /** Nothing is submitted once it is known (a typo must never spend the budget). */
  readonly stopsSubmissions: boolean;
}

/** One task the run creates and follows: where it is submitted, with what, and what it is for. */
export interface LifecycleTask {
  /** "via POST /v1/videos", "expected to fail", … */
  readonly name: string;
  readonly route: OperationWith<{ kind: 'submit' }>;
  readonly model: string;
  readonly prompt: string;
  /** Submitted by the operator's failing model or prompt (§7): the `failed` column. */
  readonly expectFailure: boolean;
}

/** A valid lifecycle submission refused with a 4xx: an input error, or a §4.1 failure (lifecycle-tasks.ts). */
export interface RefusedTask {
  readonly task: LifecycleTask;
  /** `/v1/videos`. */
  readonly path: string;
  readonly status: number;
  readonly evidence: Evidence;
}

/** 429s the run waited out and asked again (§7), by what was asked. */
export interface Retries {
  submissions: number;
  queries: number;
}

export interface RunContext {
  readonly target: ContractTarget;
  /** Whether probes are sent as another user: a second key was given and the deployment accepts it. */
  otherCaller: boolean;
  /** Inputs the deployment showed to be wrong (the report's `inputErrors`; exit 2). */
  readonly inputErrors: InputError[];
  /** Valid lifecycle submissions refused (4xx), judged once every lifecycle submission has its answer. */
  readonly refusedTasks: RefusedTask[];
  /** The 429s waited out and asked again. */
  readonly retries: Retries;
  /** A submission stayed rate limited (429) through all its tries: probes are not retried after. */
  rateLimitPersisted: boolean;
  /** The second family's native path, once the catalog shows it open to this key (§4.5). */
  native: FamilyTarget | undefined;
  /**
   * The model the key may not use that the run submits to be refused (§5): `--forbidden-model`, until
   * the catalog shows it listed for this key (an input error: the key may use it).
   */
  forbiddenModel: string | undefined;
  readonly recorder: HttpRecorder;
  /** The run's deadline and early stop (the target stopped answering). */
  readonly limits: RunLimits;
  readonly verdicts: Verdicts;
  readonly budget: TaskBudget;
  readonly notes: string[];
  /** Why cells were not observed, as the run learns it. */
  readonly coverage: CoverageNotes;
  /** Time as the run measures and waits it: real time, or a test's virtual clock. */
  readonly clock: RunClock;
  /** Live progress for a person watching (one line each). */
  readonly progress: (line: string) => void;
}

export interface RunClock {
  /** Milliseconds, for durations only. */
  now(): number;
  sleep: Sleep;
}
