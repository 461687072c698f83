import { operationsWith } from '../../src/spec/route-roles.ts';
import { realSleep } from '../../src/client/sleep.ts';
import { maskKey, Redactor } from '../../src/redaction/redactor.ts';
import { serviceContract } from '../../src/spec/index.ts';
import { CHECKS } from '../checks/definitions.ts';
import { computeCoverage } from '../coverage.ts';
import { HttpRecorder, keyOf, type Exchange } from '../http-recorder.ts';
import type { Caller, RouteId, TaskState } from '../matrix/index.ts';
import type { ContractReport } from '../report.ts';
import { TaskBudget, type RunContext } from '../run-context.ts';
import { RunLimits } from '../run-limits.ts';
import { contractFindings, exitStatusOf } from '../exit-status.ts';
import { DOCUMENTED_POLL } from '../target.ts';
import { REPORT_SCHEMA_VERSION, TOOL } from '../tool.ts';
import type { Outcome } from '../verdicts.ts';
import { BoundedVerdicts, TrafficCoverage } from './bounded-judging.ts';
import {
  countReplays,
  judgeSeen,
  replayedLook,
  type Judging,
  type LookBytes,
} from './judge-answers.ts';
import { TaskLedger, type LedgerLimits, type LookMemo, type TrafficTask } from './task-ledger.ts';
import { UseOrder } from '../../src/use-order.ts';

/**
 * One exchange between a client and a deployment that something other than the suite recorded (a
 * proxy in between, `videotask proxy`): what the suite's checks read, and who asked.
 */
export interface TrafficExchange {
  /**
   * The exchange; its `path` is the deployment's (its base path and query kept), `as` is decided here.
   * Read only when the answer is judged afresh (a class's getter may make it then: see `look`).
   */
  readonly exchange: Omit<Exchange, 'as'>;
  /**
   * The answer's status and bytes, when given apart from `exchange`: a polling loop's repeated answer
   * is told by them alone, and `exchange` is then never read.
   */
  readonly look?: LookBytes | undefined;
  readonly route: RouteId;
  /** The task its path names. */
  readonly taskId: string | undefined;
  /** What the caller sent as its key: the bearer token, the whole header if not one, '' without. */
  readonly key: string;
  /** A submission's body as sent, parsed (JSON); undefined otherwise. */
  readonly body: unknown;
  /** The request asked for part of the content (`Range`). */
  readonly ranged: boolean;
}

export interface TrafficLimits extends LedgerLimits {
  /** Callers (keys) told apart; the exchanges of further keys are counted, not judged. */
  readonly maxCallers: number;
  /** Violations kept with their evidence per check; further ones are counted. */
  readonly maxViolations: number;
}

/** Keys the reports keep masking after their callers were forgotten (a few hundred KiB). */
const REDACTED_KEYS = 10_000;

export const DEFAULT_TRAFFIC_LIMITS: TrafficLimits = {
  maxTasks: 10_000,
  idleMs: 60 * 60_000,
  maxCallers: 200,
  maxViolations: 50,
};

export interface TrafficJudgeOptions {
  /** The deployment's origin (`https://staging.example.com`), for the reproductions' curl lines. */
  readonly origin: string;
  readonly strict: boolean;
  readonly limits?: Partial<TrafficLimits> | undefined;
  /** Wall ms (default `Date.now`): "right after" between the query forms, and ageing. */
  readonly now?: (() => number) | undefined;
}

/** The routes whose owner's 2xx answer shows the task's state (the OpenAI form and the wrapper). */
const LOOKS: ReadonlySet<RouteId> = new Set(
  operationsWith({ kind: 'query', form: ['openai', 'wrapper'] }),
);

/** What the traffic cannot show, by check: each is reported as skipped, saying why. */
const NOT_FROM_TRAFFIC: readonly [keyof typeof CHECKS, string][] = [
  ['catalogListsModel', 'the traffic names no model the catalog must list (the suite is told one)'],
  ['modelPermissions', 'which model a key may not use is not in the traffic (--forbidden-model)'],
  ['fileUpload', 'multipart bodies are forwarded unread'],
  ['nativeMixed', "a native submission's fields are not compared with the OpenAI form's"],
  ['reachesEnd', 'how long a task is followed is up to its client, not the deployment'],
  [
    'noResubmission',
    "the proxy sends nothing of its own: a client's resubmissions are in the client report",
  ],
];

/** The reasons of last resort for cells the traffic never met. */
const FALLBACKS = [
  {
    reason: 'no request with a key the deployment refused (401) passed',
    selector: { callers: ['invalid'] as Caller[] },
  },
  { reason: 'no request without a key passed', selector: { callers: ['none'] as Caller[] } },
  {
    reason: "no caller asked about another caller's task",
    selector: { callers: ['other'] as Caller[] },
  },
  { reason: 'the traffic did not reach it', selector: {} },
];

