import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import type { CoreRequest, CoreResponse } from '../../core/http/http-types.ts';
import { DEFAULT_MAX_BODY_BYTES } from '../../core/service/service.ts';
import { createMockService, type MockOptions, type MockService } from '../create-mock-service.ts';
import { answerAndClose, guardConnections, type ConnectionLimits } from './connection-guard.ts';
import { allowsCors, preflight, withCors } from './cors.ts';
import { DocsFiles, docsResponse, isDocsPath } from './docs-page.ts';
import { HostAnswers, hostError, rawError } from './host-answers.ts';
import { HostNames, type HostView } from './host-names.ts';
import { closeWhenIdle } from './idle-connections.ts';
import { NodeCoreRequest, readBody, type ReadBody } from './request.ts';
import { listen } from './listen.ts';

type Send = HostAnswers['send'];

export interface MockServerOptions extends MockOptions {
  /** Default 4010; 0 picks a free port. */
  readonly port?: number | undefined;
  /** Default 127.0.0.1. */
  readonly host?: string | undefined;
  /** Serve an existing engine instead of creating one from the options. */
  readonly service?: MockService | undefined;
  /** How many connections it keeps open at once, in all and per remote address. */
  readonly limits?: ConnectionLimits | undefined;
  readonly timeouts?: Partial<HostTimeouts> | undefined;
  /** Where the host reports what an operator should know (connections refused). Default: nowhere. */
  readonly log?: ((line: string) => void) | undefined;
  /**
   * Answers in place of `service.handle` (a cluster worker, mocks/node/cluster/worker.ts); a promise
   * holds the answer until it settles (a rejected one answers 503). Default: the service answers.
   */
  readonly answer?: Answerer | undefined;
}

export type Answerer = (request: CoreRequest) => CoreResponse | Promise<CoreResponse>;

/** How long a connection may take (ms) before the host closes it. */
export interface HostTimeouts {
  /** To send the request's headers (then a JSON 408). Default 20 s. */
  readonly headersMs: number;
  /** To send the whole request (then a JSON 408). Default 30 s. */
  readonly requestMs: number;
  /** Without reading or sending a byte, an answer under way included (then closed). Default 30 s. */
  readonly idleMs: number;
  /** After the host's last answer on a connection it gives up on, for the client to read it. Default 2 s. */
  readonly graceMs: number;
  /** How often the header, request and idle timeouts are checked. Default 1 s. */
  readonly checkIntervalMs: number;
}

export const DEFAULT_HOST_TIMEOUTS: HostTimeouts = {
  headersMs: 20_000,
  requestMs: 30_000,
  idleMs: 30_000,
  graceMs: 2_000,
  checkIntervalMs: 1_000,
};

export interface RunningMockServer {
  /** `http://HOST:PORT` */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly service: MockService;
  /** Connections open now. */
  readonly connections: number;
  /**
   * Serves a connection another process accepted, given as its native handle (a cluster primary hands
   * over one that a dead worker never took: decisions/021).
   */
  adopt(handle: object): void;
  /** Stops accepting connections and closes the open ones. */
  close(): Promise<void>;
}

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
  const timeouts = { ...DEFAULT_HOST_TIMEOUTS, ...options.timeouts };
  const names = new HostNames(host);
  const answer = options.answer === undefined ? undefined : orUnavailable(options.answer, service);

  // What this server keeps between requests: the last body's length, the docs page's files.
  const kept = { answers: new HostAnswers(), docs: new DocsFiles() };
  const onRequest = requestHandler(service, names, answer, maxBodyBytes, kept);

  // requireHostHeader: false lets onRequest answer a Host-less HTTP/1.1 request in JSON.
  const server: Server = createServer(
    { requireHostHeader: false, connectionsCheckingInterval: timeouts.checkIntervalMs },
    onRequest,
  );
  answerOutsideRequests(server, timeouts, kept.answers.send);
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  closeWhenIdle(server, timeouts.idleMs, timeouts.checkIntervalMs); // not server.timeout: see there
  const guard = guardConnections(server, options.limits ?? {}, options.log ?? (() => {}));

  await listen(server, options.port ?? 4010, host);
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  names.listening(port, url);
  return {
    url,
    port,
    host,
    service,
    get connections() {
      return guard.open();
    },
    adopt: (handle) => {
      server.emit('connection', new Socket({ handle, readable: true, writable: true } as object));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 1000).unref();
      }),
  };
}

