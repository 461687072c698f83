/**
 * What every fuzzed answer must satisfy, at both layers (the service core in-process, node:http over
 * TCP). Plain functions returning the problems found, so the vitest suites and `scripts/fuzz.ts` share them.
 *
 * 5xx policy: a 5xx is allowed only when the request or the task asked for it, or when the spec names
 * it as the gateway's answer to what the request asked:
 *  - `flaky`: 503 `temporarily_unavailable` on a status query (`getVideo`, `getVideoGeneration`) of the
 *    caller's own task whose plan is flaky (the task asked for it);
 *  - `fail-at-submit:S`: status S with `fail_to_fetch_task` on a submission whose X-Mock-Scenario header
 *    or prompt tag asked for exactly S (the request asked for it);
 *  - `model_not_found`: 503 on a submission naming a model that has no channel for the caller (unknown, not
 *    in its group, or the second family on the native path while unbound) — the deployed gateway's
 *    answer, declared by the spec for the submit operations (§4.5, README "unknown model (503 as the gateway)").
 * Everything else at 5xx is a failure; so is `internal_error` always (the core's answer to an exception
 * it caught), and a 500 is allowed only as `fail-at-submit:500` asked for it.
 */
import { BUILT_IN_MODELS } from '../../mocks/core/keys/catalog.ts';
import { ROUTES } from '../../mocks/core/route-table.ts';
import { Router, type RouteMatch } from '../../mocks/core/http/router.ts';
import type { MockService } from '../../mocks/core/service/service.ts';
import type { RouteContext } from '../../mocks/core/service/service-state.ts';
import {
  controlSpec,
  responseProblems,
  serviceContract,
  SpecValidators,
} from '../../src/spec/index.ts';
import { text, type FuzzStats, type Layer } from './fuzz-stats.ts';

export { FuzzStats, text, type Layer } from './fuzz-stats.ts';

/** One request and its answer, as the service saw and sent them. */
export interface Exchange {
  readonly layer: Layer;
  readonly method: string;
  readonly path: string;
  readonly query: string;
  /** Lower-cased names, as the core received them. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: Uint8Array | undefined;
  readonly status: number;
  readonly responseHeaders: Readonly<Record<string, string | undefined>>;
  /** `undefined`: no body at all. */
  readonly responseBody: Uint8Array | undefined;
  /** Answered by the host before the core (malformed HTTP, CORS preflight): no request id. */
  readonly hostLevel: boolean;
}

const router = new Router<RouteContext>(ROUTES);
const { validators: service } = serviceContract();
const control = new SpecValidators(controlSpec);
const SCHEMAS = {
  ErrorBody: service.schema('ErrorBody'),
  PluginErrorBody: service.schema('PluginErrorBody'),
  ControlError: control.schema('ControlError'),
};
const SUBMIT_OPS = new Set(['createVideoGeneration', 'createVideo', 'createPluginTask']);
const PLUGIN_OPS = new Set(['createPluginTask', 'getPluginTask']);
const utf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('latin1');

export function parseJson(bytes: Uint8Array | undefined): unknown {
  if (bytes === undefined) return undefined;
  try {
    return JSON.parse(utf8.decode(bytes));
  } catch {
    return undefined;
  }
}

function errorCode(body: unknown): unknown {
  const b = body as { error?: { code?: unknown }; code?: unknown } | null;
  return b?.error?.code ?? b?.code;
}

/** Checks one exchange; returns the problems (empty when all properties hold) and counts what it saw. */
export function checkExchange(mock: MockService, ex: Exchange, stats: FuzzStats): string[] {
  const problems: string[] = [];
  stats.onExchange?.(ex);
  stats.bump(stats.statuses[ex.layer], ex.status);
  const contentType = ex.responseHeaders['content-type'] ?? '';
  const hasBody = ex.responseBody !== undefined && ex.responseBody.byteLength > 0;
  const json =
    hasBody && contentType.startsWith('application/json') ? parseJson(ex.responseBody) : undefined;
  const code = errorCode(json);
  stats.bump(stats.codes, `${ex.status} ${ex.status >= 400 ? String(code) : '-'}`);

  if (!(ex.status >= 100 && ex.status <= 599))
    problems.push(`status ${ex.status} is not an HTTP status`);
  if (code === 'internal_error') problems.push(`internal error: ${text(ex.responseBody)}`);
  if (!ex.hostLevel && ex.responseHeaders['x-oneapi-request-id'] === undefined)
    problems.push('no X-Oneapi-Request-Id header');
  if (ex.hostLevel && !HOST_ANSWERS.some((allowed) => allowed(ex, code)))
    problems.push(
      `answered without the core (no X-Oneapi-Request-Id) where the host has ` +
        `no reason to: ${ex.status} ${text(ex.responseBody)}`,
    );
  if (ex.method === 'HEAD' && hasBody) problems.push('a HEAD answer carries a body');

  const match = router.match(ex.method, ex.path);
  if (ex.status >= 400 && ex.method !== 'HEAD') {
    if (!hasBody) problems.push(`error ${ex.status} without a body`);
    else if (!contentType.startsWith('application/json'))
      problems.push(
        `error ${ex.status} is ${contentType || 'untyped'}, not JSON: ${text(ex.responseBody)}`,
      );
    else if (json === undefined)
      problems.push(`error ${ex.status} body is not valid JSON: ${text(ex.responseBody)}`);
    else {
      const names = errorSchemas(ex, match);
      const results = names.map((name) => SCHEMAS[name].validateFull(json));
      if (!results.some((r) => r.valid))
        problems.push(
          `error ${ex.status} body fits none of ${names.join(' | ')}: ` +
            `${results.map((r) => r.errors.join(', ')).join(' | ')}: ` +
            `${text(ex.responseBody)}`,
        );
    }
  }
  if (ex.status >= 500) {
    const reason = allowed5xx(mock, ex, match, code);
    if (reason === undefined)
      problems.push(`5xx not asked for: ${ex.status} ${text(ex.responseBody)}`);
    else stats.bump(stats.allowed5xx, reason);
  }
  if (!ex.hostLevel) problems.push(...specProblems(ex, match, hasBody ? json : undefined));
  return problems;
}

