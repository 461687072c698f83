import { connect as netConnect, isIP, type OnReadOpts, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { AnswerReader, type AnswerEvents, type AnswerHead } from './answer-reader.ts';
import { LAST_CHUNK, writeFramed } from './chunked.ts';

/**
 * The deployment behind the proxy, over kept-alive HTTP/1.1 connections of its own: a request is
 * written as one head and its body's bytes, its answer read by `AnswerReader` and handed on as it
 * arrives. No stream, request or agent object is made per exchange (node's http client spent three
 * quarters of the proxy's time on them: decisions/061).
 */
export interface Upstream {
  /** `https://staging.example.com/base`, as given (no credentials). */
  readonly url: string;
  /** `https://staging.example.com`: reports' reproductions join the recorded path to it. */
  readonly origin: string;
  /** `/base`, or '' when the upstream is at the root: every forwarded path starts with it. */
  readonly basePath: string;
  /** The most time the upstream may stay silent on a request, ms: then the request fails. */
  readonly timeoutMs: number;
  /** Starts a request of `request.pathAndQuery` (the client's, without the base path). */
  send(request: UpstreamRequest, listener: UpstreamListener): UpstreamCall;
  close(): void;
}

export interface UpstreamRequest {
  readonly method: string;
  readonly pathAndQuery: string;
  /** The end-to-end fields (hop-by-hop.ts), a `Content-Length` among them when the body has one. */
  readonly headers: readonly string[];
  /** The body: none, the bytes `Content-Length` says, or chunks of unknown total (sent chunked). */
  readonly body: 'none' | 'length' | 'chunked';
}

export interface UpstreamFailure {
  readonly why: string;
  /** Silent for the upstream's `timeoutMs`. */
  readonly timeout: boolean;
  /** The answer's head had arrived: its body broke off. */
  readonly started: boolean;
}

/** What the answer does, told once each in order (`fail` may come at any point, instead of `end`). */
export interface UpstreamListener {
  head(head: AnswerHead): void;
  data(chunk: Buffer): void;
  end(): void;
  fail(failure: UpstreamFailure): void;
}

/** One request under way: its body written, its answer's flow paused or cut. */
export interface UpstreamCall {
  /** False when the connection's buffer is full: wait for `drained`. */
  write(chunk: Buffer): boolean;
  end(): void;
  drained(then: () => void): void;
  pause(): void;
  resume(): void;
  /** Cuts the exchange short (the client went away): the connection is closed, nothing more told. */
  abort(): void;
}

/** Idle connections kept, and how long one is kept without the upstream's `Keep-Alive` hint. */
const MOST_IDLE = 256;
const IDLE_MS = 4_000;
/** The most one read of a connection brings (node's own read size). */
const READ_SIZE = 64 * 1024;

/** The upstream of `--upstream URL`, or why it cannot be one. */
export function openUpstream(raw: string, options: { timeoutMs: number }): Upstream | string {
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
  const basePath = url.pathname.replace(/\/+$/, '');
  const pool = new Pool(url, options.timeoutMs);
  return {
    url: `${url.origin}${basePath}`,
    origin: url.origin,
    basePath,
    timeoutMs: options.timeoutMs,
    send: (request, listener) =>
      pool.take().start(headOf(url.host, basePath, request), request, listener),
    close: () => pool.close(),
  };
}

/** The request's head as written: its target with the base path, `Host` the upstream's (RFC 9110 §7.2). */
function headOf(host: string, basePath: string, request: UpstreamRequest): string {
  let head = `${request.method} ${basePath}${request.pathAndQuery} HTTP/1.1\r\nHost: ${host}\r\n`;
  const fields = request.headers;
  for (let i = 0; i < fields.length; i += 2) head += `${fields[i]}: ${fields[i + 1]}\r\n`;
  if (request.body === 'chunked') head += 'Transfer-Encoding: chunked\r\n';
  return `${head}\r\n`;
}

/** The upstream's idle connections, and new ones when none is idle. */
class Pool {
  readonly #idle: Connection[] = [];
  #closed = false;
  /**
   * The one buffer every plain (http) connection of the pool reads into (node's `onread`): each read
   * is copied out at once (a small one into node's shared pool of buffers), so a status query's answer
   * costs no buffer of its own. Node's default allocates 64 KiB and shrinks it for every read: 8 % of
   * the proxy's CPU per status query. One callback runs at a time, so one buffer serves them all.
   */
  readonly #readInto = Buffer.allocUnsafe(READ_SIZE);

  constructor(
    readonly url: URL,
    readonly timeoutMs: number,
  ) {}

  /** The connection idle the shortest while (the likeliest still open), else a new one. */
  take(): Connection {
    const now = Date.now();
    for (let c = this.#idle.pop(); c !== undefined; c = this.#idle.pop()) {
      if (c.usable && now < c.idleUntil) return c;
      c.close();
    }
    return new Connection(this);
  }

  /** A connection whose answer was whole: kept for the next request, for as long as the upstream keeps it. */
  release(connection: Connection, idleMs: number): void {
    if (this.#closed || this.#idle.length >= MOST_IDLE) return connection.close();
    connection.idleUntil = Date.now() + idleMs;
    this.#idle.push(connection);
  }

  forget(connection: Connection): void {
    const at = this.#idle.indexOf(connection);
    if (at >= 0) this.#idle.splice(at, 1);
  }

  close(): void {
    this.#closed = true;
    for (const c of this.#idle.splice(0)) c.close();
  }

  /** A new connection to the upstream; `read` is given each read's bytes, its own copy of them. */
  open(read: (bytes: Buffer) => void): Socket {
    const host = this.url.hostname.replace(/^\[|\]$/g, '');
    const secure = this.url.protocol === 'https:';
    const port = this.url.port === '' ? (secure ? 443 : 80) : Number(this.url.port);
    if (secure) {
      // TLS keeps node's 'data' events: with `onread`, a TLS socket goes on handing over what it has
      // decrypted after a pause, and an exchange pauses to wait for a slow client.
      const socket = tlsConnect({
        host,
        port,
        ALPNProtocols: ['http/1.1'],
        ...(isIP(host) === 0 ? { servername: host } : {}),
      });
      return timed(socket.on('data', read), this.timeoutMs);
    }
    const into = this.#readInto;
    const onread: OnReadOpts = {
      buffer: into,
      callback: (length) => {
        read(Buffer.from(into.subarray(0, length)));
        return true; // flowing: the exchange pauses the socket itself
      },
    };
    return timed(netConnect({ host, port, onread }), this.timeoutMs);
  }
}

/**
 * One timer for the connection's life: silence of `timeoutMs` fails the request under way, or closes
 * the connection when idle (any byte either way starts it again).
 */
const timed = (socket: Socket, timeoutMs: number): Socket =>
  socket.setNoDelay(true).setTimeout(timeoutMs);

/** One connection to the upstream, carrying one exchange at a time. */
class Connection {
  current: Exchange | undefined;
  /** Until when it may carry another request (the upstream's `Keep-Alive`, less a second). */
  idleUntil = 0;
  keepAliveS: number | undefined;
  /** Why the socket failed, as node names it (ECONNREFUSED…). */
  #error: string | undefined;

  readonly socket: Socket;

  constructor(readonly pool: Pool) {
    const socket = pool.open((chunk) => this.#read(chunk));
    this.socket = socket;
    socket.on('error', (error: NodeJS.ErrnoException) => {
      this.#error ??= error.code ?? error.message;
    });
    socket.on('timeout', () => this.#timeout());
    socket.on('close', () => this.#closed());
  }

  get usable(): boolean {
    return !this.socket.destroyed && this.socket.writable;
  }

  start(head: string, request: UpstreamRequest, listener: UpstreamListener): Exchange {
    const exchange = new Exchange(this, request, listener);
    this.current = exchange;
    this.socket.write(head, 'latin1');
    return exchange;
  }

  close(): void {
    this.socket.destroy();
  }

  /** The answer of `exchange` is whole: the connection goes back to the pool if it can carry another. */
  answered(exchange: Exchange, reusable: boolean): void {
    this.current = undefined;
    this.socket.resume();
    const idleMs = idleMsOf(this.keepAliveS);
    // An answer before the whole request was sent (a refusal of an upload) leaves it half sent.
    if (reusable && exchange.sent && idleMs > 0) this.pool.release(this, idleMs);
    else this.socket.destroy();
    exchange.listener.end();
  }

  fail(why: string, timeout = false): void {
    const exchange = this.current;
    if (exchange === undefined) return;
    this.current = undefined;
    this.socket.destroy();
    exchange.listener.fail({ why, timeout, started: exchange.reader.started });
  }

  #read(chunk: Buffer): void {
    const exchange = this.current;
    // Bytes while idle: nothing was asked, so the connection cannot be trusted again.
    if (exchange === undefined) return void this.socket.destroy();
    let wrong: string | undefined;
    try {
      wrong = exchange.reader.push(chunk);
    } catch (error) {
      // The proxy's own code failed on this answer: the exchange ends (unless it already had and the
      // connection carries another), the proxy goes on serving.
      if (this.current !== exchange) return;
      return this.fail(`the proxy failed on the upstream's answer: ${(error as Error).message}`);
    }
    if (wrong !== undefined) this.fail(`the upstream's answer is not HTTP/1.1: ${wrong}`);
  }

  #timeout(): void {
    if (this.current === undefined) this.socket.destroy();
    else this.fail('upstream timeout', true);
  }

  #closed(): void {
    this.pool.forget(this);
    const exchange = this.current;
    if (exchange === undefined) return;
    // An answer framed by the close is whole only when the connection closed cleanly, not on a reset.
    const cut = this.#error ?? exchange.reader.finish();
    if (cut !== undefined) this.fail(cut);
  }
}

/** One request on a connection: its body written as the caller gives it, its answer read. */
class Exchange implements UpstreamCall, AnswerEvents {
  readonly reader: AnswerReader;
  /** The whole request was written. */
  sent: boolean;

  constructor(
    readonly connection: Connection,
    readonly request: UpstreamRequest,
    readonly listener: UpstreamListener,
  ) {
    this.reader = new AnswerReader(request.method, this);
    this.sent = request.body === 'none';
  }

  get #live(): boolean {
    return this.connection.current === this;
  }

  head(head: AnswerHead): void {
    this.connection.keepAliveS = head.keepAliveS;
    this.listener.head(head);
  }

  data(chunk: Buffer): void {
    this.listener.data(chunk);
  }

  complete(reusable: boolean): void {
    this.connection.answered(this, reusable);
  }

  write(chunk: Buffer): boolean {
    if (!this.#live || chunk.length === 0) return true;
    const chunked = this.request.body === 'chunked';
    return writeFramed(this.connection.socket, { before: '', body: chunk, chunked, after: '' });
  }

  end(): void {
    if (!this.#live || this.sent) return;
    this.sent = true;
    if (this.request.body === 'chunked') this.connection.socket.write(LAST_CHUNK, 'latin1');
  }

  drained(then: () => void): void {
    if (this.#live) this.connection.socket.once('drain', then);
  }

  pause(): void {
    if (this.#live) this.connection.socket.pause();
  }

  resume(): void {
    if (this.#live) this.connection.socket.resume();
  }

  abort(): void {
    if (!this.#live) return;
    this.connection.current = undefined;
    this.connection.socket.destroy();
  }
}

/** How long an idle connection is kept: a second less than the upstream said (node's agent does so). */
const idleMsOf = (keepAliveS: number | undefined): number =>
  keepAliveS === undefined ? IDLE_MS : Math.max(0, keepAliveS * 1000 - 1000);
