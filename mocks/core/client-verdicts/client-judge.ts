import { CLIENT_RULES, type ClientRule } from '../../../src/spec/client-rules.ts';
import type { Lifecycle, VideoStatus } from '../../../src/spec/lifecycle.ts';
import type { Clock } from '../clock.ts';
import {
  CallerTrack,
  DEFAULT_CLIENT_LIMITS,
  evidenceOf,
  type ClientLimits,
  type TaskTrack,
} from './caller-track.ts';
import { running, STATUS, type Judging } from './judging.ts';
import type { Observation } from './observation.ts';
import { PendingRedirects } from './pending-redirects.ts';
import { judgeQuery } from './polling-rules.ts';
import { judgeRequest, unissuedTask } from './request-rules.ts';
import { RECOMMENDED_POLLING } from '../../../src/spec/polling.ts';
import {
  JUDGED_RULES,
  RULE,
  ruleNumbers,
  ruleTable,
  type RuleNumber,
  type RuleNumbers,
  type RuleTable,
} from './rule-table.ts';
import { situationBit } from './situations.ts';
import { judgeSubmission } from './submission-rules.ts';
import { Timing } from './timing.ts';
import { ToolTraffic } from './tool-traffic.ts';
import { again, VerdictBook, type VerdictDraft, type VerdictEntry } from './verdict-book.ts';

export interface JudgeOptions {
  readonly clock: Clock;
  readonly lifecycle: Lifecycle;
  /** A task's status at a mock time; `undefined` when the deployment has no such task. */
  readonly taskStatus: (taskId: string, at: number) => VideoStatus | undefined;
  readonly limits?: Partial<ClientLimits> | undefined;
  /** The rules (default: the service spec's `x-client-rules`). */
  readonly rules?: readonly ClientRule[] | undefined;
  /**
   * Whether a Bearer key is one the deployment knows (the mock: its token directory). A request with a
   * key it does not know is no caller's (issue 33 item 7): it is only counted. Without this, a key whose
   * first request was answered 401 is no caller (a proxy judging a real deployment's traffic).
   */
  readonly knownKey?: ((key: string) => boolean) | undefined;
}

/** The caller of every request without a Bearer key: one, whatever header it sent instead. */
const NO_KEY = '';

/**
 * How long after a content redirect (real ms, on the mock's clock) a caller's next request shows that
 * it did not follow it: an HTTP client follows at once, and a request sent meanwhile (a concurrent
 * download) does not count. On a manual clock: any later request once the clock moved.
 */
const FOLLOW_WINDOW_REAL_MS = 1_000;

/** No violation (shared, never written: a request that breaks nothing allocates no list). */
const NONE: readonly VerdictEntry[] = Object.freeze([]);

const MET = {
  unauthorized: situationBit('refused-401'),
  redirect: situationBit('content-redirect'),
  early: situationBit('content-before-completion'),
  notFound: situationBit('task-not-found'),
  expired: situationBit('expired-result'),
  downloaded: situationBit('content-download'),
};

/**
 * Judges each caller's traffic by the client rules, one observation at a time, in the order they
 * arrive (decisions/019). Everything it keeps is bounded (`ClientLimits`).
 */
export class ClientJudge implements Judging {
  readonly rules: RuleTable;
  readonly numbers: RuleNumbers;
  /** Every rule of `x-client-rules`, judged or not. */
  readonly allRules: readonly ClientRule[];
  readonly limits: ClientLimits;
  readonly book: VerdictBook;
  readonly #options: JudgeOptions;
  readonly #callers = new Map<string, CallerTrack>();
  readonly #redirects: PendingRedirects;
  /** The violations of the observation being judged: `NONE`, or a list of its own. */
  #breached: readonly VerdictEntry[] = NONE;
  readonly #statusBits: ReadonlyMap<string, number>;
  #generation = 0;
  /** Requests of callers past `maxCallers`, and situations met by requests of no caller. */
  #untracked = 0;
  /** Requests with a Bearer key the deployment does not know: no caller's (issue 33 item 7). */
  #unknownKeys = 0;
  /** What the project's own tools sent, set apart from the verdicts (decisions/045). */
  readonly tools = new ToolTraffic();
  /** The observation being judged is a tool's that may not break a rule (a covered client retry). */
  #exempt = false;
  /** Requests the judge failed on (answered all the same), and why the first one failed. */
  #notJudged = 0;
  #firstFailure: string | undefined;
  #anonymousMet = 0;
  #last: CallerTrack | undefined;
  /** Every timing comparison, on the clock's mode and speed (fixed for its life): decisions/044. */
  readonly timing: Timing;
  readonly #followWindowMs: number;

