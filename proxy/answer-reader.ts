import { maxHeaderSize } from 'node:http';
import { readFields, type Fields } from './head-fields.ts';

/**
 * Reading HTTP/1.1 answers off an upstream connection's bytes (RFC 9112), without a stream per answer:
 * the status line and fields parsed at once, the body handed on as it arrives, its end found by its
 * framing (§6: none for HEAD, 1xx, 204 and 304; `Transfer-Encoding: chunked`, decoded; `Content-Length`;
 * else the connection's close). What is not an answer is refused with why, never guessed at.
 */

/** An answer's status line and fields, as the upstream sent them. */
export interface AnswerHead {
  readonly status: number;
  readonly statusMessage: string;
  /** Its fields: as sent (`rawHeaders`), one by name (`get`), as node's `headers`. */
  readonly fields: Fields;
  /** The connection may carry another request once this answer is read (RFC 9112 §9.3). */
  readonly keepAlive: boolean;
  /** `Keep-Alive: timeout=N`: how long the upstream keeps an idle connection, s. */
  readonly keepAliveS: number | undefined;
}

export interface AnswerEvents {
  head(head: AnswerHead): void;
  data(chunk: Buffer): void;
  /** The answer is whole; `reusable`: the connection may carry the next request. */
  complete(reusable: boolean): void;
}

type State = 'head' | 'length' | 'size' | 'data' | 'crlf' | 'trailer' | 'close' | 'done';

/** RFC 9112 §4: the reason phrase is HTAB, SP, visible ASCII or obs-text: never a bare CR or LF. */
const STATUS_LINE = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: ([\t\x20-\x7e\x80-\xff]*))?$/;
const LONGEST_LINE = 4096;

/** One answer to a request of `method`, read from the bytes pushed into it. */
export class AnswerReader {
  #state: State = 'head';
  /** Bytes of a head or a line not yet whole. */
  #pending: Buffer | undefined;
  /** Body bytes left (`length`, `data`), or CRLF bytes left (`crlf`). */
  #left = 0;
  #keepAlive = false;
  #reusable = false;
  #extra = false;
  #told = false;

  constructor(
    readonly method: string,
    readonly events: AnswerEvents,
  ) {}

  /** Whether the answer's head was read. */
  get started(): boolean {
    return this.#state !== 'head';
  }

  /** Reads the next bytes of the connection; a message when they are not an HTTP/1.1 answer. */
  push(chunk: Buffer): string | undefined {
    let at = 0;
    while (at < chunk.length) {
      const read = this.#step(chunk, at);
      if (typeof read === 'string') return read;
      at = read;
    }
    this.#tell();
    return undefined;
  }

  /**
   * The connection ended: an answer framed by its close is whole now; a message when the answer was
   * cut short.
   */
  finish(): string | undefined {
    if (this.#state === 'done') return undefined;
    if (this.#state === 'close') {
      this.#end(false);
      this.#tell();
      return undefined;
    }
    return this.#state === 'head'
      ? 'the connection closed before an answer'
      : "the connection closed before the answer's end";
  }

  #step(chunk: Buffer, at: number): number | string {
    switch (this.#state) {
      case 'head':
        return this.#head(chunk, at);
      case 'length':
      case 'data':
        return this.#body(chunk, at);
      case 'crlf':
        return this.#crlf(chunk, at);
      case 'size':
      case 'trailer':
        return this.#line(chunk, at);
      case 'close':
        this.events.data(at === 0 ? chunk : chunk.subarray(at));
        return chunk.length;
      case 'done':
        // Bytes after the answer: nothing was asked, so the connection cannot be trusted again.
        this.#extra = true;
        return chunk.length;
    }
  }

