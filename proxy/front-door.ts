import { maxHeaderSize, type Server as HttpServer } from 'node:http';
import type { Server, Socket } from 'node:net';
import { answerAndClose, LATE } from './outside-requests.ts';
import type { ClientRequest } from './client-exchange.ts';
import { readFields } from './head-fields.ts';
import { SocketReply } from './socket-reply.ts';

/**
 * The proxy's front door: it reads each connection's requests itself while they are plain ones (a
 * method without a body, HTTP/1.1, whole and well-formed fields, one the caller takes: `plain`) and
 * answers them on the socket (`SocketReply`); at the first request that is not, it hands the
 * connection, that request's bytes first, to node's http server for the rest of its life (uploads,
 * `Expect`, malformed requests, the control routes: node's own handling). Status queries, the bulk of
 * the traffic, never pay for a stream, request or response object (decisions/061).
 */
export interface FrontDoorOptions {
  /** Node's server, which takes what the front door does not read itself. It never listens. */
  readonly fallback: HttpServer;
  /** Whether the front door answers this request (else node's server does, from it on). */
  readonly plain: (request: ClientRequest) => boolean;
  readonly handle: (request: ClientRequest, reply: SocketReply) => void;
  /** How long a connection may stay idle between requests, ms (node's `keepAliveTimeout`). */
  readonly keepAliveMs: number;
  /** How long a request's head may take to arrive, ms (node's `headersTimeout`): then 408. */
  readonly headersMs: number;
}

/** Pipelined bytes read ahead while an answer is under way, before the connection is paused. */
const READ_AHEAD = 64 * 1024;
/**
 * How long a connection the proxy ended may stay silent before it is closed whole: silent, not in all
 * (outside-requests.ts gives a refusal a fixed grace), as its last answer may still be reaching a slow
 * reader.
 */
const END_GRACE_MS = 2_000;
/** What the front door reads: a method without a body (RFC 9110 §9.3.1, §9.3.2). */
const BODYLESS = new Set(['GET', 'HEAD']);
const REQUEST_LINE = /^([A-Z]+) (\/[\x21-\x7e]*) HTTP\/1\.1$/;
/** Fields that make a request node's to read: a body's framing, `Expect`, `Upgrade`. */
const NOT_PLAIN = ['content-length', 'transfer-encoding', 'expect', 'upgrade'];

/** The connections the front door still reads (not handed to node's server), for a shutdown. */
export interface FrontDoor {
  /** Closes those between requests, and each other one once its answer is over. */
  closeIdle(): void;
  closeAll(): void;
}

/** Reads the connections `server` accepts as `options` says. */
export function openFrontDoor(server: Server, options: FrontDoorOptions): FrontDoor {
  const reading = new Set<Connection>();
  server.on('connection', (socket: Socket) => {
    socket.setNoDelay(true);
    const connection = new Connection(socket, options, () => reading.delete(connection));
    reading.add(connection);
  });
  return {
    closeIdle: () => {
      for (const connection of reading) connection.closeWhenIdle();
    },
    closeAll: () => {
      for (const connection of reading) connection.socket.destroy();
    },
  };
}

