import { isJsonType, notTheService, type CatalogAnswer } from '../contracts/service-present.ts';
import { readCapped, serviceUrl } from '../src/client/client-support.ts';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../src/client/client-types.ts';
import { ApiError, UnexpectedResponseError } from '../src/client/errors.ts';

/** How long each of the two catalog requests may take. */
const TIMEOUT_MS = 10_000;

/** `GET /v1/models` at `baseUrl`, with `key` or without one, as far as telling the service needs. */
async function askCatalog(baseUrl: string, key: string | undefined): Promise<CatalogAnswer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (key !== undefined) headers['authorization'] = `Bearer ${key}`;
  const response = await fetch(serviceUrl(baseUrl, '/v1/models'), {
    headers,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (isJsonType(response.headers.get('content-type') ?? '')) {
    await response.body?.cancel();
    return { status: response.status, json: true };
  }
  // No more than the client reads of any answer: a body without end is not read for the whole timeout.
  const text =
    response.body === null ? '' : await readCapped(response.body, DEFAULT_MAX_RESPONSE_BYTES);
  try {
    JSON.parse(text);
    return { status: response.status, json: true };
  } catch {
    return { status: response.status, json: false };
  }
}

/**
 * Why nothing at `baseUrl` answers like the service (contracts/service-present.ts: `GET /v1/models`
 * answered neither as a catalog nor as a refusal of the key, and the same without a key), or undefined
 * when it may be the service or the question cannot be asked (no answer: the command says so itself).
 * The client commands ask it after an answer that may mean a wrong base URL (a 404, a page), so a
 * wrong path prefix is exit 2 saying so (issue 31 item 5), never a missing task or a failed check.
 */
export async function nothingAnswersHere(
  baseUrl: string,
  apiKey: string,
): Promise<string | undefined> {
  try {
    const withKey = await askCatalog(baseUrl, apiKey);
    const withoutKey = await askCatalog(baseUrl, undefined);
    return notTheService(baseUrl, { withKey, withoutKey });
  } catch {
    return undefined;
  }
}

/**
 * After a client error that may mean no service reads this base URL (a 404 or 405, or a page where the
 * service answers JSON), why nothing there answers like the service, if so; undefined after any other
 * error, or without a key to ask with.
 */
export function nothingHereAfter(
  error: unknown,
  baseUrl: string,
  apiKey: string | undefined,
): Promise<string | undefined> {
  const maybe =
    error instanceof UnexpectedResponseError ||
    (error instanceof ApiError && (error.status === 404 || error.status === 405));
  if (!maybe || apiKey === undefined) return Promise.resolve(undefined);
  return nothingAnswersHere(baseUrl, apiKey);
}