/** What node:http answers itself (no request id): malformed HTTP, odd expectations, CONNECT, CORS preflight, /docs. */
const HOST_ANSWERS: readonly ((ex: Exchange, code: unknown) => boolean)[] = [
  // (The raw 400 carries its body even after a HEAD; a client reading it as HEAD's answer sees none.)
  (ex, code) =>
    ex.status === 400 && (code === 'bad_request' || (ex.method === 'HEAD' && code === undefined)),
  (ex, code) => ex.status === 417 && (code === 'expectation_failed' || ex.method === 'HEAD'),
  (ex, code) => ex.status === 405 && code === 'method_not_allowed' && ex.method === 'CONNECT',
  (ex) => ex.status === 204 && ex.method === 'OPTIONS' && ex.headers['origin'] !== undefined,
  (ex) => /^\/docs(?:$|[/?])/.test(ex.path),
];

/** The error schemas an error may use where it was sent. */
function errorSchemas(ex: Exchange, match: RouteMatch<RouteContext>): (keyof typeof SCHEMAS)[] {
  if (ex.hostLevel || match.kind !== 'found') return ['ErrorBody'];
  if (match.route.access === 'control') return ['ControlError'];
  if (PLUGIN_OPS.has(match.route.operationId)) return ['PluginErrorBody', 'ErrorBody'];
  return ['ErrorBody'];
}

function allowed5xx(
  mock: MockService,
  ex: Exchange,
  match: RouteMatch<RouteContext>,
  code: unknown,
): string | undefined {
  if (match.kind !== 'found' || ex.hostLevel) return undefined;
  const op = match.route.operationId;
  const caller = mock.tokens.authenticate(ex.headers['authorization']);
  // A HEAD answer has no body to name its code: the flaky task decides.
  if (
    (op === 'getVideo' || op === 'getVideoGeneration') &&
    ex.status === 503 &&
    (code === 'temporarily_unavailable' || (ex.method === 'HEAD' && code === undefined))
  ) {
    const task = mock.store.get(match.params['task_id'] ?? '');
    if (task !== undefined && task.plan.flakyEvery !== undefined && task.owner === caller?.user)
      return 'flaky task: 503 on a status query';
  }
  if (
    SUBMIT_OPS.has(op) &&
    code === 'fail_to_fetch_task' &&
    askedSubmitStatuses(ex).includes(ex.status)
  )
    return `fail-at-submit:${ex.status} asked`;
  if (
    SUBMIT_OPS.has(op) &&
    ex.status === 503 &&
    code === 'model_not_found' &&
    caller !== undefined
  ) {
    const model = (parseJson(ex.body) as { model?: unknown } | undefined)?.model;
    const known = BUILT_IN_MODELS.find((m) => m.id === model);
    const noChannel =
      op === 'createPluginTask'
        ? !mock.family.bound || known?.family !== 'second'
        : known === undefined || !known.groups.includes(caller.group);
    if (typeof model === 'string' && noChannel)
      return 'model_not_found: 503 for a model without a channel';
  }
  return undefined;
}

/**
 * Every status a `fail-at-submit:S` in the request's scenario header or body asks for (as the mock
 * reads S: Number).
 */
function askedSubmitStatuses(ex: Exchange): number[] {
  const header = ex.headers['x-mock-scenario'] ?? '';
  const raw = ex.body === undefined ? '' : latin1.decode(ex.body);
  const parsed = ex.body === undefined ? '' : JSON.stringify(parseJson(ex.body) ?? '');
  const where = `${header}\n${raw}\n${parsed}`;
  return [...where.matchAll(/fail-at-submit:\s*([^\s\]",\\]*)/gi)].map((m) => Number(m[1]));
}

/**
 * The answer is one its operation declares: status, media type, body in both readings (`responseProblems`).
 * An answer saying no route matched is judged by the error properties only: over a socket, what node
 * parsed from a mangled request line can differ from the path the case generated.
 */
function specProblems(ex: Exchange, match: RouteMatch<RouteContext>, json: unknown): string[] {
  const code = errorCode(json);
  if (match.kind !== 'found' || code === 'route_not_found' || code === 'method_not_allowed')
    return [];
  const validators = match.route.access === 'service' ? service : control;
  const hasBody = ex.responseBody !== undefined && ex.responseBody.byteLength > 0;
  return responseProblems(validators, match.route.operationId, {
    method: ex.method,
    status: ex.status,
    contentType: ex.responseHeaders['content-type'] ?? '',
    body: hasBody ? (json ?? ex.responseBody) : undefined,
    headers: ex.responseHeaders,
  });
}
