import type { CoreRequest, CoreResponse } from '../http/http-types.ts';
import { controlError } from '../http/errors.ts';

/**
 * Whether the control API (`/__mock/*`) may answer this request; the refusal when it may not
 * ([decisions/014](../../decisions/014-mock-http-host.md)).
 *
 * In-process (no `remoteAddress`: the msw host) only the admin token, when set, is checked. A request
 * that came over a socket must also not come from a page of another site (`Origin`), must name this
 * mock in `Host` unless the admin token is in use (DNS rebinding), must come from loopback unless the
 * admin token is in use, and a write must be `Content-Type: application/json`, which no web page can
 * send to another origin without a CORS preflight (the node host answers none on `/__mock/`).
 */
export function controlRefusal(
  request: CoreRequest,
  adminToken: string | undefined,
): CoreResponse | undefined {
  const address = request.remoteAddress;
  if (address !== undefined && isCrossSite(request))
    return controlError(
      403,
      'forbidden',
      'The control API does not answer web pages of other origins: call it from a script or a test',
    );
  if (adminToken !== undefined) {
    if (!sameSecret(bearer(request.headers['authorization']), adminToken))
      return controlError(
        403,
        'forbidden',
        'The control API needs Authorization: Bearer <admin token> (the mock runs with --admin-token)',
      );
  } else if (address !== undefined) {
    if (!isLoopback(address))
      return controlError(
        403,
        'forbidden',
        'The control API is reachable from loopback only; start the mock with --admin-token to reach it from elsewhere',
      );
    if (request.hostAllowed === false)
      return controlError(
        403,
        'forbidden',
        'The control API answers only under the address the mock listens on or ' +
          'localhost, and this Host header names another server (as a ' +
          'DNS-rebinding page would): use that address, or start the mock with ' +
          '--admin-token',
      );
  }
  if (address !== undefined && isWrite(request.method) && !isJson(request.headers['content-type']))
    return controlError(
      415,
      'unsupported_media_type',
      'Control API writes need Content-Type: application/json (with or without a body)',
    );
  return undefined;
}

export function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/**
 * An `Origin` other than the mock's own: a page of another site (browsers send `Origin: null` from
 * sandboxes and files).
 */
function isCrossSite(request: CoreRequest): boolean {
  const origin = request.headers['origin'];
  return origin !== undefined && origin.toLowerCase() !== request.origin.toLowerCase();
}

function isWrite(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD';
}

function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

function bearer(authorization: string | undefined): string {
  return authorization?.startsWith('Bearer ') === true ? authorization.slice(7) : '';
}

/**
 * `given === secret`, in a time that depends only on `given`'s length: a timing probe learns nothing
 * about the secret's characters. (No `node:` import: the core also runs in browsers.)
 */
export function sameSecret(given: string, secret: string): boolean {
  let difference = given.length ^ secret.length;
  for (let i = 0; i < given.length; i++)
    difference |= given.charCodeAt(i) ^ secret.charCodeAt(i % secret.length);
  return difference === 0 && secret.length > 0;
}
