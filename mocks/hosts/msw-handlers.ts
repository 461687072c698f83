import { http, HttpResponse, type HttpHandler } from 'msw';
import type { CoreRequest } from '../core/http-types.ts';
import { ROUTES } from '../core/route-table.ts';
import { createMockService, type MockOptions, type MockService } from '../core/service.ts';

/**
 * msw handlers for the simulated service: one per route (plus `HEAD` for each `GET`), matching any
 * origin, and fallbacks so unknown `/v1` routes and methods get the service's JSON errors too.
 * Pass a service to share it with the test (its clock, its store), or options to make one.
 *
 * @example
 * const service = createMockService({ clock: { mode: 'manual' } });
 * const server = setupServer(...createHandlers(service));
 * server.listen({ onUnhandledRequest: 'error' });
 */
export function createHandlers(serviceOrOptions: MockService | MockOptions = {}): HttpHandler[] {
  const service = 'handle' in serviceOrOptions ? serviceOrOptions : createMockService(serviceOrOptions);
  const resolver = async ({ request }: { request: Request }) => service.handle(await toCoreRequest(request));
  const respond = async (args: { request: Request }) => {
    const response = await resolver(args);
    return new HttpResponse(response.body === undefined ? null : (response.body as BodyInit), { status: response.status, headers: response.headers });
  };
  const handlers: HttpHandler[] = [];
  for (const route of ROUTES) {
    const path = `*${route.template.replace(/\{(\w+)\}/g, ':$1')}`;
    if (route.method === 'GET') handlers.push(http.get(path, respond), http.head(path, respond));
    else if (route.method === 'POST') handlers.push(http.post(path, respond));
    else handlers.push(http.put(path, respond));
  }
  handlers.push(http.all('*/v1/*', respond), http.all('*/__mock/*', respond));
  return handlers;
}

async function toCoreRequest(request: Request): Promise<CoreRequest> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : new Uint8Array(await request.arrayBuffer());
  return { method: request.method, path: url.pathname, query: url.search.slice(1), headers, body, origin: url.origin };
}
