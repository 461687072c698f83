import { serviceUrl } from '../src/client/client-support.ts';

/** A media type of JSON: `application/json`, `application/problem+json`, … */
export const isJsonType = (contentType: string): boolean =>
  /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(contentType.trim());

/** How `GET /v1/models` answered, as far as telling the service from anything else needs. */
export interface CatalogAnswer {
  readonly status: number;
  /** Whether the body is JSON: it parsed as JSON, or its media type says so (a body too deep to read). */
  readonly json: boolean;
}

/**
 * Whether an answer of `GET /v1/models` asked with the key may come from the service: its catalog (a
 * 2xx in JSON; its shape is not shown, §4), a refusal of the key (401, 403: §5), a rate limit (429:
 * §8) or a server error. Anything else (a 404 or 405 for the route, an HTML page, a redirect) is asked
 * again without a key to tell a wrong base URL from a broken catalog (`notTheService`).
 */
export function maybeTheService(withKey: CatalogAnswer): boolean {
  const { status } = withKey;
  if (status >= 200 && status < 300) return withKey.json;
  return status === 401 || status === 403 || status === 429 || status >= 500;
}

/**
 * Why nothing at `baseUrl` answers like the service, or undefined when it may: `GET /v1/models` was
 * answered neither as a catalog nor as a refusal of the key (`maybeTheService`), and the same way
 * without a key, where the service refuses (§5: every request carries the key). The key made no
 * difference, so no service read it: every route of a server that is not this service (or of this
 * service under another path prefix) answers alike. A deployment whose catalog alone is broken still
 * refuses a request without a key, and is judged, not turned away.
 */
export function notTheService(
  baseUrl: string,
  answers: { readonly withKey: CatalogAnswer; readonly withoutKey: CatalogAnswer },
): string | undefined {
  const { withKey, withoutKey } = answers;
  if (maybeTheService(withKey) || withoutKey.status !== withKey.status) return undefined;
  const url = serviceUrl(baseUrl, '/v1/models');
  const how = withKey.json || withKey.status >= 300 ? '' : ' with a body that is not JSON';
  return (
    `nothing at ${baseUrl} answers like the video task service: GET ${url} answered HTTP ` +
    `${withKey.status}${how} with the key and the same without one (the service lists its models ` +
    'to a key and refuses a request without one, §5). Check the path prefix of the base URL: the ' +
    "paths of §4 (/v1/…) are relative to it, so a service behind /api is 'https://host/api' and " +
    'one at the root has none.'
  );
}
