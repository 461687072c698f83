import { SECOND_FAMILY, serviceContract } from '../../src/spec/index.ts';
import type { Defect } from '../defects/defect.ts';
import { resolveDefects } from '../defects/registry.ts';
import { ArtifactSigner } from './artifacts.ts';
import { BUILT_IN_MODELS, type CatalogModel, type FamilyState } from './catalog.ts';
import { createClock, type Clock, type ClockOptions } from './clock.ts';
import { errorResponse } from './errors.ts';
import { JSON_TYPE, type CoreRequest, type CoreResponse } from './http-types.ts';
import { sampleVideo } from './media.ts';
import { DEFAULT_TIMING, type Timing } from './plan.ts';
import { PROFILES, type ProfileName } from './profiles.ts';
import { createRandom, randomSeed } from './random.ts';
import { RateLimiter } from './rate-limiter.ts';
import {
  openStateFile,
  randomSeedFor,
  readStateFile,
  type StateFile,
  type StateFileOptions,
} from './state-file.ts';
import { ROUTES } from './route-table.ts';
import { Router } from './router.ts';
import { wrapperStatuses } from './render.ts';
import { controlError } from './routes/control.ts';
import type { RateLimit, RouteContext, ServiceState } from './service-state.ts';
import { TaskStore } from './store.ts';
import { BUILT_IN_TOKENS, TokenDirectory, type MockToken } from './tokens.ts';

export interface MockOptions {
  /** A clock to share, or how to make one. Default: real time. */
  readonly clock?: Clock | ClockOptions | undefined;
  /** Shorthand for a real clock running this many times faster. */
  readonly speed?: number | undefined;
  /** Makes task IDs and plans reproducible. Default: a random seed (see `service.seed`). */
  readonly seed?: number | string | undefined;
  /** `documented` (default): the document, silences filled by the spec's assumptions. `observed`: the deployed gateway's habits. */
  readonly profile?: ProfileName | undefined;
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
  /** Named deliberately broken behaviours (`videotask mock --list-defects`). */
  readonly defects?: readonly string[] | undefined;
  /**
   * Keep tasks, clock position, binding and row counter in this file across restarts
   * ([decisions/007](../../decisions/007-mock-state-file.md)). What it holds wins over `seed`,
   * `clock.start` and `familyBound`. Call `service.stateFile.close()` when done.
   */
  readonly stateFile?: string | StateFileOptions | undefined;
}