  constructor(options: JudgeOptions) {
    this.#options = options;
    this.timing = new Timing(options.clock);
    this.#followWindowMs =
      options.clock.mode === 'manual' ? 0 : this.timing.onClock(FOLLOW_WINDOW_REAL_MS);
    this.allRules = options.rules ?? CLIENT_RULES;
    this.rules = ruleTable(this.allRules);
    this.numbers = ruleNumbers(this.rules, RECOMMENDED_POLLING);
    this.limits = { ...DEFAULT_CLIENT_LIMITS, ...options.limits };
    this.book = new VerdictBook(this.limits.maxVerdicts);
    this.#redirects = new PendingRedirects(this.limits.maxPendingRedirects);
    const { lifecycle } = options;
    const bits = new Map<string, number>();
    const mark = (values: readonly string[], bit: number) => {
      for (const status of values) bits.set(status, (bits.get(status) ?? 0) | bit);
    };
    mark(lifecycle.stopPolling.values, STATUS.stops);
    mark(lifecycle.pollAgain.values, STATUS.again);
    mark(lifecycle.slowDown.values, STATUS.slows);
    this.#statusBits = bits;
  }

  /**
   * Judges one observation. Returns the violations it made (a list of its own, or a shared empty
   * one), for a host that fails the offending request.
   */
  judge(o: Observation): readonly VerdictEntry[] {
    this.#breached = NONE;
    if (o.generation !== this.#generation) {
      if (o.generation < this.#generation) return this.#breached; // from before a reset
      this.clear(o.generation);
    }
    if (o.kind === 'artifact') {
      this.#artifact(o);
      return this.#breached;
    }
    // `> 0`: an observation made elsewhere without a tool (or with none of `TOOLS`) is the client's.
    if (o.tool > 0 && this.tools.setApart(this, o)) return this.#breached;
    const caller = this.#caller(o);
    if (caller === undefined) return this.#breached;
    // The caller's earlier redirects first: a covered retry covers only itself.
    if (caller.pendingRedirects > 0)
      this.#redirects.settleCaller(this, caller, o, this.#followWindowMs);
    if (o.tool > 0 && this.tools.covers(caller, o)) {
      this.#exempt = true;
      this.#judgeCaller(caller, o);
      this.#exempt = false;
    } else this.#judgeCaller(caller, o);
    return this.#breached;
  }

  #judgeCaller(caller: CallerTrack, o: Observation): void {
    caller.requests++;
    if (o.order > caller.latest) caller.latest = o.order;
    if (o.status === 401) caller.met |= MET.unauthorized;
    if (o.flags !== 0) judgeRequest(this, caller, o);
    if (o.kind === 'submit') judgeSubmission(this, caller, o);
    else if (o.kind === 'query') judgeQuery(this, caller, o);
    else if (o.kind === 'content') this.#content(caller, o);
  }

  /** The track of a caller the judge knows, by its `Observation.caller` (no track is made). */
  known(caller: string): CallerTrack | undefined {
    return this.#callers.get(caller.startsWith('Bearer ') ? caller : NO_KEY);
  }