  #head(chunk: Buffer, at: number): number | string {
    const bytes = this.#joined(chunk, at);
    const from = Math.max(0, bytes.length - (chunk.length - at) - 3);
    const end = bytes.indexOf('\r\n\r\n', from, 'latin1');
    if (end < 0) {
      if (bytes.length > maxHeaderSize) return `the answer's head is over ${maxHeaderSize} bytes`;
      this.#pending = bytes;
      return chunk.length;
    }
    this.#pending = undefined;
    const head = parseHead(bytes.toString('latin1', 0, end));
    if (typeof head === 'string') return head;
    const consumed = chunk.length - (bytes.length - end - 4);
    if (head.status < 200) {
      // 1xx: an interim answer (100 Continue, 103 Early Hints) before the final one; 101 was never asked.
      return head.status === 101 ? 'a 101 Switching Protocols that was never asked for' : consumed;
    }
    this.events.head(head);
    return this.#framing(head, consumed);
  }

  /** Where the body ends (RFC 9112 §6.3), from the answer's head. */
  #framing(head: AnswerHead, at: number): number | string {
    this.#keepAlive = head.keepAlive;
    if (this.method === 'HEAD' || head.status === 204 || head.status === 304) {
      this.#end();
      return at;
    }
    const coding = head.fields.get('transfer-encoding');
    const length = lengthOf(head.fields);
    if (typeof length === 'string') return length;
    if (coding !== undefined) {
      // RFC 9112 §6.1, §6.3: both framings at once is how answers are smuggled; a coding other than
      // chunked alone would reach the client undone (the proxy drops Transfer-Encoding, a hop's field).
      if (length !== undefined) return 'the answer has both Transfer-Encoding and Content-Length';
      if (coding.trim().toLowerCase() !== 'chunked')
        return `the answer's Transfer-Encoding is not chunked alone: ${JSON.stringify(coding.slice(0, 40))}`;
      this.#state = 'size';
      return at;
    }
    if (length === undefined) this.#state = 'close';
    else if (length === 0) this.#end();
    else {
      this.#left = length;
      this.#state = 'length';
    }
    return at;
  }

  #body(chunk: Buffer, at: number): number {
    const n = Math.min(this.#left, chunk.length - at);
    this.events.data(at === 0 && n === chunk.length ? chunk : chunk.subarray(at, at + n));
    this.#left -= n;
    if (this.#left === 0) {
      if (this.#state === 'length') this.#end();
      else {
        this.#state = 'crlf';
        this.#left = 2;
      }
    }
    return at + n;
  }

  #crlf(chunk: Buffer, at: number): number | string {
    const expected = this.#left === 2 ? 0x0d : 0x0a;
    if (chunk[at] !== expected) return 'a chunk of the body does not end with CRLF';
    if (--this.#left === 0) this.#state = 'size';
    return at + 1;
  }

  /** A chunk-size line or a trailer line, whole or pending. */
  #line(chunk: Buffer, at: number): number | string {
    const bytes = this.#joined(chunk, at);
    const end = bytes.indexOf('\r\n', Math.max(0, bytes.length - (chunk.length - at) - 1));
    if (end < 0) {
      if (bytes.length > LONGEST_LINE) return 'a chunk-size or trailer line is over 4096 bytes';
      this.#pending = bytes;
      return chunk.length;
    }
    this.#pending = undefined;
    const line = bytes.toString('latin1', 0, end);
    const next = chunk.length - (bytes.length - end - 2);
    if (this.#state === 'trailer') {
      if (line === '') this.#end();
      return next;
    }
    const size = /^([0-9a-fA-F]{1,12})[ \t]*(?:;[^]*)?$/.exec(line);
    if (size === null)
      return `a chunk-size line is not a hexadecimal size: ${JSON.stringify(line.slice(0, 40))}`;
    this.#left = parseInt(size[1]!, 16);
    this.#state = this.#left === 0 ? 'trailer' : 'data';
    return next;
  }

  /** `chunk` from `at`, after what was pending. */
  #joined(chunk: Buffer, at: number): Buffer {
    const rest = at === 0 ? chunk : chunk.subarray(at);
    return this.#pending === undefined ? rest : Buffer.concat([this.#pending, rest]);
  }

  #end(reusable = this.#keepAlive): void {
    this.#state = 'done';
    this.#reusable = reusable;
  }

  /** Tells the end once the bytes pushed are read: any past the answer make the connection unfit. */
  #tell(): void {
    if (this.#state !== 'done' || this.#told) return;
    this.#told = true;
    this.events.complete(this.#reusable && !this.#extra);
  }
}

/** The status line and fields of a head (its text up to the empty line), or why it is not one. */
export function parseHead(text: string): AnswerHead | string {
  const first = text.indexOf('\r\n');
  const line = first < 0 ? text : text.slice(0, first);
  const status = STATUS_LINE.exec(line);
  if (status === null)
    return `the answer does not start with an HTTP/1.x status line: ${JSON.stringify(line.slice(0, 60))}`;
  const fields = readFields(text, first < 0 ? text.length : first, 'answer');
  if (typeof fields === 'string') return fields;
  const connection = (fields.get('connection') ?? '').toLowerCase();
  const keepAlive =
    status[1] === '1' ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection);
  const hint = /\btimeout=(\d+)/i.exec(fields.get('keep-alive') ?? '');
  return {
    status: Number(status[2]),
    statusMessage: status[3] ?? '',
    fields,
    keepAlive,
    keepAliveS: hint === null ? undefined : Number(hint[1]),
  };
}

/** The body's length by `Content-Length` (RFC 9112 §6.3): repeated, they must agree. */
function lengthOf(fields: Fields): number | undefined | string {
  let length: number | undefined;
  const raw = fields.rawHeaders;
  for (let i = 0; i < fields.names.length; i++) {
    if (fields.names[i] !== 'content-length') continue;
    for (const part of raw[2 * i + 1]!.split(',')) {
      const value = part.trim();
      if (!/^\d{1,15}$/.test(value) || (length !== undefined && Number(value) !== length))
        return `the answer's Content-Length is not one length: ${JSON.stringify(raw[2 * i + 1]!.slice(0, 40))}`;
      length = Number(value);
    }
  }
  return length;
}