/** The simulated service: one engine behind both hosts. */
export interface MockService {
  readonly clock: Clock;
  readonly store: TaskStore;
  readonly tokens: TokenDirectory;
  readonly family: FamilyState;
  readonly seed: number | string;
  readonly profile: ProfileName;
  readonly defects: readonly string[];
  /** Submissions seen per client request ID (`X-Request-Id` or `Idempotency-Key` header). */
  readonly submissionsByRequestId: ReadonlyMap<string, number>;
  /** The state file kept up to date (`stateFile` option), if any. */
  readonly stateFile: StateFile | undefined;
  /** Answers one request. Synchronous: all state is in memory. */
  handle(request: CoreRequest): CoreResponse;
  reset(): void;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_ARTIFACT_TTL_MS = 60 * 60 * 1000;

/**
 * Creates the simulated service.
 *
 * @example
 * const service = createMockService({ clock: { mode: 'manual' }, seed: 1 });
 * service.clock.advance(60_000);
 */
export function createMockService(options: MockOptions = {}): MockService {
  const stateOptions =
    typeof options.stateFile === 'string' ? { path: options.stateFile } : options.stateFile;
  if (stateOptions !== undefined && isClock(options.clock))
    throw new RangeError(
      'stateFile needs clock options, not a Clock: the service makes the clock that resumes from the saved time',
    );
  const restored = stateOptions === undefined ? undefined : readStateFile(stateOptions.path);
  const clock = isClock(options.clock)
    ? options.clock
    : createClock({
        ...options.clock,
        ...(options.speed !== undefined ? { speed: options.speed } : {}),
        ...(restored !== undefined ? { start: restored.clock } : {}),
      });
  const seed = restored?.seed ?? options.seed ?? randomSeed();
  const failureRate = options.failureRate ?? 0;
  if (!(failureRate >= 0 && failureRate <= 1))
    throw new RangeError(`failureRate must be between 0 and 1, got ${failureRate}`);
  const profile = PROFILES[options.profile ?? 'documented'];
  if (profile === undefined)
    throw new RangeError(
      `Unknown profile "${String(options.profile)}": use documented or observed`,
    );
  const defects: readonly Defect[] = resolveDefects(options.defects ?? []);
  const { validators, lifecycle } = serviceContract();
  const family: FamilyState = {
    bound: restored?.familyBound ?? options.familyBound ?? false,
    pluginVersion: SECOND_FAMILY.pluginVersion,
    pluginName: 'alt-video',
  };
  const store = new TaskStore();
  const tokens = new TokenDirectory(
    options.replaceBuiltInTokens === true
      ? (options.tokens ?? [])
      : [...BUILT_IN_TOKENS, ...(options.tokens ?? [])],
  );
  const limiter = options.rateLimit === undefined ? undefined : new RateLimiter(options.rateLimit);
  const submissionsByRequestId = new Map<string, number>();

  const state: ServiceState = {
    clock,
    random: createRandom(randomSeedFor(seed, restored)),
    store,
    tokens,
    models: new Map<string, CatalogModel>(BUILT_IN_MODELS.map((m) => [m.id, m])),
    family,
    signer: new ArtifactSigner(
      `videotask-mock:${seed}`,
      options.artifactTtlMs ?? DEFAULT_ARTIFACT_TTL_MS,
    ),
    media: sampleVideo(),
    lifecycle,
    validators,
    wrapperStatuses: wrapperStatuses(lifecycle),
    profile,
    defectNames: defects.map((d) => d.name),
    settings: {
      timing: { ...DEFAULT_TIMING, ...options.timing },
      failureRate,
      contentRedirect: options.contentRedirect ?? false,
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      rateLimit: options.rateLimit,
    },
    error: (kind, detail, headers) => errorResponse(profile.errors[kind] ?? kind, detail, headers),
    submissionsByRequestId,
    reset() {
      store.clear();
      limiter?.clear();
      submissionsByRequestId.clear();
      family.bound = options.familyBound ?? false;
    },
  };
  const stateFile =
    stateOptions === undefined
      ? undefined
      : openStateFile(stateOptions, { store, clock, family, seed }, restored);
  const router = new Router(ROUTES);
  let requestCounter = 0;
  const requestIdPrefix = new Date(clock.now()).toISOString().replace(/\D/g, '').slice(0, 14);

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
    const { route, params } = match;
    const head = request.method === 'HEAD';
    if (route.access === 'control') {
      const refusal = controlRefusal(request, options.adminToken);
      if (refusal !== undefined) return refusal;
      return route.handle({ request, state, token: NO_TOKEN, head }, params);
    }
    if (route.access === 'public')
      return route.handle({ request, state, token: NO_TOKEN, head }, params);
    const authorization = request.headers['authorization'];
    const token = tokens.authenticate(authorization);
    if (token === undefined)
      return state.error(
        authorization === undefined ? 'missing_api_key' : 'invalid_api_key',
        {},
        { 'www-authenticate': 'Bearer' },
      );
    const wait = limiter?.take(token.key, clock.now());
    if (wait !== undefined) {
      const { requests, windowMs } = options.rateLimit!;
      return state.error(
        'rate_limited',
        {
          problem: `${requests} requests per ${windowMs / 1000} s for this key; retry after ${wait} s`,
        },
        { 'retry-after': String(wait) },
      );
    }
    const context: RouteContext = { request, state, token, head };
    return route.handle(context, params);
  }

  return {
    clock,
    store,
    tokens,
    family,
    seed,
    profile: profile.name,
    defects: defects.map((d) => d.name),
    submissionsByRequestId,
    stateFile,
    reset: state.reset,
    handle(incoming) {
      const requestId = `${requestIdPrefix}${(++requestCounter).toString().padStart(8, '0')}`;
      let request = incoming;
      let response: CoreResponse;
      try {
        for (const defect of defects)
          if (defect.before !== undefined) request = defect.before(request, state);
        response = dispatch(request);
        for (const defect of defects)
          if (defect.after !== undefined) response = defect.after(request, response, state);
      } catch (error) {
        // Never expected: the fuzz tests hunt for this. A 500 JSON beats a dropped connection.
        response = errorResponse('internal_error', { problem: (error as Error).message });
      }
      if (request.method === 'HEAD' && response.body !== undefined)
        response = { status: response.status, headers: response.headers };
      if (profile.requestIdSuffix && response.status >= 400)
        response = withRequestIdSuffix(response, requestId);
      response.headers['x-oneapi-request-id'] = requestId;
      return response;
    },
  };
}

/** Control and public routes have no service token; this placeholder never owns tasks. */
const NO_TOKEN: MockToken = { key: '', user: '', group: '' };

function isClock(value: MockOptions['clock']): value is Clock {
  return value !== undefined && typeof (value as Clock).now === 'function';
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

function controlRefusal(
  request: CoreRequest,
  adminToken: string | undefined,
): CoreResponse | undefined {
  if (adminToken !== undefined) {
    return request.headers['authorization'] === `Bearer ${adminToken}`
      ? undefined
      : controlError(
          403,
          'forbidden',
          'The control API needs Authorization: Bearer <admin token> (the mock runs with --admin-token)',
        );
  }
  const address = request.remoteAddress;
  if (address === undefined || isLoopback(address)) return undefined; // in-process (msw) or loopback
  return controlError(
    403,
    'forbidden',
    'The control API is reachable from loopback only; start the mock with --admin-token to reach it from elsewhere',
  );
}

export function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}
