import type { FamilyState } from '../keys/catalog.ts';
import type { VideoStatus } from '../../../src/spec/lifecycle.ts';
import { retryAfterSeconds, type Clock } from '../clock.ts';
import { controlError, type ErrorDetail, type ErrorKind } from '../http/errors.ts';
import {
  answerTo,
  setAnswerSecurityHeaders,
  type CoreRequest,
  type CoreResponse,
} from '../http/http-types.ts';
import { StateNotSavedError, type PersistedState } from './persistence.ts';
import { ROUTES } from '../route-table.ts';
import { Router, type RouteDefinition, type RouteMatch } from '../http/router.ts';
import { controlRefusal } from '../keys/control-access.ts';
import type { MockOptions } from './mock-options.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { LearnedReplay } from '../profile/learned-replay.ts';
import { Exchange } from './exchange.ts';
import type { TaskView } from '../task/task-view.ts';
import type { ClientVerdicts } from '../client-verdicts/client-verdicts.ts';
import type { ClientReport } from '../client-verdicts/client-report.ts';
import { assembleService } from './service-assembly.ts';
import type { RateLimit, RouteContext, ServiceState } from './service-state.ts';
import type { Operation, SharedState } from '../state/shared-state.ts';
import type { TaskStore } from '../task/store.ts';
import type { MockToken, TokenDirectory } from '../keys/tokens.ts';
import { wrapContext, type ServiceWrapper } from './wrap.ts';

export { DEFAULT_ARTIFACT_TTL_MS, DEFAULT_MAX_BODY_BYTES } from './service-assembly.ts';
export type { ServiceWrapper, WrapContext } from './wrap.ts';
export type { MockOptions } from './mock-options.ts';

/** The simulated service: one engine behind both hosts. */
export interface MockService {
  readonly clock: Clock;
  readonly store: TaskStore;
  readonly tokens: TokenDirectory;
  readonly family: FamilyState;
  readonly seed: number | string;
  /** The profile's name: `documented`, `observed` or a learned profile's. */
  readonly profile: string;
  /** Submissions seen per client request ID (`X-Request-Id` or `Idempotency-Key` header). */
  readonly submissionsByClientRequestId: ReadonlyMap<string, number>;
  /** What answers need beyond task IDs: the clock, forced outcomes, the binding… (decisions/010). */
  readonly shared: Readonly<SharedState>;
  /** Where the state is kept (the Node entry's `stateFile` option), if anywhere. */
  readonly stateFile: PersistedState | undefined;
  /** Answers one request. Synchronous: all state is in memory. */
  handle(request: CoreRequest): CoreResponse;
  /**
   * Whether the service's routes declare `path` (for any method): what a host asks before it takes a
   * request as the service's (the msw handlers). The core's router answers: it is the only thing
   * that matches a path (docs/architecture.md).
   */
  declares(path: string): boolean;
  /** Whether the operation `method` and `path` name declares an answer of `status`; false if none. */
  declaresStatus(method: string, path: string, status: number): boolean;
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
  refuseMisplacedOptions(options);
  return new SimulatedService(options);
}

/** Options another entry takes, or a form the core does not: a clear error, not a silent default. */
function refuseMisplacedOptions(options: MockOptions): void {
  const given = options as { stateFile?: unknown; defects?: unknown };
  if (given.stateFile !== undefined)
    throw new TypeError(
      "stateFile needs Node: use createMockService from 'videotask/mocks' " +
        '(mocks/index.ts), not the environment-neutral entry',
    );
  if (given.defects !== undefined)
    throw new TypeError(
      "defects are named and resolved in Node: use createMockService from 'videotask/mocks' " +
        '(mocks/index.ts), or give the defect objects as wrap: [...] (decisions/029)',
    );
  if (typeof (options.clock as Partial<Clock> | undefined)?.now === 'function')
    throw new TypeError(
      "clock takes options ({ mode, speed, start }), not a Clock: use the service's own (service.clock)",
    );
}

/** The simulated service: one engine behind both hosts. */
class SimulatedService implements MockService {
  readonly seed: number | string;
  readonly #state: ServiceState;
  /** `state.clientVerdicts`, read once: a getter (the state is built before its verdicts) on the hot path. */
  readonly #clientVerdicts: ClientVerdicts;
  readonly #router = new Router<RouteContext>(ROUTES);
  readonly #wrappers: readonly ServiceWrapper[];
  readonly #replay: LearnedReplay | undefined;
  readonly #limiter: RateLimiter | undefined;
  readonly #adminToken: string | undefined;
  readonly #serviceRequestIdPrefix: string;
  readonly #serviceRequestIdStep: number;
  #requestNumber: number;

  constructor(options: MockOptions) {
    const { state, seed, limiter } = assembleService(options);
    this.#state = state;
    this.#clientVerdicts = state.clientVerdicts;
    this.seed = seed;
    this.#wrappers = options.wrap ?? [];
    this.#replay = state.profile.learned;
    this.#limiter = limiter;
    this.#adminToken = options.adminToken;
    const { first = 1, step = 1 } = options.serviceRequestIds ?? {};
    this.#serviceRequestIdStep = step;
    this.#requestNumber = first - step;
    this.#serviceRequestIdPrefix = new Date(this.clock.now())
      .toISOString()
      .replace(/\D/g, '')
      .slice(0, 14);
  }

