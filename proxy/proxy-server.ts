import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  createServer as createNetServer,
  type AddressInfo,
  type Server as NetServer,
  type Socket,
} from 'node:net';
import {
  DEFAULT_TRAFFIC_LIMITS,
  TrafficJudge,
  type TrafficLimits,
} from '../contracts/traffic/traffic-judge.ts';
import type { ContractReport } from '../contracts/report.ts';
import { guardConnections } from '../mocks/node/http/connection-guard.ts';
import { HostNames } from '../mocks/node/http/host-names.ts';
import type { ClientRequest, Reply } from './client-exchange.ts';
import { fromNode } from './client-exchange.ts';
import { ClientSide } from './client-side.ts';
import { openFrontDoor, type FrontDoor } from './front-door.ts';
import { answerControl, CONTROL } from './control.ts';
import { FaultPicker, type FaultRule } from './faults.ts';
import { sendError } from './gateway-errors.ts';
import { InjectionLog } from './injection-log.ts';
import { answerOutsideRequests } from './outside-requests.ts';
import { apiRoute } from './routes.ts';
import { TaskFactsTable } from './task-facts.ts';
import { REDIRECTED, Traffic } from './traffic.ts';
import { openUpstream, type Upstream } from './upstream.ts';
import { listen } from '../mocks/node/http/listen.ts';

export interface ProxyOptions {
  /** The deployment: `https://staging.example.com[/base]`. */
  readonly upstream: string;
  readonly port?: number | undefined;
  readonly host?: string | undefined;
  /** The faults to inject (`--inject`). */
  readonly inject?: readonly FaultRule[] | undefined;
  /** How long an injected `unknown` lasts for its task, ms (default 10 s). */
  readonly unknownForMs?: number | undefined;
  /** The longest a request's head may take to arrive, ms (default 20 s): then 408. */
  readonly headersTimeoutMs?: number | undefined;
  /** The longest the upstream may stay silent, ms (default 60 s): then 504. */
  readonly upstreamTimeoutMs?: number | undefined;
  /** Assumption-based checks fail instead of warn. */
  readonly strict?: boolean | undefined;
  /** How long the client judge's window lasts, ms (default a day): see `ClientSide`. */
  readonly clientWindowMs?: number | undefined;
  /** Tasks, callers and violations kept (`TrafficLimits`). */
  readonly limits?: Partial<TrafficLimits> | undefined;
  /** Writes both reports now (`--report-dir`); the files, or undefined without a directory. */
  readonly writeReports?: (() => Promise<string[] | undefined>) | undefined;
  readonly log?: ((line: string) => void) | undefined;
}

export type ProxyClientReport = ReturnType<ClientSide['report']>;

export interface RunningProxy {
  /** `http://HOST:PORT` */
  readonly url: string;
  readonly upstream: string;
  contractReport(): ContractReport;
  clientReport(): ProxyClientReport;
  status(): ProxyStatus;
  /** Stops accepting, lets answers under way finish for up to `graceMs`, then closes every connection. */
  close(graceMs?: number): Promise<void>;
}

export interface ProxyStatus {
  readonly upstream: string;
  readonly forwarded: number;
  readonly answeredByProxy: number;
  /** Exchanges the proxy's own code failed on (each answered all the same), and why the first did. */
  readonly failures: number;
  readonly firstFailure?: string;
  readonly injected: Readonly<Record<string, number>>;
  readonly memory: {
    readonly rssBytes: number;
    readonly heapUsedBytes: number;
    readonly deployment: ReturnType<TrafficJudge['memory']> & { readonly limits: TrafficLimits };
    readonly clientLimits: ClientSide['limits'];
    readonly taskFacts: { readonly size: number; readonly max: number; readonly forgotten: number };
  };
}

