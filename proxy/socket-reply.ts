import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { LAST_CHUNK, writeFramed } from './chunked.ts';
import type { Reply } from './client-exchange.ts';

/** What a reply on the front door's connection knows of its request. */
export interface SocketReplyOptions {
  /** A HEAD request: the fields say what a GET's body would be, no body follows (RFC 9110 §9.3.2). */
  readonly head: boolean;
  /** The connection closes after this answer (the client asked, or spoke HTTP/1.0). */
  readonly close: boolean;
  /** The answer is all written (`reusable`: the connection carries the next request), or cut. */
  readonly over: (reusable: boolean) => void;
}

/**
 * An answer written straight on the client's connection (the front door's lane): the status line and
 * fields as one write with the body's first bytes, the body framed by the `Content-Length` given, else
 * chunked (RFC 9112 §6, §7.1), nothing after HEAD, 1xx, 204 or 304. What node's `ServerResponse` adds,
 * it adds too: `Date` when absent, `Connection: close` when the connection ends with it.
 */
export class SocketReply implements Reply {
  headersSent = false;
  writableFinished = false;
  #head: string | undefined;
  #chunked = false;
  #bodyless = false;
  #over = false;
  readonly #closeListeners: (() => void)[] = [];

  constructor(
    readonly socket: Socket,
    readonly options: SocketReplyOptions,
  ) {}

  /** The answer is over: all written, or the connection closed under it. */
  get writableEnded(): boolean {
    return this.#over;
  }

  get destroyed(): boolean {
    return this.socket.destroyed;
  }

  writeHead(status: number, message: string, fields: string[]): this {
    let head = `HTTP/1.1 ${status} ${message === '' ? (STATUS_CODES[status] ?? 'unknown') : message}\r\n`;
    let length = false;
    let date = false;
    for (let i = 0; i < fields.length; i += 2) {
      const name = fields[i]!;
      if (name.length === 14 && name.toLowerCase() === 'content-length') length = true;
      else if (name.length === 4 && name.toLowerCase() === 'date') date = true;
      head += `${name}: ${fields[i + 1]}\r\n`;
    }
    this.#bodyless = this.options.head || status < 200 || status === 204 || status === 304;
    if (!date) head += `Date: ${new Date().toUTCString()}\r\n`;
    if (!this.#bodyless && !length) {
      head += 'Transfer-Encoding: chunked\r\n';
      this.#chunked = true;
    }
    if (this.options.close) head += 'Connection: close\r\n';
    this.#head = `${head}\r\n`;
    this.headersSent = true;
    return this;
  }

  write(chunk: Buffer): boolean {
    if (this.#over) return true;
    this.#send(chunk, '');
    return !this.socket.writableNeedDrain;
  }

  end(chunk?: Buffer | string): this {
    if (this.#over) return this;
    const last = this.#chunked ? LAST_CHUNK : '';
    this.#send(typeof chunk === 'string' ? Buffer.from(chunk) : chunk, last);
    this.writableFinished = true;
    this.#finish(!this.options.close);
    return this;
  }

  destroy(): this {
    this.socket.destroy();
    this.#finish(false);
    return this;
  }

  on(_event: 'close', listener: () => void): this {
    this.#closeListeners.push(listener);
    return this;
  }

  once(_event: 'drain', listener: () => void): this {
    this.socket.once('drain', listener);
    return this;
  }

  /** The connection closed under the reply before it was over. */
  cut(): void {
    this.#finish(false);
  }

  /** `chunk` framed, after the head when it is not sent yet, and `last` (the end of a chunked body). */
  #send(chunk: Buffer | undefined, last: string): void {
    const before = this.#head ?? '';
    this.#head = undefined;
    const body = this.#bodyless ? undefined : chunk;
    writeFramed(this.socket, { before, body, chunked: this.#chunked, after: last });
  }

  #finish(reusable: boolean): void {
    if (this.#over) return;
    this.#over = true;
    for (const listener of this.#closeListeners) listener();
    this.options.over(reusable);
  }
}