/** One client connection while the front door reads it. */
class Connection {
  #pending: Buffer | undefined;
  /** How many bytes of `#pending` were searched for a head's end and held none. */
  #searched = 0;
  #reply: SocketReply | undefined;
  #closing = false;
  /** When the first byte of the head still arriving came (a slow client's deadline starts there). */
  #headSince = 0;
  /** The idle timer is set to a slow head's deadline, not to `keepAliveMs`. */
  #timedForHead = false;
  readonly #onData = (chunk: Buffer) => this.#read(chunk);
  readonly #onClose = () => {
    this.#reply?.cut();
    this.gone();
  };
  // Silent for `keepAliveMs`: closed between requests; in the middle of a head, node's headers timeout
  // holds instead. An answer under way is timed by the forwarding (the upstream's silence).
  readonly #onTimeout = () => {
    if (this.#reply !== undefined) return;
    if (this.#pending === undefined) return void this.socket.destroy();
    const left = this.#headSince + this.options.headersMs - Date.now();
    if (left <= 0) return this.#late();
    this.#timedForHead = true;
    this.socket.setTimeout(left);
  };

  constructor(
    readonly socket: Socket,
    readonly options: FrontDoorOptions,
    readonly gone: () => void,
  ) {
    socket.on('data', this.#onData);
    socket.on('close', this.#onClose);
    socket.on('timeout', this.#onTimeout);
    socket.on('error', () => undefined); // 'close' follows
    socket.setTimeout(options.keepAliveMs);
  }

  /**
   * A shutdown: a connection between requests (or in the middle of a head) is closed now, as node's
   * `closeIdleConnections` does; one with an answer under way once it is over. Nothing more is read.
   */
  closeWhenIdle(): void {
    this.#closing = true;
    if (this.#reply !== undefined) return;
    this.#stop();
    this.socket.destroy();
  }

  #read(chunk: Buffer): void {
    this.#pending = this.#pending === undefined ? chunk : Buffer.concat([this.#pending, chunk]);
    if (this.#reply === undefined) this.#next();
    else if (this.#pending.length > READ_AHEAD) this.socket.pause();
  }

  /** The next request read ahead, answered here or handed to node's server. */
  #next(): void {
    const bytes = this.#pending;
    if (bytes === undefined) return;
    // A head arriving in pieces is searched once, not again from its start at each piece.
    const end = bytes.indexOf('\r\n\r\n', Math.max(0, this.#searched - 3), 'latin1');
    if (end < 0) {
      this.#searched = bytes.length;
      return this.#partial(bytes);
    }
    this.#searched = 0;
    // A head over node's limit is node's to refuse (431), however it arrived.
    if (end > maxHeaderSize) return this.#handOff();
    this.#headSince = 0;
    if (this.#timedForHead) {
      this.#timedForHead = false;
      this.socket.setTimeout(this.options.keepAliveMs);
    }
    const request = requestOf(bytes.toString('latin1', 0, end));
    if (request === undefined || !this.options.plain(request.request)) return this.#handOff();
    this.#pending = end + 4 === bytes.length ? undefined : bytes.subarray(end + 4);
    const reply = new SocketReply(this.socket, {
      head: request.request.method === 'HEAD',
      close: request.close,
      over: (reusable) => this.#over(reply, reusable),
    });
    this.#reply = reply;
    this.options.handle(request.request, reply);
  }

  /** Part of a head: node's server reads one too long; one too slow is answered 408 (node's rule). */
  #partial(bytes: Buffer): void {
    if (bytes.length > maxHeaderSize) return this.#handOff();
    const now = Date.now();
    if (this.#headSince === 0) this.#headSince = now;
    else if (now - this.#headSince > this.options.headersMs) this.#late();
  }

  #late(): void {
    this.#stop();
    answerAndClose(this.socket, LATE);
  }

  #over(reply: SocketReply, reusable: boolean): void {
    if (this.#reply !== reply) return;
    this.#reply = undefined;
    if (!reusable || this.#closing || this.socket.destroyed) {
      // The connection ends with this answer: what the client sent after it is never read, so a
      // request sent after `Connection: close` (or during a shutdown) is never forwarded.
      this.#stop();
      this.#pending = undefined;
      this.socket.end();
      this.socket.setTimeout(END_GRACE_MS, () => this.socket.destroy());
      return;
    }
    // A client that sends faster than it reads its answers: the next request waits for them to drain.
    if (this.socket.writableNeedDrain) {
      this.socket.pause();
      this.socket.once('drain', () => this.#resume());
    } else this.#resume();
  }

  #resume(): void {
    if (this.#reply !== undefined || this.socket.destroyed) return;
    this.socket.resume();
    // A request read ahead goes on in a later turn: an answer's end never runs the next one's code.
    if (this.#pending !== undefined) setImmediate(() => this.#reply === undefined && this.#next());
  }

  /** The front door reads the connection no more. */
  #stop(): void {
    const { socket } = this;
    socket.off('data', this.#onData);
    socket.off('close', this.#onClose);
    socket.off('timeout', this.#onTimeout);
    socket.setTimeout(0);
    this.gone();
  }

  /** From this request on, node's http server reads the connection: its bytes so far go first. */
  #handOff(): void {
    const { socket } = this;
    this.#stop();
    socket.pause();
    if (this.#pending !== undefined) socket.unshift(this.#pending);
    this.#pending = undefined;
    this.options.fallback.emit('connection', socket);
    socket.resume();
  }
}

/** A request head the front door may read: its request line and fields, or undefined when not one. */
export function requestOf(text: string): { request: ClientRequest; close: boolean } | undefined {
  const first = text.indexOf('\r\n');
  // The target in origin form, visible ASCII only (RFC 9112 §3.2): no byte a lenient upstream could
  // take for the end of a line.
  const line = REQUEST_LINE.exec(first < 0 ? text : text.slice(0, first));
  if (line === null || !BODYLESS.has(line[1]!)) return undefined;
  const fields = readFields(text, first < 0 ? text.length : first, 'request');
  if (typeof fields === 'string') return undefined;
  const { names } = fields;
  for (const name of NOT_PLAIN) if (names.includes(name)) return undefined;
  // Exactly one Host (RFC 9112 §3.2): node's server answers any other count with a 400.
  if (fields.count('host') !== 1) return undefined;
  const close = /\bclose\b/i.test(fields.get('connection') ?? '');
  const { rawHeaders, headers } = fields;
  return {
    request: { method: line[1]!, url: line[2]!, rawHeaders, headers, body: undefined },
    close,
  };
}
