import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { AnswerReader, type AnswerHead } from './answer-reader.ts';

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
  /** The most time the upstream may stay silent, ms. */
  readonly timeoutMs: number;
}

export interface UpstreamFailure {
  readonly why: string;
  /** Silent for `timeoutMs`. */
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
  const basePath = url.pathname.replace(/\/+$/, '');
  const pool = new Pool(url);
  return {
    url: `${url.origin}${basePath}`,
    origin: url.origin,
    basePath,
    send: (request, listener) => {
      const connection = pool.take();
      return connection.start(headOf(url.host, basePath, request), { request, listener });
    },
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

  constructor(readonly url: URL) {}

  take(): Connection {
    for (let c = this.#idle.pop(); c !== undefined; c = this.#idle.pop()) if (c.usable) return c;
    return new Connection(this.#open(), this);
  }

  /** A connection whose answer was whole: kept for the next request, for as long as the upstream keeps it. */
  release(connection: Connection, idleMs: number): void {
    if (this.#closed || this.#idle.length >= MOST_IDLE) return connection.close();
    connection.idle(idleMs);
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

  #open(): Socket {
    const host = this.url.hostname.replace(/^\[|\]$/g, '');
    const secure = this.url.protocol === 'https:';
    const port = this.url.port === '' ? (secure ? 443 : 80) : Number(this.url.port);
    if (!secure) return netConnect({ host, port, noDelay: true });
    const socket = tlsConnect({
      host,
      port,
      ALPNProtocols: ['http/1.1'],
      ...(isIP(host) === 0 ? { servername: host } : {}),
    });
    return socket.setNoDelay(true);
  }
}

interface Exchange {
  readonly request: UpstreamRequest;
  readonly listener: UpstreamListener;
}

/** The exchange a connection carries: its answer's reader, and whether its request was all sent. */
type Current = Exchange & { readonly reader: AnswerReader; sent: boolean };

/** One connection to the upstream, carrying one exchange at a time. */
class Connection {
  #current: Current | undefined;
  /** Why the socket failed, as node names it (ECONNREFUSED…). */
  #error: string | undefined;
  #keepAliveS: number | undefined;

  constructor(
    readonly socket: Socket,
    readonly pool: Pool,
  ) {
    socket.on('data', (chunk: Buffer) => this.#read(chunk));
    socket.on(
      'error',
      (error: NodeJS.ErrnoException) => (this.#error ??= error.code ?? error.message),
    );
    socket.on('timeout', () => this.#timeout());
    socket.on('close', () => this.#closed());
  }

  get usable(): boolean {
    return !this.socket.destroyed && this.socket.writable;
  }

  start(head: string, exchange: Exchange): UpstreamCall {
    const reader = new AnswerReader(exchange.request.method, {
      head: (h) => {
        this.#keepAliveS = h.keepAliveS;
        exchange.listener.head(h);
      },
      data: (chunk) => exchange.listener.data(chunk),
      end: (reusable) => this.#answered(reusable),
    });
    const current: Current = { ...exchange, reader, sent: exchange.request.body === 'none' };
    this.#current = current;
    this.socket.setTimeout(exchange.request.timeoutMs);
    this.socket.write(head, 'latin1');
    return this.#call(current);
  }

  #call(current: Current): UpstreamCall {
    const live = () => this.#current === current;
    const chunked = current.request.body === 'chunked';
    return {
      write: (chunk) => {
        if (!live() || chunk.length === 0) return true;
        if (!chunked) return this.socket.write(chunk);
        this.socket.cork();
        this.socket.write(`${chunk.length.toString(16)}\r\n`, 'latin1');
        this.socket.write(chunk);
        const room = this.socket.write('\r\n', 'latin1');
        this.socket.uncork();
        return room;
      },
      end: () => {
        if (!live() || current.sent) return;
        current.sent = true;
        if (chunked) this.socket.write('0\r\n\r\n', 'latin1');
      },
      drained: (then) => {
        if (live()) this.socket.once('drain', then);
      },
      pause: () => live() && this.socket.pause(),
      resume: () => live() && this.socket.resume(),
      abort: () => {
        if (!live()) return;
        this.#current = undefined;
        this.socket.destroy();
      },
    };
  }

  idle(idleMs: number): void {
    this.socket.setTimeout(idleMs);
  }

  close(): void {
    this.socket.destroy();
  }

  #read(chunk: Buffer): void {
    const current = this.#current;
    // Bytes while idle: nothing was asked, so the connection cannot be trusted again.
    if (current === undefined) return void this.socket.destroy();
    const wrong = current.reader.push(chunk);
    if (wrong !== undefined) this.#fail(`the upstream's answer is not HTTP/1.1: ${wrong}`);
  }

  #answered(reusable: boolean): void {
    const current = this.#current!;
    this.#current = undefined;
    this.socket.resume();
    // An answer before the whole request was sent (a refusal of an upload) leaves it half sent.
    const idleMs = idleMsOf(this.#keepAliveS);
    if (reusable && current.sent && idleMs > 0) this.pool.release(this, idleMs);
    else this.socket.destroy();
    current.listener.end();
  }

  #timeout(): void {
    if (this.#current === undefined) return void this.socket.destroy();
    this.#fail('upstream timeout', true);
  }

  #closed(): void {
    this.pool.forget(this);
    const current = this.#current;
    if (current === undefined) return;
    const cut = current.reader.finish();
    if (cut !== undefined) this.#fail(this.#error ?? cut);
  }

  #fail(why: string, timeout = false): void {
    const current = this.#current;
    if (current === undefined) return;
    this.#current = undefined;
    this.socket.destroy();
    current.listener.fail({ why, timeout, started: current.reader.started });
  }
}

/** How long an idle connection is kept: a second less than the upstream said (node's agent does so). */
const idleMsOf = (keepAliveS: number | undefined): number =>
  keepAliveS === undefined ? IDLE_MS : Math.max(0, keepAliveS * 1000 - 1000);
