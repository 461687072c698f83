import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostileServer {
  readonly url: string;
  /** Every request it received, in order: `METHOD path`. */
  readonly requests: string[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 playing a deployment written by someone else: `answer` decides each
 * response (it may also never answer). It never keeps the test process alive, and `close` drops every
 * connection, answered or not.
 */
export async function startHostileServer(
  answer: (request: IncomingMessage, response: ServerResponse, body: string) => void,
): Promise<HostileServer> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      requests.push(`${request.method ?? '?'} ${request.url ?? '?'}`);
      answer(request, response, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A JSON answer. */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(text);
}

/** The catalog a deployment of the default model answers. */
export const CATALOG = { object: 'list', data: [{ id: 'video-pro-v1', object: 'model' }] };
