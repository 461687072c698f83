import { serviceContract } from '../../src/spec/index.ts';
import { ArtifactSigner } from './artifacts.ts';
import { BUILT_IN_MODELS, type CatalogModel, type FamilyState } from './catalog.ts';
import { createClock, type Clock, type ClockOptions } from './clock.ts';
import { errorResponse } from './errors.ts';
import type { CoreRequest, CoreResponse } from './http-types.ts';
import { sampleVideo } from './media.ts';
import { DEFAULT_TIMING, type Timing } from './plan.ts';
import { createRandom, randomSeed } from './random.ts';
import { ROUTES } from './route-table.ts';
import { controlError } from './routes/control.ts';
import { Router } from './router.ts';
import { wrapperStatuses } from './render.ts';
import type { RouteContext, ServiceState } from './service-state.ts';
import { TaskStore } from './store.ts';
import { BUILT_IN_TOKENS, TokenDirectory, type MockToken } from './tokens.ts';

export interface MockOptions {
  /** A clock to share, or how to make one. Default: real time. */
  readonly clock?: Clock | ClockOptions | undefined;
  /** Shorthand for a real clock running this many times faster. */
  readonly speed?: number | undefined;
  /** Makes task IDs and plans reproducible. Default: a random seed (see `service.seed`). */
  readonly seed?: number | string | undefined;
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
  /** Probability that a task fails. Default 0. */
  readonly failureRate?: number | undefined;
  /** Start with the second family bound to its plugin channel. Default false (the document's state, §1). */
  readonly familyBound?: boolean | undefined;
  /** When set, the control API needs `Authorization: Bearer <adminToken>` (and is reachable from anywhere). */
  readonly adminToken?: string | undefined;
}

/** The simulated service: one engine behind both hosts. */
export interface MockService {
  readonly clock: Clock;
  readonly store: TaskStore;
  readonly tokens: TokenDirectory;
  readonly family: FamilyState;
  readonly seed: number | string;
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
  const clock = isClock(options.clock) ? options.clock : createClock({ ...options.clock, ...(options.speed !== undefined ? { speed: options.speed } : {}) });
  const seed = options.seed ?? randomSeed();
  const failureRate = options.failureRate ?? 0;
  if (!(failureRate >= 0 && failureRate <= 1)) throw new RangeError(`failureRate must be between 0 and 1, got ${failureRate}`);
  const timing = { ...DEFAULT_TIMING, ...options.timing };
  const { validators, lifecycle } = serviceContract();
  const family: FamilyState = { bound: options.familyBound ?? false, pluginVersion: '1.0.5', pluginName: 'alt-video' };
  const store = new TaskStore();
  const tokens = new TokenDirectory(options.replaceBuiltInTokens === true ? (options.tokens ?? []) : [...BUILT_IN_TOKENS, ...(options.tokens ?? [])]);

  const state: ServiceState = {
    clock,
    random: createRandom(seed),
    store,
    tokens,
    models: new Map<string, CatalogModel>(BUILT_IN_MODELS.map((m) => [m.id, m])),
    family,
    signer: new ArtifactSigner(`videotask-mock:${seed}`, options.artifactTtlMs ?? DEFAULT_ARTIFACT_TTL_MS),
    media: sampleVideo(),
    lifecycle,
    validators,
    wrapperStatuses: wrapperStatuses(lifecycle),
    settings: { timing, failureRate, contentRedirect: options.contentRedirect ?? false, maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES },
    reset() {
      store.clear();
      family.bound = options.familyBound ?? false;
    },
  };
  const router = new Router(ROUTES);
  let requestCounter = 0;
  const requestIdPrefix = new Date(clock.now()).toISOString().replace(/\D/g, '').slice(0, 14);

  function dispatch(request: CoreRequest): CoreResponse {
    const match = router.match(request.method, request.path);
    if (match.kind === 'not-found' || match.kind === 'bad-path') return errorResponse('route_not_found', { method: request.method, path: request.path });
    if (match.kind === 'method-not-allowed') return errorResponse('method_not_allowed', { method: request.method, path: request.path }, { allow: match.allow.join(', ') });
    const { route, params } = match;
    const head = request.method === 'HEAD';
    if (route.access === 'control') {
      const refusal = controlRefusal(request, options.adminToken);
      if (refusal !== undefined) return refusal;
      return route.handle({ request, state, token: CONTROL_TOKEN, head }, params);
    }
    if (route.access === 'public') return route.handle({ request, state, token: CONTROL_TOKEN, head }, params);
    const authorization = request.headers['authorization'];
    const token = tokens.authenticate(authorization);
    if (token === undefined) {
      const unauthorized = errorResponse(authorization === undefined ? 'missing_api_key' : 'invalid_api_key', {}, { 'www-authenticate': 'Bearer' });
      return head ? { status: unauthorized.status, headers: unauthorized.headers } : unauthorized;
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
    reset: state.reset,
    handle(request) {
      let response: CoreResponse;
      try {
        response = dispatch(request);
      } catch (error) {
        // Never expected: the fuzz tests hunt for this. A 500 JSON beats a dropped connection.
        response = errorResponse('internal_error', { problem: (error as Error).message });
      }
      response.headers['x-oneapi-request-id'] = `${requestIdPrefix}${(++requestCounter).toString().padStart(8, '0')}`;
      return response;
    },
  };
}

/** Control and public routes have no service token; this placeholder is never used to own tasks. */
const CONTROL_TOKEN: MockToken = { key: '', user: '', group: '' };

function isClock(value: MockOptions['clock']): value is Clock {
  return value !== undefined && typeof (value as Clock).now === 'function';
}

function controlRefusal(request: CoreRequest, adminToken: string | undefined): CoreResponse | undefined {
  const forbidden = (message: string) => controlError(403, 'forbidden', message);
  if (adminToken !== undefined) {
    return request.headers['authorization'] === `Bearer ${adminToken}` ? undefined : forbidden('The control API needs Authorization: Bearer <admin token> (the mock runs with --admin-token)');
  }
  const address = request.remoteAddress;
  if (address === undefined || isLoopback(address)) return undefined; // in-process (msw) or loopback
  return forbidden('The control API is reachable from loopback only; start the mock with --admin-token to reach it from elsewhere');
}

export function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}
