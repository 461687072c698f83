import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { Server, Socket } from 'node:net';

/** How many connections the node host keeps open at once ([decisions/014](../../decisions/014-mock-http-host.md)). */
export interface ConnectionLimits {
  /**
   * In all. Default: 10,000, or the file-descriptor limit less 256 when that is lower. Beyond it, an
   * address holding fewer than 8 connections still gets in, up to a tenth more (at most 1,000): a
   * flood from many addresses does not lock out a client that asks for one connection.
   */
  readonly maxConnections?: number | undefined;
  /** From one remote address (all of loopback's 127.0.0.1 is one). Default 1,000. */
  readonly maxConnectionsPerAddress?: number | undefined;
  /** A burst of refusals ends after this long without one (ms). Default 5,000. */
  readonly burstQuietMs?: number | undefined;
}

const RESERVED_DESCRIPTORS = 256;
/** An address with fewer connections than this is a light client: the reserve beyond the total is for it. */
const LIGHT_CLIENT = 8;

/** The soft limit on open files, from /proc (Linux); `undefined` elsewhere. */
function descriptorLimit(): number | undefined {
  try {
    const limits = readFileSync('/proc/self/limits', 'utf8');
    const soft = /^Max open files\s+(\d+)/m.exec(limits)?.[1];
    return soft === undefined ? undefined : Number(soft);
  } catch {
    return undefined;
  }
}

export function defaultMaxConnections(): number {
  const limit = descriptorLimit();
  return Math.max(16, Math.min(10_000, (limit ?? Infinity) - RESERVED_DESCRIPTORS));
}

/** What the guard knows of one open connection. */
interface Connection {
  /** The other connections from its address. */
  readonly group: AddressConnections;
  /** The answer to its latest request; `undefined` until its first request's headers arrived. */
  response: Answering | undefined;
}

/** The open connections from one remote address: all of them, and those that have sent no request yet. */
interface AddressConnections {
  /** In the order they were accepted. */
  readonly all: Map<Socket, Connection>;
  /** In the order they were accepted: still waiting for their first request's headers. */
  readonly fresh: Set<Socket>;
}

/**
 * Bounds the server's open connections, in total (with a reserve for light clients) and per remote
 * address. At a limit, a new connection from an address takes the place of that address's connection
 * idle longest before its headers (one that has sent no complete request head yet, else one between
 * requests), so that connections trickling headers never lock out a client that sends whole requests
 * (issue 33 item 10); only when every connection of the address is in the middle of a request is the
 * new one refused. Both are reported through `log` once per burst: one line when the first happens,
 * one with the count when none has for `burstQuietMs`. Returns the number of connections open now.
 */
export function guardConnections(
  server: Server,
  limits: ConnectionLimits,
  log: (line: string) => void,
): ConnectionGuard {
  const total = limits.maxConnections ?? defaultMaxConnections();
  const reserve = Math.min(1_000, Math.max(16, Math.round(total / 10)));
  const perAddress = limits.maxConnectionsPerAddress ?? 1_000;
  const quietMs = limits.burstQuietMs ?? 5_000;
  const connections = new OpenConnections();
  const refusals = new BurstLog(quietMs, log, REFUSED);
  const replacements = new BurstLog(quietMs, log, REPLACED);

  const totalReached =
    `${total} open, the limit in all (--max-connections; 10,000 or the ` +
    `file-descriptor limit); addresses with fewer than ${LIGHT_CLIENT} ` +
    `connections still get in, up to ${reserve} more`;
  server.maxConnections = total + reserve; // node closes anything beyond before it reaches JavaScript
  server.on('drop', () => refusals.happened(totalReached));
  server.on('connection', (socket: Socket) => {
    // A socket already reset has no address: it is counted under '' and closes at once anyway.
    const address = socket.remoteAddress ?? '';
    const held = connections.from(address);
    const why =
      held >= perAddress
        ? `${perAddress} open from ${address}, the limit for one address (--max-connections-per-address)`
        : connections.open >= total && held >= LIGHT_CLIENT
          ? totalReached
          : undefined;
    if (why !== undefined) {
      const idle = connections.idlestBeforeHeaders(address);
      if (idle === undefined) {
        refusals.happened(why);
        socket.destroy();
        return;
      }
      replacements.happened(why);
      idle.destroy(); // its 'close' forgets it
    }
    connections.add(socket, address);
  });
  // Which connections are in the middle of a request: one map lookup per request, no listener on it.
  // An http server's requests are seen here; a server whose requests another reads tells `answering`.
  server.on('request', (req: IncomingMessage, res: Answering) =>
    connections.answering(req.socket, res),
  );
  server.once('close', () => {
    refusals.stop();
    replacements.stop();
  });
  return {
    open: () => connections.open,
    answering: (socket, res) => connections.answering(socket, res),
  };
}

