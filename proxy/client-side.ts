import {
  DEFAULT_CLIENT_LIMITS,
  type ClientLimits,
} from '../mocks/core/client-verdicts/caller-track.ts';
import { ClientJudge } from '../mocks/core/client-verdicts/client-judge.ts';
import {
  buildClientReport,
  type ClientReport,
} from '../mocks/core/client-verdicts/client-report.ts';
import {
  ExchangeObserver,
  type ObservedService,
} from '../mocks/core/client-verdicts/observation.ts';
import type { Clock } from '../mocks/core/clock.ts';
import type { CoreRequest } from '../mocks/core/http/http-types.ts';
import { serviceContract, type VideoStatus } from '../src/spec/index.ts';
import type { InjectionLog } from './injection-log.ts';

/**
 * Real time, as the client lives it: the proxy's clients run on it, and so do the client rules'
 * intervals (§8 the polling pace, §7 the backoff after a 429). It never moves otherwise.
 */
export const REAL_CLOCK: Clock = {
  mode: 'real',
  speed: 1,
  now: () => Date.now(),
  advance() {
    throw new RangeError('the proxy judges its clients on the real clock, which only time moves');
  },
};

/** One exchange as the client saw it (an injected answer as it got it). */
export interface ClientExchange {
  readonly request: CoreRequest;
  /** The operation it was (`getMockArtifact` for a temporary address the proxy made). */
  readonly operationId: string;
  readonly status: number;
  /** Its `Retry-After` (a 429's), and where a redirect the client should follow sends it. */
  readonly retryAfter?: string | undefined;
  readonly location?: string | undefined;
  /** The answer never reached the client (dropped: the lost-answer fault). */
  readonly lost: boolean;
  /** The task it was about, and the state the answer told (or the task was in, for content). */
  readonly taskId: string | undefined;
  readonly told: VideoStatus | undefined;
  /** A submission's body as the client sent it. */
  readonly body: Record<string, unknown> | undefined;
  /** Wall ms: the client rules judge intervals on it. */
  readonly at: number;
}

/** What the client report adds for the proxy: what it injected, its window, what it cannot judge. */
export interface ProxyClientFacts {
  readonly upstream: string;
  readonly injections: ReturnType<InjectionLog['recent']>;
  readonly injected: InjectionLog['counts'];
  /** When the window this report judges began, and how long a window lasts (s). */
  readonly window: { readonly startedAt: string; readonly seconds: number };
  /** The window before it, as its report ended (a proxy that runs for days judges in windows). */
  readonly previousWindow?: ClientReport | undefined;
  readonly notes: readonly string[];
}

const NOTES = [
  'timing rules are judged on the real clock (no --speed): intervals are what the client waited',
  "follow-content-redirects is judged on redirects the proxy injected (content-redirect): the deployment's " +
    'own redirects send the client past the proxy, where its following cannot be seen',
];

/**
 * The client rules (mocks/core/client-verdicts) applied to the traffic through the proxy: the mock's
 * own observer and judge, told the tasks' states by what the deployment answered (the judge asks
 * whether a task was still running when a client submitted it again).
 */
export class ClientSide {
  readonly #judge: ClientJudge;
  readonly #observer: ExchangeObserver;
  readonly #bound = { familyBound: false };
  /** The window under way: its generation (a new one makes the judge start afresh) and start (ms). */
  readonly #window = { generation: 0, startedAt: REAL_CLOCK.now() };
  #previous: ClientReport | undefined;

  constructor(
    readonly taskStatus: (taskId: string) => VideoStatus | undefined,
    limits: Partial<ClientLimits> = {},
    /** How long one window of judging lasts (ms): callers the judge had no room for get it in the next. */
    readonly windowMs = 24 * 3_600_000,
  ) {
    const { lifecycle, validators } = serviceContract();
    const bound = this.#bound;
    const window = this.#window;
    const service: ObservedService = {
      clock: REAL_CLOCK,
      // A deployment's family binding is not visible from outside: it is bound once one of its
      // submissions was accepted (§1), so an earlier refusal counts as meeting it unbound.
      shared: {
        get generation() {
          return window.generation;
        },
        get familyBound() {
          return bound.familyBound;
        },
      },
      validators,
    };
    this.#observer = new ExchangeObserver(service, undefined);
    this.#judge = new ClientJudge({
      clock: REAL_CLOCK,
      lifecycle,
      limits: { ...DEFAULT_CLIENT_LIMITS, ...limits },
      taskStatus: (id) => this.taskStatus(id),
    });
  }

  get limits(): ClientLimits {
    return this.#judge.limits;
  }

  observe(x: ClientExchange): void {
    if (x.at - this.#window.startedAt >= this.windowMs) this.#nextWindow(x.at);
    try {
      const headers: Record<string, string> = {};
      if (x.retryAfter !== undefined) headers['retry-after'] = x.retryAfter;
      if (x.location !== undefined) headers['location'] = x.location;
      const o = this.#observer.observe(
        x.request,
        { status: x.status, headers, ...(x.lost ? { lost: {} } : {}) },
        { operationId: x.operationId },
        { taskId: x.taskId, at: x.at, taskStatus: x.told, body: x.body },
      );
      if (o === undefined) return;
      if (o.secondFamily && x.status >= 200 && x.status < 300) this.#bound.familyBound = true;
      this.#judge.judge(o);
    } catch (error) {
      this.#judge.failed(error);
    }
  }

  /**
   * Ends the window under way: its report is kept as the previous window's, and the judge starts
   * afresh (the observer stamps the next observations with a new generation, which clears it), so a
   * proxy that runs for months judges every caller, each window within the caps.
   */
  #nextWindow(at: number): void {
    this.#previous = buildClientReport(this.#judge, { clock: REAL_CLOCK, userOf: () => undefined });
    this.#window.generation++;
    this.#window.startedAt = at;
  }

  /**
   * The client report in the mock's shape (spec/mock-control.yaml `ClientReport`), callers masked,
   * with a `proxy` section: the faults injected, and each verdict judged on an injected answer says so.
   */
  report(facts: {
    upstream: string;
    log: InjectionLog;
  }): ClientReport & { proxy: ProxyClientFacts } {
    const report = buildClientReport(this.#judge, { clock: REAL_CLOCK, userOf: () => undefined });
    const verdicts = report.verdicts.map((verdict) => {
      const injected = verdict.requests
        .map((r) => facts.log.find(r.method, r.path, r.atMs))
        .filter((i) => i !== undefined);
      if (injected.length === 0) return verdict;
      const which = injected.map((i) => `${i.fault} (${i.section}) at ${i.at}`).join(', ');
      return { ...verdict, message: `${verdict.message} [the proxy injected: ${which}]` };
    });
    return {
      ...report,
      verdicts,
      proxy: {
        upstream: facts.upstream,
        injections: facts.log.recent(),
        injected: { ...facts.log.counts },
        window: {
          startedAt: new Date(this.#window.startedAt).toISOString(),
          seconds: this.windowMs / 1000,
        },
        ...(this.#previous === undefined ? {} : { previousWindow: this.#previous }),
        notes: NOTES,
      },
    };
  }
}
