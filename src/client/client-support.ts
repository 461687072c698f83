/** Argument checks, body helpers and the idle timeout used by `VideoTaskClient`. */
import { maskKey } from '../redaction/redactor.ts';

export interface IdleTimeout {
  readonly signal: AbortSignal;
  reset(): void;
  clear(): void;
}

/** An abort signal that fires when `reset()` has not been called for `ms`. */
export function idleTimeout(ms: number): IdleTimeout {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    timer = setTimeout(
      () => controller.abort(new DOMException(`No data for ${ms} ms`, 'TimeoutError')),
      ms,
    );
    timer.unref?.();
  };
  arm();
  return {
    signal: controller.signal,
    reset() {
      if (controller.signal.aborted) return;
      clearTimeout(timer);
      arm();
    },
    clear() {
      clearTimeout(timer);
    },
  };
}

/**
 * A base URL as a message may show it: everything up to its last `@` (where credentials would be, even
 * in text that does not parse as a URL) masked, the scheme kept.
 */
function withoutCredentials(text: string): string {
  const at = text.lastIndexOf('@');
  if (at < 0) return text;
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(text)?.[0] ?? '';
  return `${scheme.length <= at ? scheme : ''}…${text.slice(at)}`;
}

/**
 * The address a relative base URL is read against: the page's (`document.baseURI`, else `location.href`)
 * in a browser, none in Node, where a relative base URL stays an error.
 */
function documentAddress(): string | undefined {
  const scope = globalThis as {
    document?: { baseURI?: unknown };
    location?: { href?: unknown };
  };
  const base = scope.document?.baseURI ?? scope.location?.href;
  return typeof base === 'string' && base !== '' ? base : undefined;
}

/**
 * The service's base URL as every request URL is built on it (`serviceUrl`): an absolute http(s) URL,
 * its path prefix kept (`https://gw.example.com/api`) without trailing slashes, no credentials, query,
 * fragment or trailing `/v1` (§9: the paths carry it). In a browser a relative one (`/`, `/api`) is
 * read against the page's address, as a web app on the service's origin writes it.
 */
export function checkBaseUrl(baseUrl: unknown): string {
  if (typeof baseUrl !== 'string' || baseUrl.trim() === '')
    throw new TypeError('baseUrl is required: the service address, like https://video.example.com');
  let url: URL;
  try {
    url = new URL(baseUrl.trim(), documentAddress());
  } catch {
    throw new TypeError(
      `baseUrl ${JSON.stringify(withoutCredentials(baseUrl))} is not a URL: ` +
        `give the service address, like https://video.example.com`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(
      `baseUrl must be an http or https URL, got ` +
        `${url.protocol.replace(/:$/, '')}: ` +
        `${JSON.stringify(withoutCredentials(baseUrl))}`,
    );
  if (url.username !== '' || url.password !== '')
    throw new TypeError(
      'baseUrl must not contain credentials: pass the key as apiKey (sent as Authorization: Bearer, §5)',
    );
  if (url.search !== '' || url.hash !== '')
    throw new TypeError(
      `baseUrl must not have a query or fragment: ${JSON.stringify(`${url.origin}${url.pathname}`)} …`,
    );
  const base = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  if (/\/v1$/i.test(base))
    throw new TypeError(
      `baseUrl ${JSON.stringify(baseUrl)} ends in /v1: give the address ` +
        `without it (${JSON.stringify(base.slice(0, -3))}); the paths carry the ` +
        `/v1 prefix (§9)`,
    );
  return base;
}

/**
 * The URL of one request: the base URL, its path prefix kept whatever its trailing slashes, then the
 * path of §4 (`/v1/videos/…`). The one URL join of the project: the client, the contract suite's
 * requests, their curl reproductions and the HAR all build their URLs here (issue 31 item 5: a join by
 * `new URL(path, base)` dropped a base's `/api`).
 */
export function serviceUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path.startsWith('/') ? '' : '/'}${path}`;
}

export function checkApiKey(apiKey: unknown): string {
  if (typeof apiKey !== 'string' || apiKey === '')
    throw new TypeError('apiKey is required: the key sent as Authorization: Bearer <API_KEY> (§5)');
  // An invalid header value would make fetch throw later with the value in its message: refuse it here, unnamed.
  if (!/^[\x21-\x7e]+$/.test(apiKey))
    throw new TypeError(
      `apiKey ${maskKey(apiKey)} contains whitespace or characters not allowed in an HTTP header`,
    );
  return apiKey;
}

export function checkTaskId(taskId: unknown): string {
  if (typeof taskId !== 'string' || taskId === '')
    throw new TypeError('A task ID is required: the public task ID returned on submission (§1)');
  // Path-encoded (encodeURIComponent, api-request.ts); dot segments would still be normalised away by the URL parser.
  if (taskId === '.' || taskId === '..')
    throw new TypeError(`${JSON.stringify(taskId)} is not a task ID`);
  return taskId;
}

/**
 * A task plugin's name as its native path carries it (`/{plugin_name}/api/v3/…`, §4.5): one path
 * segment of letters, digits, `.`, `_` and `-`, never a dot segment.
 */
export function checkPluginName(name: unknown): string {
  if (typeof name !== 'string' || !/^[A-Za-z0-9._-]+$/.test(name) || /^\.{1,2}$/.test(name))
    throw new TypeError(
      `A plugin name is one path segment (letters, digits, . _ -) like alt-video, got ${JSON.stringify(name)}`,
    );
  return name;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * `value` as text for a message: `String()` of a primitive or a function; for an object its JSON
 * (its `String()` would only say `[object Object]`), or `[object Type]` when it has none (a cycle).
 */
export function textOf(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'bigint':
    case 'boolean':
    case 'symbol':
    case 'undefined':
    case 'function':
      return String(value);
    case 'object':
      if (value === null) return 'null';
      try {
        return JSON.stringify(value) ?? Object.prototype.toString.call(value);
      } catch {
        return Object.prototype.toString.call(value);
      }
  }
}

export function preview(value: unknown): string {
  const text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? textOf(value));
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function contentLength(value: string | null): number | undefined {
  if (value === null || !/^\s*\d+\s*$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The text of at most the first `limit` bytes of a body; the rest is cancelled, never read. */
export async function readCapped(body: ReadableStream<Uint8Array>, limit: number): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) return text + decoder.decode();
      size += value.byteLength;
      text += decoder.decode(value.subarray(0, Math.max(0, value.byteLength - (size - limit))), {
        stream: true,
      });
    }
    return text;
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/** `connect ECONNREFUSED 127.0.0.1:1` from fetch's `TypeError: fetch failed` and its causes. */
export function describeCause(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      if (current.message && current.message !== 'fetch failed') parts.push(current.message);
      else if (typeof code === 'string') parts.push(code);
      current = current.cause;
    } else {
      parts.push(textOf(current));
      break;
    }
  }
  return parts.length === 0 ? 'network error' : [...new Set(parts)].join(': ');
}