/**
 * The contract suite's judgement of a deployment from traffic it did not make (issue 34 item 2): every
 * exchange is judged by the suite's own checks (contracts/checks), in the cell of the observation
 * space it belongs to, and the report has the suite's shape (`ContractReport`). It sends nothing and
 * so creates no task. Its memory is bounded whatever the traffic: tasks and callers capped and aged,
 * violations kept up to a limit per check (said in the report's notes).
 */
export class TrafficJudge {
  readonly limits: TrafficLimits;
  readonly #ctx: RunContext;
  readonly #verdicts: BoundedVerdicts;
  readonly #coverage: TrafficCoverage;
  readonly #tasks: TaskLedger;
  readonly #judging: Judging;
  readonly #now: () => number;
  /** The callers judged, by key, with when each was last seen (wall ms), least recently seen first. */
  readonly #keys = new UseOrder<string, number>();
  /**
   * Every key the reports may have to mask (a deployment may echo one in a body an excerpt keeps):
   * the callers judged and those forgotten since, the oldest dropped past `REDACTED_KEYS`.
   */
  readonly #redacted = new Set<string>();
  #callersForgotten = 0;
  readonly #startedAt = new Date();
  #requests = 0;
  #untracked = 0;
  #notJudged = 0;
  #firstFailure: string | undefined;
  #redactor: Redactor | undefined;