/** The request listener: every HTTP request the server parsed, answered by the service. */
function requestHandler(
  service: MockService,
  names: HostNames,
  answer: Answerer | undefined,
  maxBodyBytes: number,
  kept: { readonly answers: HostAnswers; readonly docs: DocsFiles },
): (req: IncomingMessage, res: ServerResponse) => void {
  const { send } = kept.answers;
  return (req, res) => {
    const headers = req.headers;
    const host = names.view(headers.host);
    const malformed = hostProblem(req, host);
    if (malformed !== undefined)
      return send(res, hostError(400, 'bad_request', `Malformed HTTP request: ${malformed}`));
    const url = req.url!;
    const method = req.method!;
    // The API reference page (`/docs`, docs-page.ts): one char code compare for every other request.
    if (url.charCodeAt(1) === 100 /* d */ && isDocsPath(url))
      return send(res, docsResponse(method, url, host.origin, service.tokens.list(), kept.docs));
    // The path starts the URL: the control API's (no CORS) is known before the query is split off.
    const cors = headers.origin !== undefined && allowsCors(url);
    if (cors && method === 'OPTIONS') return send(res, preflight(headers));
    // Whatever a GET or HEAD carries is left unread: node discards it once the answer is sent.
    const declared = headers['content-length'];
    if (
      method === 'GET' ||
      method === 'HEAD' ||
      ((declared === undefined || declared === '0') && headers['transfer-encoding'] === undefined)
    ) {
      const request = new NodeCoreRequest(req, host);
      if (answer === undefined) return send(res, respond(service, request, cors));
      return deliver(send, res, answer(request), cors);
    }
    answerWithBody(req, res, { service, host, cors, maxBodyBytes, answer, send });
  };
}

/**
 * What is wrong with a request's Host (RFC 9112 §3.2: a server answers 400), if anything. node's own
 * check answers a Host-less HTTP/1.1 request with an empty 400; this answers it in JSON. A value no
 * URL can hold never reaches the core (issue 33 item 2).
 */
function hostProblem(req: IncomingMessage, host: HostView): string | undefined {
  if (req.headers.host === undefined)
    return req.httpVersionMajor === 1 && req.httpVersionMinor === 1
      ? 'HTTP/1.1 needs a Host header'
      : undefined;
  return host.valid ? undefined : 'the Host header is not a host[:port] a URL can hold';
}

/**
 * What never reaches `onRequest` is answered in JSON too: malformed HTTP and timeouts (then closed,
 * even when the client never reads the answer), an unsupported `Expect`, a CONNECT.
 */
function answerOutsideRequests(server: Server, timeouts: HostTimeouts, send: Send): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const answer =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? rawError(
            408,
            'Request Timeout',
            'request_timeout',
            `The request did not arrive in full within ${timeouts.headersMs / 1000} s (headers) ` +
              `or ${timeouts.requestMs / 1000} s (all of it)`,
          )
        : rawError(400, 'Bad Request', 'bad_request', 'Malformed HTTP request');
    answerAndClose(socket, answer, timeouts.graceMs);
  });
  // Without these listeners node answers `Expect: <not 100-continue>` with an empty 417 and drops CONNECT unanswered.
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    const message =
      'Only the expectation 100-continue is supported: send the request without this Expect header';
    send(res, hostError(417, 'expectation_failed', message));
  });
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    // The socket leaves node's hands here: read it to its end (else it never closes), never let a reset throw.
    socket.on('error', () => socket.destroy()).resume();
    const message = 'CONNECT is not allowed: this is not a proxy';
    const answer = rawError(405, 'Method Not Allowed', 'method_not_allowed', message);
    answerAndClose(socket, answer, timeouts.graceMs);
  });
}

/** The core's answer, with CORS when asked for. A function of its own: the hot path creates no closure. */
function respond(service: MockService, request: NodeCoreRequest, cors: boolean): CoreResponse {
  const response = service.handle(request);
  return cors ? withCors(response) : response;
}

/**
 * The answerer, with an answer that fails made a 503 (retry later) that carries a request ID of the
 * service's like every other answer.
 */
function orUnavailable(answerer: Answerer, service: MockService): Answerer {
  const unavailable = (error: unknown): CoreResponse => {
    const message = `The mock could not answer: ${(error as Error).message}. Retry later`;
    return service.identify(hostError(503, 'temporarily_unavailable', message));
  };
  return (request) => {
    const response = answerer(request);
    return response instanceof Promise ? response.catch(unavailable) : response;
  };
}

/** Sends an answer that may still be on its way. */
function deliver(
  send: Send,
  res: ServerResponse,
  response: CoreResponse | Promise<CoreResponse>,
  cors: boolean,
  then?: () => void,
): void {
  if (!(response instanceof Promise)) return send(res, cors ? withCors(response) : response, then);
  response
    .then((ready) => send(res, cors ? withCors(ready) : ready, then))
    .catch(() => res.destroy());
}

/**
 * Reads a request's body (up to the limit) and answers it; a body over the limit gets the core's 413
 * and the connection closes.
 */
function answerWithBody(
  req: IncomingMessage,
  res: ServerResponse,
  to: {
    service: MockService;
    host: HostView;
    cors: boolean;
    maxBodyBytes: number;
    answer: Answerer | undefined;
    send: Send;
  },
): void {
  const { service, host, cors, maxBodyBytes, answer, send } = to;
  const reply = (body: ReadBody): void => {
    const request = new NodeCoreRequest(req, host, body);
    const then = body === 'too-large' ? () => req.destroy() : undefined;
    if (answer === undefined) send(res, respond(service, request, cors), then);
    else deliver(send, res, answer(request), cors, then);
  };
  if (Number(req.headers['content-length'] ?? 0) > maxBodyBytes) return reply('too-large');
  readBody(req, maxBodyBytes).then(
    (body) => reply(body ?? 'too-large'),
    () => res.destroy(),
  );
}
