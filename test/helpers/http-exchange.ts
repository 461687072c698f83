import { request, type IncomingHttpHeaders } from 'node:http';

export interface Exchange {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  /** The body parsed as JSON, `undefined` when it is not JSON. */
  readonly json: unknown;
}

/**
 * One request through node:http, which (unlike fetch) sends any `Host` and `Origin` it is given:
 * what a browser under DNS rebinding or a page of another site sends.
 */
export function exchange(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const headers = options.headers ?? {};
    const req = request(
      url,
      { method: options.method ?? 'GET', headers, agent: false, setHost: !('host' in headers) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
