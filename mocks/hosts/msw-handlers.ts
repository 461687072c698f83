import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import type { ClientVerdict } from '../core/client-verdicts/client-report.ts';
import { formatVerdict } from '../core/client-verdicts/report-text.ts';
import { errorResponse } from '../core/errors.ts';
import { DROPPED_HEADERS, type CoreRequest, type CoreResponse } from '../core/http-types.ts';
import { ROUTES } from '../core/route-table.ts';
import { Router } from '../core/router.ts';
import { serviceContract } from '../../src/spec/index.ts';
import { createMockService, type MockOptions, type MockService } from '../core/service.ts';

/** How `createHandlers` serves the mock through msw. */
export interface HandlerOptions {
  /**
   * The address the application under test calls the service at (`https://video.example.com`, with a
   * base path if it has one: `https://gateway.example.com/video`). Set, the handlers answer requests
   * to that origin and base path only, so requests to other APIs — OpenAI's `/v1/videos` and
   * `/v1/models` have the same paths as this service — reach the test's own handlers or msw's
   * `onUnhandledRequest`. Unset (the default), they answer the service's paths on any origin.
   * A relative address is resolved against the page's location (browsers only).
   */
  readonly baseUrl?: string | undefined;
  /**
   * What a request that violates one of the document's client rules gets (docs/client-verdicts.md),
   * in the spirit of msw's `onUnhandledRequest`: `'error'` prints the verdict and answers the request
   * with a 400 `client_rule_violated` naming the rule, so the client under test fails loudly (the
   * request has had its effect: a resubmission made its task); `'warn'` prints it and answers as
   * usual; a function is called with each verdict; `'off'` (default): only the report has it.
   */
  readonly onClientViolation?: 'error' | 'warn' | 'off' | ((verdict: ClientVerdict) => void);
}

/**
 * msw handlers for the simulated service: one per route (plus `HEAD` for each `GET`), and for every
 * path the service declares a fallback that answers other methods with its JSON 405, as the service
 * does. The mock's own namespaces (`/__mock/`, `/__artifacts/`) get its JSON 404 for unknown names.
 * Any other path — another `/v1` API, the application's own `/api/v1/…` — is not the mock's: it goes
 * on to the test's handlers or `onUnhandledRequest` (docs/mock.md, "Which requests the handlers
 * answer"). Paths match from their start, on any origin, or with `baseUrl` on that origin and base
 * path only. Pass a service to share it with the test (its clock, its store), or options to make one.
 *
 * @example
 * const service = createMockService({ clock: { mode: 'manual' } });
 * const server = setupServer(
 *   ...createHandlers(service, { baseUrl: 'https://video.example.com', onClientViolation: 'error' }),
 * );
 * server.listen({ onUnhandledRequest: 'error' });
 */
export function createHandlers(
  serviceOrOptions: MockService | MockOptions = {},
  options: HandlerOptions = {},
): HttpHandler[] {
  const service =
    'handle' in serviceOrOptions ? serviceOrOptions : createMockService(serviceOrOptions);
  const scope = scopeOf(options.baseUrl);
  const onViolation = options.onClientViolation ?? 'off';
  const resolver = async ({ request }: { request: Request }) => {
    const core = await toCoreRequest(request, scope.basePath);
    const response = service.handle(core);
    const violations = response.clientViolations;
    if (violations === undefined || onViolation === 'off') return response;
    return violated(core, response, violations(), onViolation);
  };
  const respond = async (args: { request: Request }) => {
    const response = await resolver(args);
    // Scenario `lost-answer` (§7): the task exists; the answer is a network error, or comes too late.
    const { lost } = response;
    if (lost !== undefined) {
      if (lost.holdMs === undefined) return HttpResponse.error();
      await delay(lost.holdMs);
    }
    // HTTP never gives a HEAD response a body (node:http drops it; so must this host).
    const body =
      response.body === undefined || args.request.method === 'HEAD'
        ? null
        : (response.body as BodyInit);
    return new HttpResponse(body, { status: response.status, headers: sendable(response.headers) });
  };
  const handlers: HttpHandler[] = [];
  for (const route of ROUTES) {
    const path = scope.match(templatePattern(route.template));
    if (route.method === 'GET') handlers.push(http.get(path, respond), http.head(path, respond));
    else if (route.method === 'POST') handlers.push(http.post(path, respond));
    else if (route.method === 'PUT') handlers.push(http.put(path, respond));
    else handlers.push(http.delete(path, respond));
  }
  // After every route: a declared path asked with another method (the core answers 405 with Allow),
  // and the mock's own namespaces (the core answers 404 for a name it does not know).
  const declared = [...new Set(ROUTES.map((r) => templatePattern(r.template)))];
  handlers.push(http.all(scope.match(`(?:${declared.join('|')})`), respond));
  handlers.push(http.all(scope.match(`/(?:__mock|__artifacts)/.*`), respond));
  return handlers;
}

