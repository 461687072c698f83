import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { CoreRequest, CoreResponse } from '../core/http-types.ts';
import {
  createMockService,
  DEFAULT_MAX_BODY_BYTES,
  type MockOptions,
  type MockService,
} from '../core/service.ts';
import { docsResponse, isDocsPath } from './docs-page.ts';

export interface MockServerOptions extends MockOptions {
  /** Default 4010; 0 picks a free port. */
  readonly port?: number | undefined;
  /** Default 127.0.0.1. */
  readonly host?: string | undefined;
  /** Serve an existing engine instead of creating one from the options. */
  readonly service?: MockService | undefined;
}

export interface RunningMockServer {
  /** `http://HOST:PORT` */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly service: MockService;
  /** Stops accepting connections and closes the open ones. */
  close(): Promise<void>;
}

const EMPTY = new Uint8Array();

/** The core request this host builds: its body is filled in once read. */
type HostRequest = { -readonly [K in keyof CoreRequest]: CoreRequest[K] };
const HOST_HEADER = /^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * Serves the simulated service over node:http. The hot path goes straight from node's request to the
 * service core: no Fetch `Request` objects.
 *
 * @example
 * const server = await startMockServer({ port: 0, clock: { mode: 'manual' } });
 * await fetch(`${server.url}/v1/models`, { headers: { authorization: 'Bearer sk-mock-alice' } });
 * await server.close();
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<RunningMockServer> {
  const service = options.service ?? createMockService(options);
  const host = options.host ?? '127.0.0.1';
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  let fallbackOrigin = '';

  // Origins by Host header: a client keeps using the same one, so the check runs once per value.
  const origins = new Map<string, string>();
  const originOf = (host: string | undefined): string => {
    if (host === undefined) return fallbackOrigin;
    let origin = origins.get(host);
    if (origin === undefined) {
      origin = HOST_HEADER.test(host) ? `http://${host}` : fallbackOrigin;
      if (origins.size < 1_000) origins.set(host, origin);
    }
    return origin;
  };

  // requireHostHeader: node's own check answers a Host-less HTTP/1.1 request with an empty 400; this answers it in JSON.
  const server: Server = createServer({ requireHostHeader: false }, (req, res) => {
    if (
      req.headers.host === undefined &&
      req.httpVersionMajor === 1 &&
      req.httpVersionMinor === 1
    ) {
      req.resume();
      return send(
        res,
        hostError(400, 'bad_request', 'Malformed HTTP request: HTTP/1.1 needs a Host header'),
      );
    }
    const url = req.url ?? '/';
    // The API reference page (`/docs`, docs-page.ts): one char code compare for every other request.
    if (url.charCodeAt(1) === 100 /* d */ && isDocsPath(url)) {
      req.resume();
      return send(
        res,
        docsResponse(req.method ?? 'GET', url, originOf(req.headers.host), service.tokens.list()),
      );
    }
    const q = url.indexOf('?');
    const method = req.method ?? 'GET';
    if (req.headers.origin !== undefined && method === 'OPTIONS') return send(res, preflight(req));
    const request: HostRequest = {
      method,
      path: q < 0 ? url : url.slice(0, q),
      query: q < 0 ? '' : url.slice(q + 1),
      headers: req.headers as Record<string, string | undefined>,
      origin: originOf(req.headers.host),
      body: EMPTY,
      bodyTooLarge: false,
      // Asked only by the control API: reading it costs a getpeername() call.
      get remoteAddress() {
        // A socket already gone has no address: '' is never taken for loopback by the control API.
        return req.socket.remoteAddress ?? '';
      },
    };
    const declared = Number(req.headers['content-length'] ?? 0);
    if (
      method === 'GET' ||
      method === 'HEAD' ||
      (declared === 0 && req.headers['transfer-encoding'] === undefined)
    ) {
      req.resume();
      return send(res, withCors(req, service.handle(request)));
    }
    // A body over the limit is not buffered: the core answers 413 and the connection closes.
    const tooLarge = () => {
      request.bodyTooLarge = true;
      send(res, withCors(req, service.handle(request)), () => req.destroy());
    };
    if (declared > maxBodyBytes) return tooLarge();
    readBody(req, maxBodyBytes).then(
      (body) => {
        if (body === undefined) return tooLarge();
        request.body = body;
        send(res, withCors(req, service.handle(request)));
      },
      () => res.destroy(),
    );
  });
  // Malformed HTTP never reaches the handler: answer it with JSON too, and never hang on a slow client.
  server.on('clientError', (_error, socket) => {
    if (!socket.writable) return socket.destroy();
    socket.end(rawError(400, 'Bad Request', 'bad_request', 'Malformed HTTP request'));
  });
  // Without these listeners node answers `Expect: <not 100-continue>` with an empty 417 and drops CONNECT unanswered.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    send(
      res,
      hostError(
        417,
        'expectation_failed',
        'Only the expectation 100-continue is supported: send the request without this Expect header',
      ),
    );
  });
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    // The socket leaves node's hands here: read it to its end (else it never closes), never let a reset throw.
    socket
      .on('error', () => socket.destroy())
      .setTimeout(5_000, () => socket.destroy())
      .resume();
    socket.end(
      rawError(
        405,
        'Method Not Allowed',
        'method_not_allowed',
        'CONNECT is not allowed: this is not a proxy',
      ),
    );
  });
  server.requestTimeout = 30_000;
  server.headersTimeout = 20_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4010, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  fallbackOrigin = url;
  return {
    url,
    port,
    host,
    service,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 1000).unref();
      }),
  };
}

/** A JSON error (OpenAI envelope) answered by the host itself, for requests the core never sees; closes the connection. */
function hostError(status: number, code: string, message: string): CoreResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', connection: 'close' },
    body: JSON.stringify({ error: { message, type: 'invalid_request_error', code } }),
  };
}

/** The same, as raw bytes for a socket that has no ServerResponse (malformed HTTP, CONNECT). */
function rawError(status: number, reason: string, code: string, message: string): string {
  const body = JSON.stringify({ error: { message, type: 'invalid_request_error', code } });
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

function send(res: ServerResponse, response: CoreResponse, then?: () => void): void {
  const { headers, body } = response;
  if (then !== undefined) headers['connection'] = 'close';
  // A known length spares the chunked framing; HEAD answers keep the length of the GET they mirror.
  if (body !== undefined && headers['content-length'] === undefined)
    headers['content-length'] = String(
      typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength,
    );
  res.writeHead(response.status, headers);
  res.end(body, then);
}

/** The body, or `undefined` once it grows past the limit (the rest is not buffered). */
function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        req.pause();
        resolve(undefined);
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks, size)));
    req.on('error', reject);
  });
}

function withCors(req: IncomingMessage, response: CoreResponse): CoreResponse {
  if (req.headers.origin === undefined) return response;
  response.headers['access-control-allow-origin'] = '*';
  response.headers['access-control-expose-headers'] =
    'x-oneapi-request-id, content-range, content-length, retry-after';
  return response;
}

function preflight(req: IncomingMessage): CoreResponse {
  return {
    status: 204,
    headers: {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD, POST, PUT',
      'access-control-allow-headers':
        req.headers['access-control-request-headers'] ?? 'authorization, content-type',
      'access-control-max-age': '600',
    },
  };
}