/**
 * `videotask proxy`: between clients and a deployment, forwarding every request and its answer
 * (streamed both ways), judging the deployment by the contract suite's checks and the clients by the
 * client rules on the same traffic, injecting the documented faults on request. It sends nothing of
 * its own, so it creates no task (issue 34).
 *
 * @example
 * const proxy = await startProxy({ upstream: 'https://staging.example.com', port: 0 });
 * // point the client at proxy.url, run it, then:
 * console.log(proxy.contractReport().counts, proxy.clientReport().counts);
 */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const upstream = openUpstream(options.upstream, {
    timeoutMs: options.upstreamTimeoutMs ?? 60_000,
  });
  if (typeof upstream === 'string') throw new RangeError(upstream);
  const limits = { ...DEFAULT_TRAFFIC_LIMITS, ...options.limits };
  const judge = new TrafficJudge({
    origin: upstream.origin,
    strict: options.strict ?? false,
    limits,
  });
  const facts = new TaskFactsTable(limits.maxTasks);
  const clients = new ClientSide(
    (id) => facts.get(id)?.status,
    clientLimits(limits),
    options.clientWindowMs,
  );
  const log = new InjectionLog();
  const traffic = new Traffic({
    upstream,
    judge,
    clients,
    faults: new FaultPicker(options.inject ?? []),
    log,
    tasks: facts,
    unknownForMs: options.unknownForMs ?? 10_000,
  });
  const host = options.host ?? '127.0.0.1';
  const names = new HostNames(host);
  const proxy: Omit<RunningProxy, 'url' | 'close'> = {
    upstream: upstream.url,
    contractReport: () => judge.report(log.line() === undefined ? [] : [log.line()!]),
    clientReport: () => clients.report({ upstream: upstream.url, log }),
    status: () => statusOf({ upstream, traffic, log, judge, clients, facts, limits }),
  };
  const writeReports = options.writeReports ?? (() => Promise.resolve(undefined));
  const { server, fallback, door } = lanes({
    names,
    traffic,
    control: { ...proxy, writeReports },
    log: options.log ?? (() => {}),
    headersMs: options.headersTimeoutMs ?? 20_000,
  });
  await listen(server, options.port ?? 4020, host);
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  names.listening(port, url);
  return {
    ...proxy,
    url,
    close: (graceMs) => close({ server, fallback, door, upstream }, graceMs),
  };
}

/**
 * One listening server, read by the front door (plain requests, answered on the socket), with node's
 * http server behind it for every connection the front door hands over (decisions/061).
 */
function lanes(parts: {
  names: HostNames;
  traffic: Traffic;
  control: Parameters<typeof answerControl>[3];
  log: (line: string) => void;
  headersMs: number;
}): { server: NetServer; fallback: Server; door: FrontDoor } {
  const { names, traffic, control } = parts;
  const server = createNetServer();
  const guard = guardConnections(server, {}, parts.log);
  const turn = inTurn();
  const fallback = nodeServer(parts.headersMs, (req, res) => {
    guard.answering(req.socket, res);
    turn(req, res, () => {
      if (req.url!.startsWith(CONTROL) && !req.url!.startsWith(REDIRECTED))
        return answerToControl(req, res, { names, control });
      forwarded(fromNode(req), res, { names, traffic });
    });
  });
  const door = openFrontDoor(server, {
    fallback,
    keepAliveMs: fallback.keepAliveTimeout,
    headersMs: parts.headersMs,
    plain: (request) => !request.url.startsWith(CONTROL) && traffic.plain(request),
    handle: (request, reply) => {
      guard.answering(reply.socket, reply);
      forwarded(request, reply, { names, traffic });
    },
  });
  return { server, fallback, door };
}

/**
 * A connection's requests taken one at a time on node's lane, as the front door takes them: node's
 * server hands over at once every request a pipelining client sent, and each would be forwarded at
 * once on a connection of its own to the upstream (50 pipelined submissions: 50 connections; thousands
 * ran the proxy out of file descriptors, for every client). The next starts when the answer before it
 * is over; none starts once the client has gone (nothing it sent after is forwarded, as at the front
 * door).
 */
function inTurn(): (req: IncomingMessage, res: ServerResponse, go: () => void) => void {
  const waiting = new WeakMap<Socket, (() => void)[]>();
  return (req, res, go) => {
    const { socket } = req;
    let queue = waiting.get(socket);
    if (queue === undefined) waiting.set(socket, (queue = []));
    const line = queue;
    const start = (): void => {
      res.once('close', () => {
        line.shift();
        if (socket.destroyed) line.length = 0;
        else line[0]?.();
      });
      go();
    };
    line.push(start);
    if (line.length === 1) start();
  };
}

