import type { IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { MAX_ANSWER_BYTES, parseJson } from '../contracts/http-body.ts';
import { excerpt, type Exchange } from '../contracts/http-recorder.ts';
import type { RouteId } from '../contracts/matrix/index.ts';
import type { LookBytes } from '../contracts/traffic/judge-answers.ts';
import type { TrafficExchange } from '../contracts/traffic/traffic-judge.ts';
import type { Fields } from './head-fields.ts';
import { endToEnd } from './hop-by-hop.ts';

/**
 * A JSON (or untyped) answer is kept whole up to what the suite's recorder reads (4 MiB), to be parsed
 * as the suite would; of any other answer, the first bytes.
 */
export const JSON_KEPT = MAX_ANSWER_BYTES;
const OTHER_KEPT = 512;

/** How much of an answer of this type the judges need. */
export const keptBytes = (contentType: string | undefined): number =>
  contentType === undefined || /json/i.test(contentType) ? JSON_KEPT : OTHER_KEPT;

/** Counts a body's bytes as they pass and keeps the first `limit` of them. */
export class BodyTap {
  bytes = 0;
  #parts: Buffer[] = [];
  #size = 0;

  constructor(readonly limit: number) {}

  readonly add = (chunk: Buffer): void => {
    this.bytes += chunk.length;
    if (this.#size >= this.limit) return;
    const part =
      chunk.length <= this.limit - this.#size ? chunk : chunk.subarray(0, this.limit - this.#size);
    this.#parts.push(part);
    this.#size += part.length;
  };

  /** Whether every byte that passed is kept. */
  get whole(): boolean {
    return this.#size === this.bytes;
  }

  head(): Buffer {
    if (this.#parts.length !== 1) this.#parts = [Buffer.concat(this.#parts)];
    return this.#parts[0] ?? Buffer.alloc(0);
  }
}

/**
 * The request as a reproduction shows it: its end-to-end fields (the connection's own and `Host` are
 * the next hop's, hop-by-hop.ts), less its key, its framing and the proxy's `Via`; its body's start.
 */
const NOT_SHOWN = new Set(['authorization', 'content-length', 'via', 'cookie']);
const MOST_FIELDS = 30;
const SHOWN_BODY = 4096;

export function sentOf(raw: readonly string[], body: Buffer | undefined): Exchange['sent'] {
  const fields = endToEnd(raw);
  const headers: Record<string, string> = {};
  let count = 0;
  for (let i = 0; i < fields.length && count < MOST_FIELDS; i += 2) {
    const name = fields[i]!.toLowerCase();
    if (NOT_SHOWN.has(name)) continue;
    headers[name] = name in headers ? `${headers[name]}, ${fields[i + 1]}` : fields[i + 1]!;
    count++;
  }
  const shown =
    body === undefined || body.length === 0
      ? undefined
      : body.subarray(0, SHOWN_BODY).toString('utf8');
  return { headers, body: shown };
}

/** An answer's fields as the suite's checks read them: lower-case names, repeated values joined. */
export function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** What the proxy saw of one forwarded exchange, as the suite's recorder would have kept it. */
export interface Recorded {
  readonly index: number;
  readonly method: string;
  /** The deployment's path and query (its base path kept). */
  readonly path: string;
  /** The request's fields as the client sent them, and the start of its body (a submission's). */
  readonly rawHeaders: readonly string[];
  readonly body: Buffer | undefined;
  readonly clientRequestId: string | undefined;
  readonly startedAt: number;
  readonly waitMs: number;
  readonly ms: number;
  readonly status: number;
  /** The answer's fields. */
  readonly fields: Pick<Fields, 'get' | 'headers'>;
  readonly tap: BodyTap;
  readonly bodyError: string | undefined;
}

/**
 * One forwarded exchange as the deployment's judge takes it (`TrafficExchange`): the answer's status
 * and bytes at once (`look`), the exchange when first read. A polling loop's repeated answer is judged
 * by its bytes alone (contracts/traffic `replayedLook`) and never pays for the exchange.
 */
export class TappedExchange implements TrafficExchange {
  readonly look: LookBytes;
  readonly #head: Buffer;
  #exchange: Omit<Exchange, 'as'> | undefined;

  readonly route: RouteId;
  readonly taskId: string | undefined;
  readonly key: string;
  readonly body: unknown;
  readonly ranged: boolean;

  constructor(
    readonly recorded: Recorded,
    about: Omit<TrafficExchange, 'exchange' | 'look'>,
  ) {
    this.route = about.route;
    this.taskId = about.taskId;
    this.key = about.key;
    this.body = about.body;
    this.ranged = about.ranged;
    const r = recorded;
    this.#head = headOf(r);
    this.look = { status: r.status, head: this.#head, bytes: r.tap.bytes, bodyError: r.bodyError };
  }

  get exchange(): Omit<Exchange, 'as'> {
    return (this.#exchange ??= exchangeOf(this.recorded, this.#head));
  }
}

/** The answer's kept bytes as the client reads them: decoded when whole (see `decoded`). */
const headOf = (r: Recorded): Buffer =>
  r.tap.whole && r.bodyError === undefined
    ? decoded(r.tap.head(), r.fields.get('content-encoding'))
    : r.tap.head();

/**
 * The exchange as the judges read it, its body `head` (decoded). What costs (the fields as a record,
 * the JSON parsed, an excerpt, the request as sent) is made when first read.
 */
export function exchangeOf(r: Recorded, head = headOf(r)): Omit<Exchange, 'as'> {
  const complete = r.tap.whole && r.bodyError === undefined;
  const bytes = r.tap.bytes;
  let headers: Record<string, string> | undefined;
  let json: { value: unknown } | undefined;
  const contentType = () => r.fields.get('content-type') ?? '';
  return {
    index: r.index,
    label: 'client',
    method: r.method,
    path: r.path,
    startedAt: r.startedAt,
    waitMs: r.waitMs,
    status: r.status,
    head,
    bytes,
    ms: r.ms,
    redirected: false,
    get sent() {
      return sentOf(r.rawHeaders, r.body);
    },
    get contentType() {
      return contentType();
    },
    get headers() {
      return (headers ??= flatHeaders(r.fields.headers));
    },
    get json() {
      json ??= { value: complete ? parseJson(head, head.length, contentType()) : undefined };
      return json.value;
    },
    get excerpt() {
      return excerpt({ head, bytes });
    },
    ...(r.clientRequestId === undefined ? {} : { clientRequestId: r.clientRequestId }),
    ...(r.bodyError === undefined ? {} : { bodyError: r.bodyError }),
  };
}

const DECODERS: Readonly<
  Record<string, (bytes: Buffer, o: { maxOutputLength: number }) => Buffer>
> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * A whole body as the client reads it: its content coding undone (a client's fetch does it too), up to
 * `JSON_KEPT`. A coding it cannot undo leaves the bytes as they came: not JSON to the judges.
 */
function decoded(body: Buffer, coding: string | undefined): Buffer {
  if (coding === undefined || body.length === 0) return body;
  const decode = DECODERS[coding.trim().toLowerCase()];
  if (decode === undefined) return body;
  try {
    return decode(body, { maxOutputLength: JSON_KEPT });
  } catch {
    return body;
  }
}
