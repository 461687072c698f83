import type { Lifecycle } from '../../../src/spec/lifecycle.ts';
import type { CoreRequest, CoreResponse } from '../http/http-types.ts';
import { snapshot } from '../plan/snapshot.ts';
import type { TaskStore } from '../task/store.ts';
import type { TokenDirectory } from '../keys/tokens.ts';
import { wallNow, type Clock } from '../clock.ts';
import type { ClientLimits } from './caller-track.ts';
import { ClientJudge } from './client-judge.ts';
import {
  buildClientReport,
  verdictsOf,
  type ClientReport,
  type ClientVerdict,
  type ReportSources,
} from './client-report.ts';
import {
  ExchangeObserver,
  type ExchangeNotes,
  type Observation,
  type ObservedRoute,
  type ObservedService,
} from './observation.ts';

/** `MockOptions.clientVerdicts`: `false` turns the judging off (nothing observed, empty reports). */
export interface ClientVerdictOptions {
  /** What is remembered per caller (docs/client-verdicts.md: memory). */
  readonly limits?: Partial<ClientLimits> | undefined;
  /**
   * Sends every observation here instead of judging it in this process: a cluster worker sends them
   * to its primary, which judges every worker's traffic in one place (decisions/019). The object is
   * reused for the next request: copy what you keep before returning.
   */
  readonly forward?: ((observation: Observation) => void) | undefined;
  /**
   * Who is a caller (issue 33 item 7): `tokens` (default), a key the token directory knows; or
   * `not-refused`, a key whose first request was not answered 401 (traffic the mock did not answer, a
   * proxy's, whose keys only the deployment knows).
   */
  readonly callers?: 'tokens' | 'not-refused' | undefined;
}

/** The service's client verdicts (docs/client-verdicts.md). */
export interface ClientVerdicts {
  /**
   * Observes one exchange a host answered; returns the violations it made, if any (a host may fail
   * the request: `createHandlers(service, { onClientViolation: 'error' })`).
   */
  observe(
    request: CoreRequest,
    response: CoreResponse,
    route: ObservedRoute | undefined,
    context: Readonly<ExchangeNotes> | undefined,
  ): (() => readonly ClientVerdict[]) | undefined;
  /** Judges observations made by other processes of this deployment (a cluster's workers). */
  judge(observations: Iterable<Observation>): void;
  /** The verdicts and the client coverage so far. */
  report(): ClientReport;
  /**
   * Tells `listener` of the violations judged with no request being answered: a content redirect
   * never followed, found when a report was read (`follow-content-redirects`). The violations a request
   * makes come back from `observe`; together the two carry every violation (issue 32 item 4). Returns
   * the function that stops telling it.
   */
  onLateViolations(listener: (violations: readonly ClientVerdict[]) => void): () => void;
  /** Forgets them (a reset does too). */
  clear(): void;
}

/**
 * What the client verdicts read of the service they judge (decisions/033): what the observer reads,
 * the lifecycle, a task's status now, and the user behind a key. `ServiceState` is one; the verdicts
 * never import it (the service holds its verdicts, not the other way round).
 */
export interface JudgedService extends ObservedService {
  readonly clock: Clock;
  readonly lifecycle: Lifecycle;
  /** The task an observation names (its status now: `snapshot`). */
  readonly store: Pick<TaskStore, 'get'>;
  /** The user behind a key: reports name users, never keys. */
  readonly tokens: Pick<TokenDirectory, 'authenticate'>;
}

/** The judge of a service's traffic: its clock, lifecycle, tasks and keys. */
function judgeOf(state: JudgedService, settings: ClientVerdictOptions): ClientJudge {
  return new ClientJudge({
    clock: state.clock,
    lifecycle: state.lifecycle,
    limits: settings.limits,
    // A key the mock does not know is no caller (issue 33 item 7).
    knownKey:
      settings.callers === 'not-refused'
        ? undefined
        : (key) => state.tokens.authenticate(`Bearer ${key}`) !== undefined,
    taskStatus: (id, at) => {
      const task = state.store.get(id);
      return task === undefined ? undefined : snapshot(task.createdAt, task.plan, at).status;
    },
  });
}

/** The judging of one service: observe here and judge here, or observe here and forward. */
export function createClientVerdicts(
  state: JudgedService,
  options: boolean | ClientVerdictOptions | undefined,
): ClientVerdicts {
  const settings = typeof options === 'object' ? options : {};
  const enabled = options !== false;
  const forward = settings.forward;
  // A primary judges its workers' observations together: their order is the machine's wall clock.
  const observer = new ExchangeObserver(state, forward === undefined ? undefined : wallNow);
  const judge = judgeOf(state, settings);
  const sources: ReportSources = {
    clock: state.clock,
    userOf: (key) => state.tokens.authenticate(`Bearer ${key}`)?.user,
  };
  const listeners = new Set<(violations: readonly ClientVerdict[]) => void>();
  const settle = (): void => {
    const late = judge.settle();
    if (late.length === 0 || listeners.size === 0) return;
    const verdicts = verdictsOf(late, sources);
    for (const listener of listeners) listener(verdicts);
  };
  return {
    observe(request, response, route, context) {
      if (!enabled) return undefined;
      // Judging never takes the answer or the process with it (issue 33 item 1): a request the judge
      // fails on is answered as it was and counted in the report's limits.
      try {
        const observation = observer.observe(request, response, route, context);
        if (observation === undefined) return undefined;
        if (forward !== undefined) {
          forward(observation);
          return undefined;
        }
        const breached = judge.judge(observation);
        return breached.length === 0 ? undefined : () => verdictsOf(breached, sources);
      } catch (error) {
        judge.failed(error);
        return undefined;
      }
    },
    judge(observations) {
      for (const observation of observations)
        try {
          judge.judge(observation);
        } catch (error) {
          judge.failed(error);
        }
    },
    report() {
      settle();
      return buildClientReport(judge, sources);
    },
    onLateViolations(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clear: () => judge.clear(state.shared.generation),
  };
}