/**
 * Node's http server for what the front door hands it: it never listens (the front door's server
 * does); its connection tracking runs as if it did, so its header and idle timeouts hold.
 */
function nodeServer(
  headersMs: number,
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Server {
  const fallback = createServer({ requireHostHeader: false }, handle);
  answerOutsideRequests(fallback);
  fallback.headersTimeout = headersMs;
  fallback.requestTimeout = 0; // an upload or a download may take long; idle sockets are timed out below
  fallback.timeout = 120_000;
  fallback.emit('listening');
  return fallback;
}

/**
 * What the client rules remember, within the proxy's caps: its callers, and per caller a share of its
 * tasks (four callers' worth of --max-tasks spread over --max-callers, from 50 to the mock's 1,000).
 */
function clientLimits(limits: TrafficLimits): Partial<ClientSide['limits']> {
  const share = Math.floor((4 * limits.maxTasks) / limits.maxCallers);
  return {
    maxCallers: limits.maxCallers,
    maxTasksPerCaller: Math.max(50, Math.min(1_000, share)),
  };
}

function statusOf(parts: {
  upstream: Upstream;
  traffic: Traffic;
  log: InjectionLog;
  judge: TrafficJudge;
  clients: ClientSide;
  facts: TaskFactsTable;
  limits: TrafficLimits;
}): ProxyStatus {
  const { traffic, facts } = parts;
  // Under `node --expose-gc` (the benchmark's), the heap figure is what stays after a collection.
  (globalThis as { gc?: () => void }).gc?.();
  return {
    upstream: parts.upstream.url,
    forwarded: traffic.forwarded,
    answeredByProxy: traffic.answeredHere,
    failures: traffic.failures,
    ...(traffic.firstFailure === undefined ? {} : { firstFailure: traffic.firstFailure }),
    injected: { ...parts.log.counts },
    memory: {
      rssBytes: process.memoryUsage.rss(),
      heapUsedBytes: process.memoryUsage().heapUsed,
      deployment: { ...parts.judge.memory(), limits: parts.limits },
      clientLimits: parts.clients.limits,
      taskFacts: { size: facts.size, max: facts.max, forgotten: facts.forgotten },
    },
  };
}

function answerToControl(
  req: IncomingMessage,
  res: ServerResponse,
  parts: { names: HostNames; control: Parameters<typeof answerControl>[3] },
): void {
  const host = parts.names.view(req.headers.host);
  if (!host.valid)
    return sendError(res, {
      status: 400,
      code: 'bad_request',
      message: 'Malformed HTTP request: the Host header is not a host[:port] a URL can hold',
    });
  answerControl(req, res, host, parts.control).catch((error: unknown) =>
    sendError(res, { status: 500, code: 'internal_error', message: (error as Error).message }),
  );
}

/** A request to forward (or an injected redirect's follow-up), from either lane. */
function forwarded(
  request: ClientRequest,
  res: Reply,
  parts: { names: HostNames; traffic: Traffic },
): void {
  const { url } = request;
  // A reverse proxy's requests name a path (origin form): `GET http://host/…` is for a forward proxy.
  if (!url.startsWith('/'))
    return sendError(res, {
      status: 400,
      code: 'bad_request',
      message: `The request target must be a path (/v1/…), got ${JSON.stringify(url.slice(0, 100))}`,
    });
  const host = parts.names.view(request.headers.host);
  if (url.startsWith(REDIRECTED)) return parts.traffic.followRedirect(request, res, host.origin);
  const q = url.indexOf('?');
  parts.traffic.handle(
    request,
    res,
    apiRoute(request.method, q < 0 ? url : url.slice(0, q)),
    host.origin,
  );
}

/** Stops accepting, lets answers under way finish for up to `graceMs`, then closes every connection. */
function close(
  parts: { server: NetServer; fallback: Server; door: FrontDoor; upstream: Upstream },
  graceMs = 2_000,
): Promise<void> {
  const { server, fallback, door, upstream } = parts;
  return new Promise<void>((resolve) => {
    server.close(() => {
      upstream.close();
      resolve();
    });
    fallback.close(); // its connection tracking stops; it never listened
    door.closeIdle();
    fallback.closeIdleConnections();
    setTimeout(() => {
      door.closeAll();
      fallback.closeAllConnections();
    }, graceMs).unref();
  });
}
