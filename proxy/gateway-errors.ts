import type { Reply } from './client-exchange.ts';

/**
 * The proxy's own answers, in the OpenAI envelope the deployed gateway uses (`ErrorBody`): what a
 * gateway answers when its upstream fails (502, 504), the faults it injects (429, 503), and its
 * control routes' refusals. A client reads them as it reads the deployment's.
 */
export interface ProxyError {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly type?: string | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

export function errorBody(error: ProxyError): string {
  const type = error.type ?? (error.status >= 500 ? 'server_error' : 'invalid_request_error');
  return JSON.stringify({ error: { message: error.message, type, code: error.code } });
}

/** Sends `error` unless an answer has begun (then the connection is closed: nothing else can be said). */
export function sendError(res: Reply, error: ProxyError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = Buffer.from(errorBody(error));
  const fields = [
    'content-type',
    'application/json; charset=utf-8',
    'content-length',
    String(body.length),
    'cache-control',
    'no-store',
  ];
  for (const [name, value] of Object.entries(error.headers ?? {})) fields.push(name, value);
  res.writeHead(error.status, '', fields);
  res.end(body);
}

export const upstreamUnreachable = (why: string): ProxyError => ({
  status: 502,
  code: 'upstream_unreachable',
  type: 'proxy_error',
  message: `The upstream did not answer (${why}): the request may not have reached it`,
});

export const upstreamTimeout = (seconds: number): ProxyError => ({
  status: 504,
  code: 'upstream_timeout',
  type: 'proxy_error',
  message: `The upstream sent nothing for ${seconds} s (--upstream-timeout): the request may have reached it`,
});