  // What the service shows of its state (MockService).
  get clock(): Clock {
    return this.#state.clock;
  }
  get store(): TaskStore {
    return this.#state.store;
  }
  get tokens(): TokenDirectory {
    return this.#state.tokens;
  }
  get family(): FamilyState {
    return this.#state.family;
  }
  get profile(): string {
    return this.#state.profile.name;
  }
  get submissionsByClientRequestId(): ReadonlyMap<string, number> {
    return this.#state.shared.clientRequestIds;
  }
  get shared(): Readonly<SharedState> {
    return this.#state.shared;
  }
  get clientVerdicts(): ClientVerdicts {
    return this.#clientVerdicts;
  }
  get stateFile(): PersistedState | undefined {
    return this.#state.stateFile;
  }

  apply(operation: Operation): void {
    this.#state.apply(operation);
  }

  reset(): void {
    this.#state.reset();
  }

  clientReport(): ClientReport {
    return this.clientVerdicts.report();
  }

  declares(path: string): boolean {
    return this.#router.declares(path);
  }

  declaresStatus(method: string, path: string, status: number): boolean {
    const match = this.#router.match(method, path);
    if (match.kind !== 'found') return false;
    const { operation } = this.#state.validators.operation(match.route.operationId);
    return operation.responses[String(status)] !== undefined;
  }

  identify(response: CoreResponse): CoreResponse {
    return this.#stamped(response, this.#nextServiceRequestId());
  }

  handle(incoming: CoreRequest): CoreResponse {
    const serviceRequestId = this.#nextServiceRequestId();
    let asked = incoming;
    let match = this.#router.match(incoming.method, incoming.path);
    // What the core is asked: a learned profile's IDs read back in the mock's own form, from the
    // parameters the router read.
    if (this.#replay !== undefined)
      ({ request: asked, match } = this.#replay.before(incoming, match));
    const exchange = new Exchange(asked, serviceRequestId, match, this.#state);
    const response = this.#stamped(
      answerTo(exchange.request.method, this.#answer(exchange)),
      serviceRequestId,
    );
    const { route, routeContext } = exchange;
    const violations = this.#clientVerdicts.observe(asked, response, route, routeContext);
    return violations === undefined ? response : { ...response, clientViolations: violations };
  }

  /** The answer, or a JSON one when something failed (a full disk: the fuzz tests hunt for the rest). */
  #answer(exchange: Exchange): CoreResponse {
    const { serviceRequestId } = exchange;
    try {
      return this.#dispatch(exchange);
    } catch (error) {
      return error instanceof StateNotSavedError
        ? notSaved(this.#state, exchange.request, error, serviceRequestId)
        : this.#state.error(serviceRequestId, 'internal_error', {
            problem: (error as Error).message,
          });
    }
  }

  /**
   * The wrappers' `before`s, the core's answer, the learned replay, the wrappers' `after`s. The
   * wrappers' context is built here, once, from the match `handle` made (decisions/029).
   */
  #dispatch(exchange: Exchange): CoreResponse {
    const { serviceRequestId } = exchange;
    const wrappers = this.#wrappers;
    const context =
      wrappers.length === 0
        ? undefined
        : wrapContext(exchange.asked, exchange.match, this.#state, exchange);
    for (const wrapper of wrappers)
      if (wrapper.before !== undefined)
        exchange.request = wrapper.before(exchange.request, context!);
    let response = this.#route(exchange);
    if (this.#replay !== undefined)
      response = this.#replay.after(exchange.request, response, serviceRequestId, exchange);
    for (const wrapper of wrappers)
      if (wrapper.after !== undefined)
        response = wrapper.after(exchange.request, response, context!);
    return response;
  }

  /** The core's own answer: the route the request names, once its caller may call it. */
  #route(exchange: Exchange): CoreResponse {
    const { request, serviceRequestId } = exchange;
    const state = this.#state;
    const match = this.#matchNow(exchange);
    if (match.kind === 'not-found' || match.kind === 'bad-path')
      return state.error(serviceRequestId, 'route_not_found', {
        method: request.method,
        path: request.path,
        problem: exactPathHint(this.#router.suggest(request.path)),
      });
    if (match.kind === 'method-not-allowed')
      return state.error(
        serviceRequestId,
        'method_not_allowed',
        { method: request.method, path: request.path },
        { allow: match.allow.join(', ') },
      );
    const { route, params } = match;
    exchange.route = route;
    exchange.params = params;
    const admitted = this.#admit(route, exchange);
    if ('status' in admitted) return admitted;
    exchange.routeContext = new RouteCall(request, state, admitted, serviceRequestId);
    return route.handle(exchange.routeContext, params);
  }

  /** The match `handle` made, unless a wrapper sent the request to another method or path. */
  #matchNow(exchange: Exchange): RouteMatch<RouteContext> {
    const { request, asked, match } = exchange;
    const moved =
      request !== asked && (request.method !== asked.method || request.path !== asked.path);
    return moved ? this.#router.match(request.method, request.path) : match;
  }

  /** Who calls: the control API's rules (decisions/014), nobody for public routes, or a service key. */
  #admit(route: RouteDefinition<RouteContext>, exchange: Exchange): MockToken | CoreResponse {
    const { request } = exchange;
    if (route.access === 'control') return controlRefusal(request, this.#adminToken) ?? NO_TOKEN;
    if (route.access === 'public') return NO_TOKEN;
    return this.#authenticate(exchange);
  }

  /** The caller's token (§5), within its request budget; else the refusal. */
  #authenticate(exchange: Exchange): MockToken | CoreResponse {
    const { request, serviceRequestId } = exchange;
    const authorization = request.headers['authorization'];
    const token = this.#state.tokens.authenticate(authorization);
    exchange.authenticated(token);
    if (token === undefined)
      return this.#state.error(
        serviceRequestId,
        authorization === undefined ? 'missing_api_key' : 'invalid_api_key',
        {},
        { 'www-authenticate': 'Bearer' },
      );
    const limiter = this.#limiter;
    const waitMs = limiter?.take(token.key, this.#state.clock.now());
    if (waitMs !== undefined)
      return rateLimited(this.#state, { limit: limiter!.limit, waitMs, serviceRequestId });
    return token;
  }

  #nextServiceRequestId(): string {
    this.#requestNumber += this.#serviceRequestIdStep;
    // Joined, not concatenated: a concatenation this long is a rope (V8's ConsString), and node's check
    // of a header value, a regular expression, takes its slow path on one (~0.1 µs per answer).
    const number = this.#requestNumber.toString().padStart(8, '0');
    const ownId = [this.#serviceRequestIdPrefix, number].join('');
    return this.#replay === undefined ? ownId : this.#replay.serviceRequestId(ownId);
  }

  /** The answer with its request ID in the profile's header (error messages end with it already). */
  #stamped(response: CoreResponse, serviceRequestId: string): CoreResponse {
    if (this.#replay === undefined) response.headers['x-oneapi-request-id'] = serviceRequestId;
    else this.#replay.stamp(response, serviceRequestId);
    setAnswerSecurityHeaders(response.headers);
    return response;
  }
}

/**
 * A route's view of the request it answers. A class: one allocation per request and the same shape
 * for every route (no closure per request for `error`).
 */
class RouteCall implements RouteContext {
  readonly head: boolean;
  taskId: string | undefined = undefined;
  at: number | undefined = undefined;
  taskStatus: VideoStatus | undefined = undefined;
  body: Record<string, unknown> | undefined = undefined;
  task: TaskView | undefined = undefined;
  rendered: unknown = undefined;