  constructor(readonly options: TrafficJudgeOptions) {
    this.limits = { ...DEFAULT_TRAFFIC_LIMITS, ...options.limits };
    const now = options.now ?? Date.now;
    this.#now = now;
    this.#verdicts = new BoundedVerdicts(
      serviceContract(),
      options.strict,
      Object.values(CHECKS),
      this.limits.maxViolations,
    );
    this.#coverage = new TrafficCoverage(1_000);
    const replayed = new Set<LookMemo>();
    this.#tasks = new TaskLedger(this.limits, now, (task) => {
      if (task.memo !== undefined) countReplays(this.#judging, task.memo);
    });
    const recorder = new HttpRecorder({
      baseUrl: options.origin,
      keys: { primary: '' },
      requestTimeoutMs: Infinity,
    });
    this.#ctx = {
      target: {
        baseUrl: options.origin,
        apiKey: '',
        model: '',
        tier: 'free',
        budget: 0,
        strict: options.strict,
        poll: DOCUMENTED_POLL,
        requestTimeoutMs: Infinity,
      },
      native: undefined,
      forbiddenModel: undefined,
      otherCaller: true,
      inputErrors: [],
      refusedTasks: [],
      retries: { submissions: 0, queries: 0 },
      rateLimitPersisted: false,
      recorder,
      limits: new RunLimits({ now }, Infinity),
      verdicts: this.#verdicts,
      budget: new TaskBudget(0),
      notes: [],
      coverage: this.#coverage,
      clock: { now, sleep: realSleep },
      progress: () => {},
    };
    for (const [check, why] of NOT_FROM_TRAFFIC) this.#verdicts.skip(CHECKS[check], why);
    this.#judging = { ctx: this.#ctx, verdicts: this.#verdicts, tasks: this.#tasks, now, replayed };
  }

  /**
   * Judges one exchange; returns the state the answer showed the task's owner (a look of any form),
   * else undefined. Never throws: a failure is counted (and the first one said) in the report. The
   * exchange's fields are read only when it is judged: a polling loop's repeated answer, replayed by
   * its bytes, is neither parsed nor copied.
   */
  judge(seen: TrafficExchange): TaskState | undefined {
    this.#requests++;
    if (!this.#track(seen.key)) {
      this.#untracked++;
      return undefined;
    }
    try {
      return this.#judgeTracked(seen);
    } catch (error) {
      this.#notJudged++;
      this.#firstFailure ??=
        error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      return undefined;
    }
  }

  #judgeTracked(seen: TrafficExchange): TaskState | undefined {
    const task = seen.taskId === undefined ? undefined : this.#tasks.get(seen.taskId);
    const look = seen.look ?? seen.exchange;
    const caller = callerOf(seen.key, look.status, task);
    const owners = caller === 'owner' && seen.route === 'getVideo';
    if (owners && replayedLook(this.#judging, task, seen.key, look)) return task!.state;
    const exchange: Exchange = { ...seen.exchange, as: keyOf(caller) };
    judgeSeen(this.#judging, { ...seen, exchange, caller, task });
    const { notes } = this.#ctx;
    if (notes.length > 100) notes.splice(50, notes.length - 100);
    const owned = caller === 'owner' && LOOKS.has(seen.route) && exchange.status < 300;
    return owned && seen.taskId !== undefined ? this.#tasks.peek(seen.taskId)?.state : undefined;
  }

  /**
   * Whether the caller's exchanges are judged: yes for one already judged (now its most recent), and for
   * a new one while there is room, or a caller unseen for `idleMs` to forget for it; else counted only.
   */
  #track(key: string): boolean {
    if (key === '') return true;
    const now = this.#now();
    if (this.#keys.has(key)) {
      this.#keys.use(key, now);
      return true;
    }
    if (this.#keys.size >= this.limits.maxCallers) {
      const [oldest, seen] = this.#keys.oldest()!;
      if (now - seen < this.limits.idleMs) return false;
      this.#keys.delete(oldest);
      this.#callersForgotten++;
    }
    this.#keys.use(key, now);
    if (!this.#redacted.has(key)) {
      if (this.#redacted.size >= REDACTED_KEYS)
        this.#redacted.delete(this.#redacted.values().next().value!);
      this.#redacted.add(key);
      this.#redactor = undefined;
    }
    return true;
  }

  /** Removes every key the traffic carried from `text`. */
  get redactor(): Redactor {
    return (this.#redactor ??= new Redactor([...this.#redacted]));
  }

  /** What the judge holds now, for a person watching its memory. */
  memory(): {
    tasks: number;
    callers: number;
    tasksEvicted: number;
    tasksAged: number;
    callersForgotten: number;
  } {
    const t = this.#tasks;
    return {
      tasks: t.size,
      callers: this.#keys.size,
      tasksEvicted: t.evicted,
      tasksAged: t.aged,
      callersForgotten: this.#callersForgotten,
    };
  }

  /**
   * The report so far, in the suite's shape (spec/contract-report.schema.json): `tier` free and no
   * task created, since the judge sent nothing; `notes` say what it judged from, its limits, and
   * `extraNotes` (what the caller adds: the faults a proxy injected).
   */
  report(extraNotes: readonly string[] = []): ContractReport {
    this.#tasks.sweep();
    for (const memo of [...this.#judging.replayed]) countReplays(this.#judging, memo);
    const verdicts = this.#verdicts;
    const results = verdicts.results();
    const counts: Record<Outcome, number> = { pass: 0, fail: 0, warn: 0, skip: 0 };
    for (const r of results) counts[r.outcome]++;
    const coverage = computeCoverage(verdicts, this.#coverage.notesFor(FALLBACKS));
    const report = {
      tool: TOOL,
      schemaVersion: REPORT_SCHEMA_VERSION,
      target: {
        baseUrl: this.options.origin,
        key:
          this.#keys.size === 0
            ? ''
            : `${maskKey([...this.#keys.keys()][0]!)} and ${this.#keys.size - 1} other key(s)`,
        model: '',
        tier: 'free',
        budget: 0,
        strict: this.options.strict,
      },
      startedAt: this.#startedAt.toISOString(),
      durationMs: Date.now() - this.#startedAt.getTime(),
      tasksCreated: 0,
      unconfirmed: [],
      requests: this.#requests,
      counts,
      ok: counts.fail === 0,
      results,
      coverage,
      inputErrors: [],
      retries: { submissions: 0, queries: 0 },
      notes: [...this.#notes(), ...extraNotes, ...this.#ctx.notes],
    };
    // The exit status a contract run with these findings would have (the one rule, contracts/exit-status.ts).
    return this.redactor.redactDeep<ContractReport>({
      ...report,
      exit: exitStatusOf(contractFindings(report)),
    });
  }

  #notes(): string[] {
    const { limits } = this;
    const memory = this.memory();
    const dropped = [...this.#verdicts.dropped].map(([id, n]) => `${id} ${n}`).join(', ');
    return [
      `judged from the traffic of ${memory.callers} caller(s): ${this.#requests} exchange(s); ` +
        'nothing was sent but what the clients sent, so no task was created for the judging',
      `memory: at most ${limits.maxTasks} tasks (${memory.tasks} now; ${memory.tasksEvicted} ` +
        `forgotten to stay within it, ${memory.tasksAged} after ${Math.round(limits.idleMs / 1000)} s ` +
        `unseen), ${limits.maxCallers} callers (${memory.callersForgotten} forgotten after the same ` +
        `time unseen), ${limits.maxViolations} violations listed per check`,
      ...(this.#untracked === 0
        ? []
        : [
            `${this.#untracked} exchange(s) of callers beyond the ${limits.maxCallers} judged at once ` +
              'were not judged',
          ]),
      ...(dropped === ''
        ? []
        : [`violations counted but not listed (past the limit per check): ${dropped}`]),
      ...(this.#notJudged === 0
        ? []
        : [`${this.#notJudged} exchange(s) could not be judged (first: ${this.#firstFailure})`]),
      'the sequence rules read the OpenAI form (GET /v1/videos/{task_id}), as the suite does; forms-agree ' +
        'compares a wrapper read right after it by the same caller',
    ];
  }
}

/**
 * Who asked, as the matrix's callers: no key, a key the deployment refused (401), another user than
 * the task's owner (§5), or the owner (of a task the traffic did not show being made: its first reader).
 */
function callerOf(key: string, status: number, task: TrafficTask | undefined): Caller {
  if (key === '') return 'none';
  if (status === 401) return 'invalid';
  if (task !== undefined && task.owner !== '' && task.owner !== key) return 'other';
  return 'owner';
}
