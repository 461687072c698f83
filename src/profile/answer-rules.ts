import type { ShapeNode } from './profile-format.ts';

/**
 * What a learned answer may make the mock send (issue 33 item 3): only what the service's own answers
 * can be. A profile is a file anyone may hand-edit or learn from a hostile deployment, and the mock
 * serves it on an origin whose control API drives every task: a `text/html` answer echoing the path
 * ran a page's script there, and a learned `set-cookie`, `content-length`, CORS or `refresh` header
 * went out as written. The learner keeps only these (learning anything else as the nearest of them),
 * and a profile holding another is refused at load, naming the field.
 */

/**
 * Media types of the service's answers: JSON (§4: every answer of the API; a dialect such as
 * `application/problem+json` too), plain text (a gateway's bare refusal), a video or bytes (§4.4: the
 * content). Parameters (`; charset=utf-8`) are kept.
 */
const TOKEN = "[a-z0-9!#$%&'*+.^_`|~-]+";
const PARAMETER = `\\s*;\\s*${TOKEN}=("[^"\\\\\\r\\n]*"|${TOKEN})`;
const SERVABLE_BASE = [
  'application/([a-z0-9.-]{1,60}\\+)?json',
  'text/plain',
  'video/[a-z0-9][a-z0-9.+-]{0,60}',
  'application/octet-stream',
].join('|');
const SERVABLE_TYPE = new RegExp(`^(${SERVABLE_BASE})(${PARAMETER})*$`, 'i');

/** Whether a learned `Content-Type` is one the service's answers can carry ('' for none). */
export function isServableContentType(contentType: string): boolean {
  return contentType === '' || (contentType.length <= 200 && SERVABLE_TYPE.test(contentType));
}

/**
 * The type a learned answer is kept with: as sent when servable; any other text (`text/html`, a
 * gateway's JSON errors sent as HTML naming the task, XML) as `text/plain`, with its charset; JSON
 * under another name (`text/json`) as `application/json`; anything else as bytes.
 */
export function servableContentType(contentType: string): string {
  const trimmed = contentType.trim();
  if (isServableContentType(trimmed)) return trimmed;
  const [type = '', ...params] = trimmed.split(';');
  const charset = params.map((p) => p.trim()).find((p) => /^charset=[a-z0-9._-]{1,40}$/i.test(p));
  const withCharset = (base: string) => (charset === undefined ? base : `${base}; ${charset}`);
  const bare = type.trim().toLowerCase();
  if (/^[a-z0-9.+-]+\/([a-z0-9.-]+\+)?json$/.test(bare)) return withCharset('application/json');
  if (/^text\/|\/([a-z0-9.-]+\+)?xml$|^application\/(javascript|ecmascript)$/.test(bare))
    return withCharset('text/plain');
  if (/^video\//.test(bare)) return 'video/mp4';
  return 'application/octet-stream';
}

/**
 * Headers the mock never sends from a profile, whatever their spelling: the transport's framing and
 * connection (the host's: a wrong `content-length` or `transfer-encoding` corrupts the connection),
 * `content-encoding` (the body is served as read, never encoded), cookies, CORS and the answer's own
 * security policy (the host's; `X-Content-Type-Options` a profile may name, but the service sets it
 * last), a refresh or a proxy's internal redirect.
 */
const NEVER = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'trailer',
  'te',
  'proxy-connection',
  'content-encoding',
  'content-type',
  'set-cookie',
  'set-cookie2',
  'cookie',
  'refresh',
  'content-location',
  'link',
  'content-security-policy',
  'content-security-policy-report-only',
  'x-xss-protection',
  'x-sendfile',
  'x-lighttpd-send-file',
  'strict-transport-security',
  'alt-svc',
  'timing-allow-origin',
  'clear-site-data',
]);
const NEVER_PREFIXES = /^(access-control-|cross-origin-|x-accel-|sec-|proxy-|permissions-policy)/;

/**
 * Headers of the service's answers that matter to a client: caching, ranges and redirects,
 * refusals' companions (`Retry-After`, `WWW-Authenticate`, `Allow`), the download's file name.
 */
const NAMED = new Set([
  'cache-control',
  'etag',
  'expires',
  'last-modified',
  'age',
  'pragma',
  'accept-ranges',
  'content-range',
  'content-disposition',
  'location',
  'retry-after',
  'www-authenticate',
  'allow',
]);

/**
 * Whether a header of a learned answer may be sent by the mock: one named above, a rate limit's, or
 * the deployment's own `x-` header (its request ID, its ratios), never one of `NEVER`.
 */
export function isServableHeader(name: string): boolean {
  if (NEVER.has(name) || NEVER_PREFIXES.test(name)) return false;
  return NAMED.has(name) || /ratelimit|rate-limit/.test(name) || name.startsWith('x-');
}

/**
 * What a servable header's learned value may be: a `location` only as an address the mock makes (kind
 * `url`: the core's, or one on the mock's own origin), never a fixed text sending the client elsewhere.
 */
export function servableHeaderProblem(name: string, node: ShapeNode): string | undefined {
  if (!isServableHeader(name))
    return (
      'is not a header the mock sends from a profile (framing, content encoding, cookies, CORS, ' +
      "security policy and refresh are the host's): remove it"
    );
  if (name === 'location' && !('kind' in node && node.kind === 'url'))
    return 'a location is learned as {"kind": "url"} (an address the mock makes), never as fixed text';
  return undefined;
}