  constructor(
    readonly request: CoreRequest,
    readonly state: ServiceState,
    readonly token: MockToken,
    readonly serviceRequestId: string,
  ) {
    this.head = request.method === 'HEAD';
  }

  error(kind: ErrorKind, detail?: ErrorDetail, headers?: Record<string, string>): CoreResponse {
    return this.state.error(this.serviceRequestId, kind, detail, headers);
  }
}

/**
 * 429 for a key over its budget. The window is on the mock's clock; `Retry-After` is in real seconds
 * (`retryAfterSeconds`): at `--speed 100`, a key refused with 49 s of its window left is told 1 s.
 */
function rateLimited(
  state: ServiceState,
  {
    limit,
    waitMs,
    serviceRequestId,
  }: { limit: RateLimit; waitMs: number; serviceRequestId: string },
): CoreResponse {
  const wait = retryAfterSeconds(state.clock, waitMs);
  const clock =
    state.clock.speed === 1 ? '' : ` of the mock's clock (${state.clock.speed}× real time)`;
  const problem =
    `${limit.requests} requests per ${limit.windowMs / 1000} s${clock} for this key; ` +
    `retry after ${wait} s`;
  return state.error(
    serviceRequestId,
    'rate_limited',
    { problem },
    { 'retry-after': String(wait) },
  );
}

/** Control and public routes have no service token; this placeholder never owns tasks. */
const NO_TOKEN: MockToken = { key: '', user: '', group: '' };

/** A change the state file could not keep was not made: 503, retry later. */
function notSaved(
  state: ServiceState,
  request: CoreRequest,
  error: StateNotSavedError,
  serviceRequestId: string,
): CoreResponse {
  const response = request.path.startsWith('/__mock/')
    ? controlError(503, 'state_not_saved', error.message)
    : state.error(serviceRequestId, 'temporarily_unavailable', {});
  response.headers['retry-after'] = '1';
  return response;
}

/**
 * What a 404 adds when the path differs from a route's only by case or slashes: the service's paths
 * are exact, as the document writes them (§4, §9) and as the gateway's Go router matches them
 * (decisions/049).
 */
function exactPathHint(suggested: string | undefined): string | undefined {
  return suggested === undefined
    ? undefined
    : `paths are case- and slash-exact (§4, §9): did you mean ${suggested}?`;
}
