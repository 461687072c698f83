import { Agent as HttpAgent, request as httpRequest, type ClientRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** The deployment behind the proxy: where each request goes, over kept-alive connections. */
export interface Upstream {
  /** `https://staging.example.com/base`, as given (no credentials). */
  readonly url: string;
  /** `https://staging.example.com`: reports' reproductions join the recorded path to it. */
  readonly origin: string;
  /** `/base`, or '' when the upstream is at the root: every forwarded path starts with it. */
  readonly basePath: string;
  /** Starts a request of `pathAndQuery` (the client's, without the base path). */
  send(method: string, pathAndQuery: string, headers: readonly string[]): ClientRequest;
  close(): void;
}

/** The upstream of `--upstream URL`, or why it cannot be one. */
export function openUpstream(raw: string): Upstream | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `--upstream ${raw} is not a URL: give http(s)://host[:port][/base-path]`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `--upstream must be an http:// or https:// URL, got ${url.protocol}`;
  if (url.username !== '' || url.password !== '')
    return (
      '--upstream must not carry credentials (user:password@): each client sends its own key, ' +
      'and the proxy would otherwise print or store them'
    );
  if (url.search !== '' || url.hash !== '')
    return '--upstream takes no query or fragment: give http(s)://host[:port][/base-path]';
  const secure = url.protocol === 'https:';
  const agent = secure
    ? new HttpsAgent({ keepAlive: true, maxFreeSockets: 256 })
    : new HttpAgent({ keepAlive: true, maxFreeSockets: 256 });
  const request = secure ? httpsRequest : httpRequest;
  const basePath = url.pathname.replace(/\/+$/, '');
  const port = url.port === '' ? undefined : Number(url.port);
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  return {
    url: `${url.origin}${basePath}`,
    origin: url.origin,
    basePath,
    send: (method, pathAndQuery, headers) =>
      request({
        protocol: url.protocol,
        hostname,
        port,
        method,
        path: basePath + pathAndQuery,
        headers: ['Host', url.host, ...headers],
        agent,
        // The key-value pairs exactly as given: repeated fields stay repeated, names keep their case.
        joinDuplicateHeaders: false,
      }),
    close: () => agent.destroy(),
  };
}
