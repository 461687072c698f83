import {
  delay,
  http,
  HttpResponse,
  type HttpCustomPredicate,
  type HttpHandler,
  type PathParams,
} from 'msw';
import type { ClientVerdict } from '../core/client-verdicts/client-report.ts';
import { formatVerdict } from '../core/client-verdicts/report-text.ts';
import { errorResponse } from '../core/http/errors.ts';
import {
  answerTo,
  DROPPED_HEADERS,
  type CoreRequest,
  type CoreResponse,
} from '../core/http/http-types.ts';
import { createMockService, type MockOptions, type MockService } from '../core/service/service.ts';

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
 * msw handlers for the simulated service: one for the paths the service declares (whatever the
 * method: another one gets the service's JSON 405, as over HTTP), one for each of the mock's own
 * namespaces (`/__mock/`, `/__artifacts/`: an unknown name gets its JSON 404). The core routes what
 * they take, as it does for the node host. Any other path — another `/v1` API, the application's own
 * `/api/v1/…` — is not the mock's: it goes on to the test's handlers or `onUnhandledRequest`
 * (docs/mock.md, "Which requests the handlers answer"). Paths match from their start, on any origin,
 * or with `baseUrl` on that origin and base path only. Pass a service to share it with the test (its
 * clock, its store), or options to make one.
 *
 * @example
 * const service = createMockService({ clock: { mode: 'manual' } });
 * const server = setupServer(
 *   ...createHandlers(service, { baseUrl: 'https://video.example.com', onClientViolation: 'error' }),
 * );
 * server.listen({ onUnhandledRequest: 'error' });
 */
export const createHandlers = handlersMadeWith(createMockService);

/**
 * `createHandlers` for an entry whose services `makeService` makes from options: the core's
 * `createMockService` (above), or the Node entry's, which adds defects by name and a state file
 * (decisions/029). A service passed in is used as it is.
 */
export function handlersMadeWith<O extends MockOptions, S extends MockService>(
  makeService: (options: O) => S,
): (serviceOrOptions?: S | O, options?: HandlerOptions) => HttpHandler[] {
  return (serviceOrOptions = {} as O, options = {}) =>
    handlersFor(
      isService(serviceOrOptions) ? serviceOrOptions : makeService(serviceOrOptions),
      options,
    );
}

function isService<S extends MockService>(value: S | MockOptions): value is S {
  return 'handle' in value;
}

/** The handlers serving `service`. */
function handlersFor(service: MockService, options: HandlerOptions): HttpHandler[] {
  const scope = scopeOf(options.baseUrl);
  const onViolation = options.onClientViolation ?? 'off';
  // A violation judged with no request being answered (found when a report is read) is told too.
  if (onViolation !== 'off')
    service.clientVerdicts.onLateViolations((late) => told(late, onViolation));
  const answer = async ({ request, params }: { request: Request; params: PathParams }) => {
    const core = await toCoreRequest(request, params as Addressed);
    let response = service.handle(core);
    const violations = response.clientViolations;
    if (violations !== undefined && onViolation !== 'off')
      response = violated(service, core, response, violations(), onViolation);
    return toFetchResponse(response);
  };
  return prefixesOf(service).map((owns) => http.all(scope.predicate(owns), answer));
}

/**
 * The paths the handlers take, one handler each (the path after the base path, as the core routes
 * it, lower-cased: msw's paths match in any case, and the core answers a path of another case with
 * its 404): the paths the service's routes declare (the core's router tells: it is the only thing that
 * matches a path), and the mock's own namespaces whole.
 */
function prefixesOf(service: MockService): readonly ((path: string) => boolean)[] {
  return [
    (path) => service.declares(withoutTrailingSlash(path)),
    (path) => path.startsWith('/__mock/'),
    (path) => path.startsWith('/__artifacts/'),
  ];
}

/** `/v1/models/` is `/v1/models` to msw (whose paths allow one trailing slash): the core answers it. */
function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** What the predicate read of a request's URL, handed to the resolver as msw's `params`. */
interface Addressed extends PathParams {
  /** The path after the base path, as received (percent-encoded). */
  readonly path: string;
  /** The query without `?`. */
  readonly query: string;
  /** The origin and base path, as the client wrote them. */
  readonly origin: string;
}

/**
 * The core's answer as a Fetch Response. The core has already stripped a HEAD answer's body, host
 * answers included (`onClientViolation: 'error'`'s 400 went through `violated`, which asks the core).
 * Scenario `lost-answer` (§7): the task exists; the answer is a network error, or comes too late.
 */
async function toFetchResponse(response: CoreResponse): Promise<Response> {
  const { lost } = response;
  if (lost !== undefined) {
    if (lost.holdMs === undefined) return HttpResponse.error();
    await delay(lost.holdMs);
  }
  const body = response.body === undefined ? null : (response.body as BodyInit);
  return new HttpResponse(body, { status: response.status, headers: sendable(response.headers) });
}

/** Violations no request carries (issue 32 item 4): to the callback, else printed; no answer changes. */
function told(
  violations: readonly ClientVerdict[],
  onViolation: Exclude<HandlerOptions['onClientViolation'], 'off' | undefined>,
): void {
  if (typeof onViolation === 'function') {
    for (const verdict of violations) onViolation(verdict);
    return;
  }
  const text = violations.map(formatVerdict).join('\n');
  if (onViolation === 'warn') console.warn(`[videotask mock] client rule broken:\n${text}`);
  else console.error(`[videotask mock] client rule broken:\n${text}`);
}

/** A response that violated client rules, as `onClientViolation` asks. */
function violated(
  service: MockService,
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
  if (!service.declaresStatus(request.method, request.path, 400)) return { ...response, lost: {} };
  const first = violations[0]!;
  const message =
    `Client rule ${first.rule} (${first.section}) violated: ${first.message}. ` +
    `Do instead: ${first.advice} (videotask mock, onClientViolation: 'error')`;
  const refusal = errorResponse(
    'client_rule_violated',
    { problem: message },
    { 'x-mock-client-rule': violations.map((v) => v.rule).join(', ') },
  );
  return answerTo(request.method, refusal);
}

/** The part of every URL the handlers answer, and what the core is told of it. */
interface Scope {
  /**
   * An msw predicate: the request's URL is in the scope and `owns` its path (after the base path,
   * lower-cased); what it read of the URL goes to the resolver as `params` (`Addressed`).
   */
  readonly predicate: (owns: (path: string) => boolean) => HttpCustomPredicate<Addressed>;
}

function scopeOf(baseUrl: string | undefined): Scope {
  // Case-insensitive, as msw's path strings are (the origin is lower-case in both already).
  const base = baseUrl === undefined ? undefined : parseBaseUrl(baseUrl);
  const prefix = base === undefined ? '' : `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
  const basePath = base === undefined ? 0 : prefix.length - base.origin.length;
  const wanted = prefix.toLowerCase();
  return {
    predicate:
      (owns) =>
      ({ request }) => {
        const url = new URL(request.url);
        const { origin, pathname } = url;
        if (base !== undefined && !`${origin}${pathname}`.toLowerCase().startsWith(wanted))
          return false;
        // The base path is followed by the service's path, from its first '/'.
        const path = pathname.slice(basePath);
        if (path.charCodeAt(0) !== 47 /* '/' */ || !owns(path.toLowerCase())) return false;
        const params: Addressed = {
          path,
          query: url.search.slice(1),
          // Absolute addresses the mock hands out (result URLs, redirects) keep the base path.
          origin: `${origin}${pathname.slice(0, basePath)}`,
        };
        return { matches: true, params };
      },
  };
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

/** The core's view of a Fetch request, from what the predicate read of its URL. */
async function toCoreRequest(request: Request, address: Addressed): Promise<CoreRequest> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body =
    request.method === 'GET' || request.method === 'HEAD'
      ? undefined
      : new Uint8Array(await request.arrayBuffer());
  const { method } = request;
  return {
    method,
    path: address.path,
    query: address.query,
    headers,
    body,
    origin: address.origin,
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
