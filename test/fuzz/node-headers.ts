// How node:http folds repeated request headers: the core layer is fed exactly what node gives it.
/**
 * Header names node:http keeps only the first of when repeated (`IncomingMessage.headers`); the others
 * are joined with ", " (cookie with "; "). The core layer is fed exactly what node would give it.
 */
const FIRST_ONLY = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

export function nodeHeaders(list: readonly (readonly [string, string])[]): Record<string, string> {
  const headers = new Map<string, string>();
  for (const [rawName, value] of list) {
    const name = rawName.toLowerCase();
    const before = headers.get(name);
    if (before === undefined) headers.set(name, value);
    else if (!FIRST_ONLY.has(name))
      headers.set(name, `${before}${name === 'cookie' ? '; ' : ', '}${value}`);
  }
  return Object.fromEntries(headers);
}
