import type { IncomingHttpHeaders } from 'node:http';
import type { CoreResponse } from '../../core/http/http-types.ts';

/**
 * CORS of the node host. The service routes allow any origin, so a front-end page can call the mock
 * directly as it would the gateway. The control API (`/__mock/…`) allows none: no other site's page
 * may read it or pass a preflight to write to it
 * ([decisions/014](../../decisions/014-mock-http-host.md)).
 */
export function allowsCors(path: string): boolean {
  return !path.startsWith('/__mock');
}

const EXPOSED = 'x-oneapi-request-id, content-range, content-length, retry-after';

/** Adds the CORS headers to an answer to a request that carried `Origin`. */
export function withCors(response: CoreResponse): CoreResponse {
  response.headers['access-control-allow-origin'] = '*';
  response.headers['access-control-expose-headers'] = EXPOSED;
  return response;
}

/** The answer to a preflight (`OPTIONS` with `Origin`) on a service route. */
export function preflight(headers: IncomingHttpHeaders): CoreResponse {
  return {
    status: 204,
    headers: {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD, POST, PUT',
      'access-control-allow-headers':
        headers['access-control-request-headers'] ?? 'authorization, content-type',
      'access-control-max-age': '600',
    },
  };
}
