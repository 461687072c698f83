import type { Defect, DefectContext } from '../defects/defect.ts';
import { visibleModels, type FamilyState } from './catalog.ts';
import { retryAfterSeconds, type Clock, type ClockOptions } from './clock.ts';
import { errorResponse } from './errors.ts';
import { answerTo, JSON_TYPE, type CoreRequest, type CoreResponse } from './http-types.ts';
import { StateNotSavedError, type Persistence, type StateFile } from './persistence.ts';
import type { Timing } from './plan.ts';
import type { ProfileOption } from './profiles.ts';
import { ROUTES } from './route-table.ts';
import { Router, type RouteDefinition } from './router.ts';
import { controlRefusal } from './control-access.ts';
import type { ReplayContext } from './profile/learned-replay.ts';
import { controlError } from './routes/control.ts';
import type { ClientVerdictOptions, ClientVerdicts } from './client-verdicts/client-verdicts.ts';
import type { ClientReport } from './client-verdicts/client-report.ts';
import { assembleService } from './service-assembly.ts';
import type { RateLimit, RouteContext, ServiceState } from './service-state.ts';
import type { Operation, SharedState } from './shared-state.ts';
import type { HmacFactory } from './sha256.ts';
import type { TaskStore } from './store.ts';
import type { TaskIdShare } from './task-id-share.ts';
import { taskView } from './task-view.ts';
import type { MockToken, TokenDirectory } from './tokens.ts';

export { DEFAULT_ARTIFACT_TTL_MS, DEFAULT_MAX_BODY_BYTES } from './service-assembly.ts';

export interface MockOptions {
  /** How to make the service's clock (`service.clock`). Default: real time. */
  readonly clock?: ClockOptions | undefined;
  /** Shorthand for a real clock running this many times faster. */
  readonly speed?: number | undefined;
  /** Makes plans reproducible (IDs too, with the same `secret`). Default: a random seed (`service.seed`). */
  readonly seed?: number | string | undefined;
  /**
   * The deployment's secret: task IDs carry their task under it, and result URLs are signed with it
   * (decisions/010). Processes with the same secret answer each other's tasks. Default: random.
   */
  readonly secret?: string | undefined;
  /**
   * `documented` (default): the document, silences filled by the spec's assumptions. `observed`:
   * the deployed gateway's habits. Or a learned profile (the parsed JSON `videotask learn` wrote,
   * decisions/018): the mock answers as that deployment reads, on top of the documented behaviour.
   */
  readonly profile?: ProfileOption | undefined;
  /** Extra API keys; with `replaceBuiltInTokens` they replace the built-in ones. */
  readonly tokens?: readonly MockToken[] | undefined;
  readonly replaceBuiltInTokens?: boolean | undefined;
  /** `/content` answers a 302 to the temporary address instead of streaming. */
  readonly contentRedirect?: boolean | undefined;
  /** How long a temporary result address works after completion (simulated ms). Default 1 h. */
  readonly artifactTtlMs?: number | undefined;
  /** Largest accepted request body. Default 1 MiB. */
  readonly maxBodyBytes?: number | undefined;
  /** Queue and run time ranges (simulated ms). */
  readonly timing?: Partial<Timing> | undefined;
  /** Probability that a task without an explicit scenario fails. Default 0. */
  readonly failureRate?: number | undefined;
  /** Per-key request budget per window (simulated time). Default: no limit. */
  readonly rateLimit?: RateLimit | undefined;
  /** Start with the second family bound to its plugin channel. Default false (the document's state, §1). */
  readonly familyBound?: boolean | undefined;
  /** When set, the control API needs `Authorization: Bearer <adminToken>` (and is reachable from anywhere). */
  readonly adminToken?: string | undefined;
  /** Deliberately broken behaviours: names (`videotask mock --list-defects`) or defect objects. */
  readonly defects?: readonly (string | Defect)[] | undefined;
  /**
   * The request IDs (`X-Oneapi-Request-Id`) this service hands out are numbered `first`, `first + step`,
   * … after its start time (default 1, 1): the workers of one deployment take distinct `first`s and
   * `step` = their number, so no two of them answer with the same ID.
   */
  readonly requestIds?: { readonly first: number; readonly step: number } | undefined;
  /**
   * The plan seeds this service mints task IDs from: those ≡ `index` (mod `of`); default all. Services
   * of one deployment that take distinct indexes of one `of` never mint the same task ID (a cluster's
   * workers, replicas with `--replica K/N`: decisions/010). One service never mints an ID twice.
   */
  readonly taskIdShare?: TaskIdShare | undefined;
  /** HMAC-SHA-256 (task IDs, signed result URLs). Default: the core's own, synchronous and environment-neutral. */
  readonly hmac?: HmacFactory | undefined;
  /**
   * Where a host keeps the state across restarts. The Node entry's `createMockService` makes one from
   * its `stateFile` option (`mocks/node/`); what it restores wins over `seed`, `clock.start` and `familyBound`.
   */
  readonly persistence?: Persistence | undefined;
  /**
   * Judge every caller's traffic by the document's rules for clients (docs/client-verdicts.md).
   * Default on; `false` turns it off; an object sets its memory limits.
   */
  readonly clientVerdicts?: boolean | ClientVerdictOptions | undefined;
}