/** A response that violated client rules, as `onClientViolation` asks. */
function violated(
  request: CoreRequest,
  response: CoreResponse,
  violations: readonly ClientVerdict[],
  onViolation: Exclude<HandlerOptions['onClientViolation'], 'off' | undefined>,
): CoreResponse {
  if (typeof onViolation === 'function') {
    for (const verdict of violations) onViolation(verdict);
    return response;
  }
  // Printing is the point of these two settings, as msw's own onUnhandledRequest prints.
  const text = violations.map(formatVerdict).join('\n');
  if (onViolation === 'warn') {
    console.warn(`[videotask mock] client rule broken:\n${text}`);
    return response;
  }
  console.error(`[videotask mock] client rule broken:\n${text}`);
  // An operation that declares no 400 (listModels, getPluginTask) fails as msw's own 'error' does.
  if (!declares400(request)) return { ...response, lost: {} };
  const first = violations[0]!;
  const message =
    `Client rule ${first.rule} (${first.section}) violated: ${first.message}. ` +
    `Do instead: ${first.advice} (videotask mock, onClientViolation: 'error')`;
  return errorResponse(
    'client_rule_violated',
    { problem: message },
    { 'x-mock-client-rule': violations.map((v) => v.rule).join(', ') },
  );
}

const router = new Router(ROUTES);

function declares400(request: CoreRequest): boolean {
  const match = router.match(request.method, request.path);
  if (match.kind !== 'found') return false;
  const { operation } = serviceContract().validators.operation(match.route.operationId);
  return operation.responses['400'] !== undefined;
}

/** The part of every URL the handlers answer, and what the core is told of it. */
interface Scope {
  /** The base URL's path without its trailing slash ('' at the root); stripped before routing. */
  readonly basePath: string;
  /** A RegExp on the URL msw matches (origin and path, no query): the scope, then `pathPattern`. */
  readonly match: (pathPattern: string) => RegExp;
}

/** Any origin: a scheme, `//`, the authority; the path is matched from its first `/`. */
const ANY_ORIGIN = '[a-z][a-z0-9+.-]*://[^/]+';

function scopeOf(baseUrl: string | undefined): Scope {
  if (baseUrl === undefined)
    return { basePath: '', match: (path) => new RegExp(`^${ANY_ORIGIN}${path}/?$`, 'i') };
  const url = parseBaseUrl(baseUrl);
  const basePath = url.pathname.replace(/\/+$/, '');
  const prefix = escapeRegExp(`${url.origin}${basePath}`);
  // Case-insensitive, as msw's path strings are (the origin is lower-case in both already).
  return { basePath, match: (path) => new RegExp(`^${prefix}${path}/?$`, 'i') };
}

function parseBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl, (globalThis as { location?: { href: string } }).location?.href);
  } catch {
    throw new TypeError(
      `createHandlers: baseUrl must be an absolute http(s) address such as ` +
        `"https://video.example.com", got ${JSON.stringify(baseUrl)}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`createHandlers: baseUrl must be http(s), got ${url.protocol}`);
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '')
    throw new TypeError(
      'createHandlers: baseUrl is an origin and an optional base path, without a query, ' +
        'fragment or credentials',
    );
  return url;
}

/**
 * A route template as a RegExp source for its path (`{param}` is one segment). Not an msw path
 * string: msw decodes `:params` and `*` captures with decodeURIComponent, so a malformed escape
 * (`/v1/videos/%E0%A4%A`) threw inside msw's handler lookup (500) instead of reaching the core (404).
 * Hence no capturing group anywhere in the handlers' patterns either.
 */
function templatePattern(template: string): string {
  return template
    .split(/\{\w+\}/)
    .map(escapeRegExp)
    .join('[^/]+');
}

function escapeRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

async function toCoreRequest(request: Request, basePath: string): Promise<CoreRequest> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body =
    request.method === 'GET' || request.method === 'HEAD'
      ? undefined
      : new Uint8Array(await request.arrayBuffer());
  return {
    method: request.method,
    // The handlers matched the base path already (in any case); the service's routes start after it.
    path: url.pathname.slice(basePath.length),
    query: url.search.slice(1),
    headers,
    body,
    // Absolute addresses the mock hands out (result URLs, redirects) keep the base path.
    origin: `${url.origin}${url.pathname.slice(0, basePath.length)}`,
  };
}

/** A header name (RFC 9110 §5.1: a token) and a value (a ByteString without NUL or a line break) Fetch takes. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const UNFETCHABLE_VALUE = /[^\x01-\x09\x0b\x0c\x0e-\xff]/;

/**
 * The core's headers as a Fetch Response can carry them. One it cannot (a value beyond Latin-1 or with
 * a line break: a learned profile's header echoing the model asked for, "vidéo€") is left out and
 * named in `x-mock-dropped-headers`, as the node host does (host-answers.ts): the answer the client is
 * tested against, never msw's 500 with a stack trace. (Checked here: msw's interceptors wrap `Headers`,
 * whose constructor does not refuse such a value until msw copies it.)
 */
function sendable(headers: Record<string, string>): Record<string, string> {
  let dropped: string[] | undefined;
  for (const [name, value] of Object.entries(headers))
    if (!HEADER_NAME.test(name) || UNFETCHABLE_VALUE.test(value)) (dropped ??= []).push(name);
  if (dropped === undefined) return headers;
  const kept = { ...headers };
  for (const name of dropped) delete kept[name];
  kept[DROPPED_HEADERS] = dropped.map(encodeURIComponent).join(', ');
  return kept;
}
