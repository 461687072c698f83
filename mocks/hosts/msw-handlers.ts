import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import type { ClientVerdict } from '../core/client-verdicts/client-report.ts';
import { formatVerdict } from '../core/client-verdicts/report-text.ts';
import { jsonResponse, type CoreRequest, type CoreResponse } from '../core/http-types.ts';
import { ROUTES } from '../core/route-table.ts';
import { Router } from '../core/router.ts';
import { serviceContract } from '../../src/spec/index.ts';
import { createMockService, type MockOptions, type MockService } from '../core/service.ts';

export interface HandlerOptions {
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
 * msw handlers for the simulated service: one per route (plus `HEAD` for each `GET`), matching any
 * origin, and fallbacks so unknown `/v1` routes and methods get the service's JSON errors too.
 * Pass a service to share it with the test (its clock, its store), or options to make one.
 *
 * @example
 * const service = createMockService({ clock: { mode: 'manual' } });
 * const server = setupServer(...createHandlers(service, { onClientViolation: 'error' }));
 * server.listen({ onUnhandledRequest: 'error' });
 */
export function createHandlers(
  serviceOrOptions: MockService | MockOptions = {},
  options: HandlerOptions = {},
): HttpHandler[] {
  const service =
    'handle' in serviceOrOptions ? serviceOrOptions : createMockService(serviceOrOptions);
  const onViolation = options.onClientViolation ?? 'off';
  const resolver = async ({ request }: { request: Request }) => {
    const core = await toCoreRequest(request);
    const response = service.handle(core);
    const violations = response.clientViolations;
    return violations === undefined ? response : violated(core, response, violations, onViolation);
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
    return new HttpResponse(body, { status: response.status, headers: response.headers });
  };
  const handlers: HttpHandler[] = [];
  for (const route of ROUTES) {
    const path = anyOrigin(route.template);
    if (route.method === 'GET') handlers.push(http.get(path, respond), http.head(path, respond));
    else if (route.method === 'POST') handlers.push(http.post(path, respond));
    else if (route.method === 'PUT') handlers.push(http.put(path, respond));
    else handlers.push(http.delete(path, respond));
  }
  handlers.push(http.all(/\/v1\//i, respond), http.all(/\/__mock\//i, respond));
  return handlers;
}

/** A response that violated client rules, as `onClientViolation` asks. */
function violated(
  request: CoreRequest,
  response: CoreResponse,
  violations: readonly ClientVerdict[],
  onViolation: NonNullable<HandlerOptions['onClientViolation']>,
): CoreResponse {
  if (onViolation === 'off') return response;
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
  return jsonResponse(
    400,
    { error: { message, type: 'client_rule_violated', code: 'client_rule_violated' } },
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

/**
 * A route template as a RegExp on the request URL (any origin; `{param}` is one segment). Not an msw path
 * string: msw decodes `:params` and `*` captures with decodeURIComponent, so a malformed escape
 * (`/v1/videos/%E0%A4%A`) threw inside msw's handler lookup (500) instead of reaching the core (404).
 */
function anyOrigin(template: string): RegExp {
  const pattern = template
    .split(/\{\w+\}/)
    .map((literal) => literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`${pattern}/?$`, 'i'); // case-insensitive, as msw's path strings are
}

async function toCoreRequest(request: Request): Promise<CoreRequest> {
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
    path: url.pathname,
    query: url.search.slice(1),
    headers,
    body,
    origin: url.origin,
  };
}