/** The simulated service: one engine behind both hosts. */
export interface MockService {
  readonly clock: Clock;
  readonly store: TaskStore;
  readonly tokens: TokenDirectory;
  readonly family: FamilyState;
  readonly seed: number | string;
  /** The profile's name: `documented`, `observed` or a learned profile's. */
  readonly profile: string;
  readonly defects: readonly string[];
  /** Submissions seen per client request ID (`X-Request-Id` or `Idempotency-Key` header). */
  readonly submissionsByRequestId: ReadonlyMap<string, number>;
  /** What answers need beyond task IDs: the clock, forced outcomes, the binding… (decisions/010). */
  readonly shared: Readonly<SharedState>;
  /** Where the state is kept (the Node entry's `stateFile` option), if anywhere. */
  readonly stateFile: StateFile | undefined;
  /** Answers one request. Synchronous: all state is in memory. */
  handle(request: CoreRequest): CoreResponse;
  /**
   * Gives an answer made outside `handle` (a host's own, such as a cluster primary's 503) this
   * service's next request ID, in the profile's header and form, as `handle` gives its own answers:
   * every answer carries one, and no two the same.
   */
  identify(response: CoreResponse): CoreResponse;
  /** Changes the shared state (kept by the state file first); what the control API does. */
  apply(operation: Operation): void;
  /** Forgets every task and restores the start-up binding (the clock keeps its time). */
  reset(): void;
  /** How the mock judges its callers by the document's client rules (docs/client-verdicts.md). */
  readonly clientVerdicts: ClientVerdicts;
  /**
   * The verdicts on the callers so far and what situations their traffic met: `GET
   * /__mock/client-report` in-process.
   *
   * @example
   * const { verdicts } = service.clientReport();
   * expect(verdicts.filter((v) => v.outcome === 'violation')).toEqual([]);
   */
  clientReport(): ClientReport;
}

/**
 * Creates the simulated service.
 *
 * @example
 * const service = createMockService({ clock: { mode: 'manual' }, seed: 1 });
 * service.clock.advance(60_000);
 */