  /** Counts one more breach of a rule the task (or else the caller) has broken before; false when it has not. */
  #repeat(rule: RuleNumber, caller: CallerTrack, task: TaskTrack | undefined, at: number): boolean {
    if (this.#exempt) return true; // a covered retry of the reference client's is not the client's doing
    const entry = (task ?? caller).verdicts?.[rule];
    if (entry === undefined) return false;
    again(entry, at);
    if (entry.rule.outcome === 'violation') this.#violated(entry);
    return true;
  }

  breach(
    number: RuleNumber,
    caller: CallerTrack,
    task: TaskTrack | undefined,
    at: number,
    draft: () => VerdictDraft,
  ): void {
    if (this.#repeat(number, caller, task, at)) return;
    const rule = this.rules[JUDGED_RULES[number]!];
    const holder = task ?? caller;
    const entry = this.book.add(rule, caller.caller, task?.id, at, draft);
    // One slot per judged rule, made at its length (as small as a Map of one entry; never resized).
    if (entry !== undefined)
      (holder.verdicts ??= new Array<VerdictEntry | undefined>(JUDGED_RULES.length))[number] =
        entry;
    if (rule.outcome !== 'violation') return;
    // Past the book's limit a violation still fails its request (a host's onClientViolation).
    const made = {
      rule,
      caller: caller.caller,
      taskId: task?.id,
      count: 1,
      firstAt: at,
      lastAt: at,
    };
    this.#violated(entry ?? { ...made, ...draft() });
  }

  #violated(entry: VerdictEntry): void {
    if (this.#breached === NONE) this.#breached = [entry];
    else (this.#breached as VerdictEntry[]).push(entry);
  }

  unfinished(taskId: string, at: number): boolean {
    return this.pollsAgain(this.#options.taskStatus(taskId, at));
  }

  statusBits(status: VideoStatus | undefined): number {
    return status === undefined ? 0 : (this.#statusBits.get(status) ?? 0);
  }

  stopsPolling(status: VideoStatus): boolean {
    return (this.statusBits(status) & STATUS.stops) !== 0;
  }

  isRunning(status: VideoStatus): boolean {
    return running(this.statusBits(status));
  }

  pollsAgain(status: VideoStatus | undefined): boolean {
    return (this.statusBits(status) & STATUS.again) !== 0;
  }

  /**
   * Judges what can be judged only later (unfollowed redirects); a report does this first. Returns the
   * violations it made, for a host's listeners (they fail no request: none is being answered).
   */
  settle(): readonly VerdictEntry[] {
    this.#breached = NONE;
    this.#redirects.settle(this);
    const made = this.#breached;
    this.#breached = NONE;
    return made;
  }

  callers(): IterableIterator<CallerTrack> {
    return this.#callers.values();
  }

  /** Requests of callers past the limit; situations met by requests without a caller. */
  get untracked(): number {
    return this.#untracked;
  }

  /** Requests with a Bearer key the deployment does not know (no caller's). */
  get unknownKeys(): number {
    return this.#unknownKeys;
  }

  /** Requests the judging failed on: each was answered all the same (issue 33 item 1). */
  get notJudged(): { readonly requests: number; readonly firstFailure: string | undefined } {
    return { requests: this.#notJudged, firstFailure: this.#firstFailure };
  }

  /** Counts a request the judging failed on; its answer went out unchanged. */
  failed(error: unknown): void {
    this.#notJudged++;
    this.#firstFailure ??=
      error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }

  get anonymousMet(): number {
    return this.#anonymousMet;
  }

  /** Forgets everything (a reset, or `DELETE /__mock/client-report`). */
  clear(generation = this.#generation): void {
    this.#generation = generation;
    this.#callers.clear();
    this.book.clear();
    this.#redirects.clear();
    this.#untracked = 0;
    this.#unknownKeys = 0;
    this.tools.clear();
    this.#notJudged = 0;
    this.#firstFailure = undefined;
    this.#anonymousMet = 0;
    this.#last = undefined;
  }

  /**
   * The caller of a request: its Bearer key's track, made on its first request; every request without
   * a Bearer key is one caller's (`NO_KEY`). A key the deployment does not know is no caller (issue 33
   * item 7: made-up keys never take the places of the callers the report is for): its requests are
   * counted, and a 401 they met is met by no caller. Past `maxCallers` known callers, only counted.
   */
  #caller(o: Observation): CallerTrack | undefined {
    const header = o.caller;
    // The same caller as the last request, without hashing its header again (a polling loop).
    if (header === this.#last?.caller) return this.#last;
    const key = header.startsWith('Bearer ') ? header : NO_KEY;
    const known = this.#callers.get(key);
    if (known !== undefined) return (this.#last = known);
    if (key !== NO_KEY && !this.#isKnown(key, o)) {
      this.#unknownKeys++;
      if (o.status === 401) this.#anonymousMet |= MET.unauthorized;
      return undefined;
    }
    if (this.#callers.size >= this.limits.maxCallers) {
      this.#untracked++;
      return undefined;
    }
    const caller = new CallerTrack(key, this.limits);
    this.#callers.set(key, caller);
    return caller;
  }

  #isKnown(header: string, o: Observation): boolean {
    const { knownKey } = this.#options;
    return knownKey === undefined ? o.status !== 401 : knownKey(header.slice(7).trim());
  }

  #knowing(taskId: string): CallerTrack | undefined {
    for (const caller of this.#callers.values()) if (caller.tasks.has(taskId)) return caller;
    return undefined;
  }

  /** §4.4 redirects, §3 rule 2 (content after completion) and §1 (the client keeps the ID). */
  #content(caller: CallerTrack, o: Observation): void {
    if (o.taskId === undefined) {
      if (o.status === 400 || o.status === 404) {
        caller.met |= MET.notFound;
        unissuedTask(this, caller, o);
      }
      return;
    }
    const track = caller.tasks.get(o.taskId);
    if (track !== undefined && !track.toldCompleted) this.#guessed(caller, track, o);
    if (o.status >= 300 && o.status < 400) {
      caller.met |= MET.redirect;
      this.#redirects.sent(caller, o);
    }
    if (o.status >= 200 && o.status < 400 && o.told === 'completed') caller.met |= MET.downloaded;
    else if (o.status >= 400 && o.status < 500 && o.told !== 'completed') caller.met |= MET.early;
  }

  /** §3 rule 2: content asked for before any answer told the caller the task completed. */
  #guessed(caller: CallerTrack, track: TaskTrack, o: Observation): void {
    const told = track.finished === undefined ? 'never told it finished' : 'told it failed';
    this.breach(RULE['content-after-completion'], caller, track, o.at, () => ({
      message:
        `asked for the content of ${track.id} (answered ${o.status}) before any answer told it ` +
        `the task completed (${track.queries === 0 ? 'it never queried the task' : told})`,
      requests: [...(track.submitted === undefined ? [] : [track.submitted]), evidenceOf(o)],
    }));
  }

  /**
   * A temporary address: a redirect followed, or an expired result (410). Its caller: the key it
   * carries, else the one whose redirect it follows, else the one that knows its task (a `metadata.url`
   * fetched as is, without a key).
   */
  #artifact(o: Observation): void {
    const following = this.#redirects.followed(o.location);
    const caller = o.caller.startsWith('Bearer ')
      ? this.#callers.get(o.caller)
      : (following ?? this.#knowing(artifactTask(o.path)));
    if (caller !== undefined) {
      caller.requests++;
      if (o.order > caller.latest) caller.latest = o.order;
    }
    if (o.status !== 410) return;
    if (caller !== undefined) caller.met |= MET.expired;
    else this.#anonymousMet |= MET.expired;
  }
}

/** The task of a temporary address (`/__artifacts/task_….mp4`). */
function artifactTask(path: string): string {
  const file = path.slice(path.lastIndexOf('/') + 1);
  return file.endsWith('.mp4') ? file.slice(0, -4) : file;
}