/** What the guard reads of an answer: whether it is over (node's `ServerResponse` is one). */
export interface Answering {
  readonly writableEnded: boolean;
}

export interface ConnectionGuard {
  /** The connections open now. */
  open(): number;
  /** A request's head arrived on `socket`: it is in the middle of a request until `res` ends. */
  answering(socket: Socket, res: Answering): void;
}

/** The open connections, by remote address, and where each one is: before its first request, in one, between two. */
class OpenConnections {
  open = 0;
  readonly #byAddress = new Map<string, AddressConnections>();
  readonly #bySocket = new WeakMap<Socket, Connection>();

  /** How many are open from `address`. */
  from(address: string): number {
    return this.#byAddress.get(address)?.all.size ?? 0;
  }

  add(socket: Socket, address: string): void {
    let group = this.#byAddress.get(address);
    if (group === undefined)
      this.#byAddress.set(address, (group = { all: new Map(), fresh: new Set() }));
    const connection: Connection = { group, response: undefined };
    group.all.set(socket, connection);
    group.fresh.add(socket);
    this.#bySocket.set(socket, connection);
    this.open++;
    socket.once('close', () => {
      this.open--;
      group.all.delete(socket);
      group.fresh.delete(socket);
      if (group.all.size === 0 && this.#byAddress.get(address) === group)
        this.#byAddress.delete(address);
    });
  }

  /** A request's head arrived on `socket`: it is in the middle of a request until `res` ends. */
  answering(socket: Socket, res: Answering): void {
    const connection = this.#bySocket.get(socket);
    if (connection === undefined) return;
    if (connection.response === undefined) connection.group.fresh.delete(socket);
    connection.response = res;
  }

  /**
   * The connection from `address` idle longest before its headers: the first accepted of those that
   * have sent no request yet, else the first between requests (its last answer sent); none while
   * every one is in the middle of a request.
   */
  idlestBeforeHeaders(address: string): Socket | undefined {
    const group = this.#byAddress.get(address);
    if (group === undefined) return undefined;
    for (const socket of group.fresh) return socket;
    for (const [socket, connection] of group.all)
      if (connection.response?.writableEnded !== false) return socket;
    return undefined;
  }
}

/** What a burst log says when the first thing happens, and when a burst ends. */
interface BurstWords {
  readonly first: (why: string, quietS: number) => string;
  readonly ended: (count: number, seconds: number) => string;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

const REFUSED: BurstWords = {
  first: (why, quietS) =>
    `refusing new connections: ${why}. Further refusals are counted until ${quietS} s pass without one`,
  ended: (count, seconds) =>
    `refused ${plural(count, 'connection')} over ${seconds} s; accepting again`,
};

const REPLACED: BurstWords = {
  first: (why, quietS) =>
    `${why}: each new connection takes the place of the one idle longest before its headers. ` +
    `Further ones are counted until ${quietS} s pass without one`,
  ended: (count, seconds) =>
    `closed ${plural(count, 'connection')} idle before their headers over ${seconds} s, ` +
    'to let new ones in',
};

/**
 * Something that happens in bursts (refusals, replacements), reported once per burst: one line when
 * the first happens, one with the count when none has for `quietMs`.
 */
class BurstLog {
  #count = 0;
  #burstStart = 0;
  #last = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    readonly quietMs: number,
    readonly log: (line: string) => void,
    readonly words: BurstWords,
  ) {}

  happened(why: string): void {
    this.#last = Date.now();
    if (this.#count++ > 0) return;
    this.#burstStart = this.#last;
    this.log(this.words.first(why, this.quietMs / 1000));
    this.#timer ??= setTimeout(this.#endBurstWhenQuiet, this.quietMs).unref();
  }

  stop(): void {
    clearTimeout(this.#timer);
  }

  readonly #endBurstWhenQuiet = (): void => {
    const quietFor = Date.now() - this.#last;
    if (quietFor < this.quietMs) {
      this.#timer = setTimeout(this.#endBurstWhenQuiet, this.quietMs - quietFor).unref();
      return;
    }
    const seconds = Math.max(1, Math.round((this.#last - this.#burstStart) / 1000));
    this.log(this.words.ended(this.#count, seconds));
    this.#count = 0;
    this.#timer = undefined;
  };
}

/**
 * Sends a last answer on a socket node:http has given up on (malformed request, header timeout) and
 * closes it: at once when the client closes too, else after `graceMs` whether it read the answer or
 * not (a client that never reads would otherwise hold the connection for ever).
 */
export function answerAndClose(socket: Socket, answer: string, graceMs: number): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const timer = setTimeout(() => socket.destroy(), graceMs).unref();
  socket.once('close', () => clearTimeout(timer));
  socket.end(answer);
}
