import { serviceUrl } from '../src/client/client-support.ts';
import type { Exchange, KeptExchange, KeyRole } from './http-recorder.ts';

/**
 * How a QA engineer replays one exchange of a run and finds it in the deployment's logs: the request as
 * a `curl` command line (keys as shell variables, never their values), the deployment's own request ID,
 * and what arrived, in a line.
 */

/** What stands for each caller's key in a command line: a variable the engineer sets, or no header. */
const KEY_IN_COMMAND: Readonly<Record<KeyRole, string | undefined>> = {
  primary: '"Authorization: Bearer $VIDEOTASK_API_KEY"',
  other: '"Authorization: Bearer $VIDEOTASK_OTHER_API_KEY"',
  // Any key the deployment does not know is an invalid key; a short one reads as such in a report.
  invalid: "'Authorization: Bearer wrong'",
  none: undefined,
};

/** `text` as one single-quoted shell word. */
const shellWord = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** `x-oneapi-request-id` → `X-Oneapi-Request-Id`. */
const headerName = (name: string): string => name.replace(/(^|-)([a-z])/g, (m) => m.toUpperCase());

/**
 * The exchange's request as a `curl` command line that sends the same method, URL, headers and body,
 * showing the answer's status line and headers (`-i`; `-I` for HEAD). GETs follow redirects (`-L`) as
 * the suite does. The key is `$VIDEOTASK_API_KEY` (`$VIDEOTASK_OTHER_API_KEY` for another user).
 * Replaying a submission creates a task, as the original did.
 */
export function curlOf(
  exchange: Pick<Exchange, 'method' | 'path' | 'as' | 'sent'>,
  baseUrl: string,
): string {
  const { method } = exchange;
  const read = method === 'GET' || method === 'HEAD';
  const words = ['curl', '-sS', method === 'HEAD' ? '-I' : '-i'];
  if (read) words.push('-L');
  if (!read) words.push('-X', method);
  words.push(shellWord(new URL(serviceUrl(baseUrl, exchange.path)).href));
  const key = KEY_IN_COMMAND[exchange.as];
  if (key !== undefined) words.push('-H', key);
  for (const [name, value] of Object.entries(exchange.sent.headers))
    words.push('-H', shellWord(`${headerName(name)}: ${value}`));
  if (exchange.sent.body !== undefined) words.push('--data-raw', shellWord(exchange.sent.body));
  return words.join(' ');
}

/** Headers that may carry the deployment's request ID, best first; then any other `*request-id*`. */
const PREFERRED = ['x-oneapi-request-id', 'x-request-id'];
const REQUEST_ID = /request-?id/i;

/**
 * The deployment's own ID for the request, as `X-Oneapi-Request-Id: …` (or whichever `*request-id*`
 * header carried it, never an echo of the client request ID the suite sent as `X-Request-Id`), or the `(request id: …)`
 * its error messages end with (the gateway's habit).
 */
export function serviceRequestIdOf(
  exchange: KeptExchange,
): { readonly source: string; readonly value: string } | undefined {
  const names = Object.keys(exchange.headers).filter((n) => REQUEST_ID.test(n));
  names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  for (const name of names) {
    const value = exchange.headers[name];
    if (value !== undefined && value !== '' && value !== exchange.clientRequestId)
      return { source: headerName(name), value };
  }
  // The kept start of the body (4 KiB) holds an error message whole.
  const found = /\(request id: ([^)\s"]+)\)"/.exec(new TextDecoder().decode(exchange.head));
  return found === null ? undefined : { source: 'its error message', value: found[1]! };
}

const rank = (name: string): number => {
  const at = PREFERRED.indexOf(name.toLowerCase());
  return at < 0 ? PREFERRED.length : at;
};

/** What arrived, in a line: `HTTP 200 · video/mp4 · 52 bytes · 31 ms`, or why nothing did. */
export function actualOf(exchange: KeptExchange): string {
  if (exchange.networkError !== undefined) return `no answer: ${exchange.networkError}`;
  return [
    `HTTP ${exchange.status}`,
    exchange.contentType || 'no content type',
    `${exchange.bytes} bytes`,
    ...(exchange.redirected ? ['after a redirect'] : []),
    ...(exchange.bodyError === undefined ? [] : [`the body broke off: ${exchange.bodyError}`]),
    `${Math.round(exchange.ms)} ms`,
  ].join(' · ');
}