export function createMockService(options: MockOptions = {}): MockService {
  if ((options as { stateFile?: unknown }).stateFile !== undefined)
    throw new TypeError(
      "stateFile needs Node: use createMockService from 'videotask/mocks' " +
        '(mocks/index.ts), not the environment-neutral entry',
    );
  if (typeof (options.clock as Partial<Clock> | undefined)?.now === 'function')
    throw new TypeError(
      "clock takes options ({ mode, speed, start }), not a Clock: use the service's own (service.clock)",
    );
  const { state, seed, defects, limiter } = assembleService(options);
  const { clock, tokens, profile } = state;
  const replay = profile.learned;
  const router = new Router(ROUTES);
  const { first = 1, step = 1 } = options.requestIds ?? {};
  let requestNumber = first - step;
  const requestIdPrefix = new Date(clock.now()).toISOString().replace(/\D/g, '').slice(0, 14);
  const verdicts = state.clientVerdicts;
  // What the request being handled matched, for the client verdicts (handle is synchronous).
  let route: RouteDefinition<RouteContext> | undefined;
  let context: RouteContext | undefined;
  const contextOf = (request: CoreRequest, token: MockToken, head: boolean): RouteContext =>
    (context = {
      request,
      state,
      token,
      head,
      taskId: undefined,
      taskStatus: undefined,
      at: undefined,
      body: undefined,
    });

  function dispatch(request: CoreRequest): CoreResponse {
    const match = router.match(request.method, request.path);
    if (match.kind === 'not-found' || match.kind === 'bad-path')
      return state.error('route_not_found', { method: request.method, path: request.path });
    if (match.kind === 'method-not-allowed')
      return state.error(
        'method_not_allowed',
        { method: request.method, path: request.path },
        { allow: match.allow.join(', ') },
      );
    const { params } = match;
    route = match.route;
    const head = request.method === 'HEAD';
    if (route.access === 'control') {
      const refusal = controlRefusal(request, options.adminToken);
      if (refusal !== undefined) return refusal;
      return route.handle(contextOf(request, NO_TOKEN, head), params);
    }
    if (route.access === 'public') return route.handle(contextOf(request, NO_TOKEN, head), params);
    const authorization = request.headers['authorization'];
    const token = tokens.authenticate(authorization);
    if (token === undefined)
      return state.error(
        authorization === undefined ? 'missing_api_key' : 'invalid_api_key',
        {},
        { 'www-authenticate': 'Bearer' },
      );
    const waitMs = limiter?.take(token.key, clock.now());
    if (waitMs !== undefined) return rateLimited(state, options.rateLimit!, waitMs);
    return route.handle(contextOf(request, token, head), params);
  }

  /** What a defect is told about a request: its operation, its caller, the task it names now. */
  function defectContext(request: CoreRequest): DefectContext {
    const match = router.match(request.method, request.path);
    const found = match.kind === 'found' ? match : undefined;
    const taskId = found?.params['task_id'];
    return {
      request,
      operationId: found?.route.access === 'service' ? found.route.operationId : undefined,
      caller: tokens.authenticate(request.headers['authorization']),
      taskId,
      task: taskId === undefined ? undefined : taskView(state, taskId),
      state,
    };
  }

  /** What a learned profile's replay reads of the service for one request. */
  function replayContext(request: CoreRequest): ReplayContext {
    const match = router.match(request.method, request.path);
    return {
      route: match.kind === 'found' ? match.route : undefined,
      task: (id) => state.store.get(id),
      authenticate: (authorization) => tokens.authenticate(authorization),
      models: (token) =>
        token === undefined
          ? []
          : visibleModels(state.models.values(), state.family, token).map((m) => m.id),
      knowsModel: (model) => state.models.has(model),
      submitted: context?.body,
      wrapperStatuses: state.wrapperStatuses,
      now: () => clock.now(),
    };
  }

  function nextRequestId(): string {
    const ownId = `${requestIdPrefix}${(requestNumber += step).toString().padStart(8, '0')}`;
    return replay === undefined ? ownId : replay.requestId(ownId);
  }

  /** The answer with its request ID: in the profile's header, and its error message's ending. */
  function stamped(answer: CoreResponse, requestId: string): CoreResponse {
    const response =
      profile.requestIdSuffix && answer.status >= 400
        ? withRequestIdSuffix(answer, requestId)
        : answer;
    if (replay === undefined) response.headers['x-oneapi-request-id'] = requestId;
    else replay.stamp(response, requestId);
    return response;
  }

  return {
    clock,
    store: state.store,
    tokens,
    family: state.family,
    seed,
    profile: state.profile.name,
    defects: state.defectNames,
    submissionsByRequestId: state.shared.requestIds,
    shared: state.shared,
    get stateFile() {
      return state.stateFile;
    },
    apply: (operation) => state.apply(operation),
    reset: () => state.reset(),
    clientVerdicts: verdicts,
    clientReport: () => verdicts.report(),
    identify: (response) => stamped(response, nextRequestId()),
    handle(incoming) {
      const requestId = nextRequestId();
      route = undefined;
      context = undefined;
      // What the core is asked: a learned profile's IDs read back in the mock's own form.
      const asked = replay === undefined ? incoming : replay.before(incoming);
      let request = asked;
      let response: CoreResponse;
      try {
        const context = defects.length === 0 ? undefined : defectContext(request);
        for (const defect of defects)
          if (defect.before !== undefined) request = defect.before(request, context!);
        response = dispatch(request);
        if (replay !== undefined)
          response = replay.after(request, response, requestId, replayContext(request));
        for (const defect of defects)
          if (defect.after !== undefined) response = defect.after(request, response, context!);
      } catch (error) {
        // Never expected but a full disk: the fuzz tests hunt for this. A JSON answer beats a dropped connection.
        response =
          error instanceof StateNotSavedError
            ? notSaved(request, error)
            : errorResponse('internal_error', { problem: (error as Error).message });
      }
      response = stamped(answerTo(request.method, response), requestId);
      const violations = verdicts.observe(asked, response, route, context);
      return violations === undefined ? response : { ...response, clientViolations: violations };
    },
  };
}

/**
 * 429 for a key over its budget. The window is on the mock's clock; `Retry-After` is in real seconds
 * (`retryAfterSeconds`): at `--speed 100`, a key refused with 49 s of its window left is told 1 s.
 */
function rateLimited(state: ServiceState, limit: RateLimit, waitMs: number): CoreResponse {
  const wait = retryAfterSeconds(state.clock, waitMs);
  const clock =
    state.clock.speed === 1 ? '' : ` of the mock's clock (${state.clock.speed}× real time)`;
  const problem =
    `${limit.requests} requests per ${limit.windowMs / 1000} s${clock} for this key; ` +
    `retry after ${wait} s`;
  return state.error('rate_limited', { problem }, { 'retry-after': String(wait) });
}

/** Control and public routes have no service token; this placeholder never owns tasks. */
const NO_TOKEN: MockToken = { key: '', user: '', group: '' };

/** A change the state file could not keep was not made: 503, retry later. */
function notSaved(request: CoreRequest, error: StateNotSavedError): CoreResponse {
  const response = request.path.startsWith('/__mock/')
    ? controlError(503, 'state_not_saved', error.message)
    : errorResponse('temporarily_unavailable', {});
  response.headers['retry-after'] = '1';
  return response;
}

/** The deployed gateway ends OpenAI-style error messages with ` (request id: …)`. */
function withRequestIdSuffix(response: CoreResponse, requestId: string): CoreResponse {
  if (typeof response.body !== 'string' || response.headers['content-type'] !== JSON_TYPE)
    return response;
  const body = JSON.parse(response.body) as { error?: { message?: unknown; type?: unknown } };
  if (typeof body.error?.message !== 'string' || body.error.type === undefined) return response;
  body.error.message = `${body.error.message} (request id: ${requestId})`;
  return { ...response, body: JSON.stringify(body) };
}
