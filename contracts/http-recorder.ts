import { randomUUID } from 'node:crypto';
import { serviceUrl } from '../src/client/client-support.ts';
import { maskKey, Redactor } from '../src/redaction/redactor.ts';
import { toolHeaders, type Tool } from '../src/tool-mark.ts';
import { describeNetworkError, parseJson, readBody } from './http-body.ts';
import type { Caller } from './matrix/cells.ts';
import type { RunLimits } from './run-limits.ts';

/** One request and its answer, as a check sees it. Keys never stored. */
export interface Exchange {
  /** Its place in the run's traffic: the order requests were sent, the HAR's entries (-1: not sent). */
  readonly index: number;
  readonly label: string;
  readonly method: string;
  readonly path: string;
  /** What was sent besides the key (`Authorization` is rebuilt from `as`): headers, body. */
  readonly sent: SentRequest;
  /** When it was sent, epoch ms (wall clock, for the HAR). */
  readonly startedAt: number;
  /** ms until the answer's headers arrived (the rest of `ms` read the body). */
  readonly waitMs: number;
  /** Which key was sent: `primary`, `other`, `none` or `invalid`. */
  readonly as: KeyRole;
  readonly status: number;
  readonly contentType: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON when the body parses as JSON, else undefined. */
  readonly json: unknown;
  /** The first bytes of the body (for signatures and excerpts): all of a JSON body up to 4 MiB. */
  readonly head: Uint8Array;
  readonly bytes: number;
  /** The start of the body as text for a report (not redacted yet), or the network error. */
  readonly excerpt: string;
  readonly ms: number;
  /** Set when the request got no HTTP answer (or was not sent: the run had stopped). */
  readonly networkError?: string | undefined;
  /** Set when the answer began but its body broke off (`bytes` is what arrived). */
  readonly bodyError?: string | undefined;
  /** The run had stopped: the request was never sent. */
  readonly notSent?: boolean | undefined;
  /** The client request ID (`X-Request-Id`) the suite sent, on a submission. */
  readonly clientRequestId?: string | undefined;
  /** A redirect was followed on the way (never on a submission: issue 24 item 5). */
  readonly redirected: boolean;
}

/**
 * What the recorder keeps of an exchange once the checks have read it: all but the body, of which
 * the first `KEPT_BYTES` (issue 24 item 6: a run keeps excerpts of what it saw, not every answer).
 */
export type KeptExchange = Omit<Exchange, 'json'>;
const KEPT_BYTES = 4096;

export type KeyRole = 'primary' | 'other' | 'none' | 'invalid';

/** A request as sent, but its key: lower-case header names without `authorization`, the body text. */
export interface SentRequest {
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
}

/** The key a caller of the matrix sends: the owner sends the primary key. */
export const keyOf = (caller: Caller): KeyRole => (caller === 'owner' ? 'primary' : caller);

export interface RecorderOptions {
  readonly baseUrl: string;
  readonly keys: { readonly primary: string; readonly other?: string | undefined };
  /** Per-request limit, ms; `Infinity` for none (an in-process target cannot hang). */
  readonly requestTimeoutMs: number;
  readonly fetch?: typeof fetch | undefined;
  /** The run's deadline and early stop; without, requests are only limited one by one. */
  readonly limits?: RunLimits | undefined;
  /** Told of every exchange as it is kept, with what was sent (a learning run reads both). */
  readonly onExchange?: ((exchange: Exchange, sent: SendInit) => void) | undefined;
  /** The tool whose requests these are: sent as `X-Videotask-Tool` (decisions/045), never recorded. */
  readonly tool?: Tool | undefined;
}

/** What a request sends besides its method and path. */
export interface SendInit {
  readonly as?: KeyRole;
  readonly json?: unknown;
  readonly rawBody?: string;
  readonly contentType?: string;
  readonly headers?: Record<string, string>;
  readonly clientRequestId?: string;
  /** Sees every chunk of the body as it arrives (a check hashing a download). */
  readonly sink?: (chunk: Uint8Array) => void;
}

/**
 * Sends requests for the checks and keeps every exchange (the report shows what was seen), in the
 * order their answers ended (`index` is the order they were sent). Bodies are read in full but only
 * their first bytes are kept, so a video never stays in memory.
 */
export class HttpRecorder {
  readonly exchanges: KeptExchange[] = [];
  /** Submissions sent, by client request ID: the suite itself must never resubmit (§3 rule 1). */
  readonly submissions = new Map<string, number>();
  /** The one redaction of every text a person or a report sees (every key the run holds). */
  readonly redactor: Redactor;
  readonly #fetch: typeof fetch;
  /** Requests sent so far (each exchange's `index`). */
  #sent = 0;
  /** The key sent as `invalid`: a new one each run, so no deployment can know it. */
  readonly #invalidKey = `sk-invalid-${randomUUID().replace(/-/g, '')}`;

  constructor(readonly options: RecorderOptions) {
    this.#fetch = options.fetch ?? fetch;
    this.redactor = new Redactor([options.keys.primary, options.keys.other, this.#invalidKey]);
  }

  async send(label: string, method: string, path: string, init: SendInit = {}): Promise<Exchange> {
    const as = init.as ?? 'primary';
    const { headers, body } = outgoing(init);
    const request = {
      index: -1,
      label,
      method,
      path,
      as,
      clientRequestId: init.clientRequestId,
      sent: { headers: { ...headers }, body },
      startedAt: Date.now(),
    };
    const key = this.#keyFor(as);
    if (key !== undefined) headers['authorization'] = `Bearer ${key}`;
    if (this.options.tool !== undefined) Object.assign(headers, toolHeaders(this.options.tool));
    const { limits } = this.options;
    const stopped = limits?.stopped;
    if (stopped !== undefined)
      return this.#keep({ ...unanswered(request, `not sent: ${stopped}`, 0), notSent: true }, init);
    request.index = this.#sent++;
    if (init.clientRequestId !== undefined)
      this.submissions.set(
        init.clientRequestId,
        (this.submissions.get(init.clientRequestId) ?? 0) + 1,
      );
    const started = performance.now();
    const { timer, signal } = requestLimit(this.options.requestTimeoutMs, limits);
    let exchange: Exchange;
    try {
      const response = await this.#fetch(serviceUrl(this.options.baseUrl, path), {
        method,
        headers,
        body: body ?? null,
        // A submission is never sent twice: its redirect is an unconfirmed answer (§7).
        redirect: method === 'POST' ? 'manual' : 'follow',
        signal,
      });
      exchange = await this.#answered(request, response, started, init.sink);
    } catch (error) {
      const why = this.redact(describeNetworkError(error));
      exchange = unanswered(request, why, performance.now() - started);
    } finally {
      clearTimeout(timer);
    }
    limits?.record(exchange.networkError === undefined, exchange.networkError);
    return this.#keep(exchange, init);
  }

  /** The exchange of an answer: its body read (the first bytes kept), timed from `started`. */
  async #answered(
    request: ExchangeStart,
    response: Response,
    started: number,
    sink: SendInit['sink'],
  ): Promise<Exchange> {
    const waitMs = performance.now() - started;
    const { head, bytes, error } = await readBody(response, sink);
    const contentType = response.headers.get('content-type') ?? '';
    return {
      ...request,
      status: response.status,
      contentType,
      head,
      bytes,
      excerpt: excerpt({ head, bytes }),
      ms: performance.now() - started,
      waitMs,
      headers: Object.fromEntries(response.headers),
      json: error === undefined ? parseJson(head, bytes, contentType) : undefined,
      redirected: response.redirected,
      ...(error === undefined ? {} : { bodyError: this.redact(error) }),
    };
  }

  #keyFor(as: KeyRole): string | undefined {
    if (as === 'primary') return this.options.keys.primary;
    if (as === 'other') return this.options.keys.other;
    return as === 'invalid' ? this.#invalidKey : undefined;
  }

  #keep(exchange: Exchange, sent: SendInit): Exchange {
    this.exchanges.push(kept(exchange));
    this.options.onExchange?.(exchange, sent);
    return exchange;
  }

  /** Removes every key from a text meant for a person. */
  redact(text: string): string {
    return this.redactor.redact(text);
  }

  /** `sk-…abcd` for a caller's key (the primary key by default): what reports may show. */
  maskedKey(as: KeyRole = 'primary'): string | undefined {
    const key = this.#keyFor(as);
    return key === undefined ? undefined : maskKey(key);
  }
}

/**
 * One timer per request, cleared once the body is read (AbortSignal.timeout costs ~40 µs and keeps its
 * timer alive for the whole limit); the run's own stop aborts the request too.
 */
function requestLimit(
  perRequest: number,
  limits: RunLimits | undefined,
): { timer: ReturnType<typeof setTimeout> | undefined; signal: AbortSignal | null } {
  const abort = Number.isFinite(perRequest) ? new AbortController() : undefined;
  const timer =
    abort === undefined
      ? undefined
      : setTimeout(
          () => abort.abort(new DOMException('request time limit', 'TimeoutError')),
          limits?.requestLimitMs(perRequest) ?? perRequest,
        );
  const signals = [abort?.signal, limits?.signal].filter((s) => s !== undefined);
  return { timer, signal: signals.length > 1 ? AbortSignal.any(signals) : (signals[0] ?? null) };
}

/** What a request sends (no key yet: the key is added after `sent` is taken, so it is never kept). */
function outgoing(init: SendInit): { headers: Record<string, string>; body: string | undefined } {
  const headers: Record<string, string> = {
    accept: 'application/json, video/*;q=0.9, */*;q=0.1',
    ...init.headers,
  };
  let body: string | undefined;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers['content-type'] = init.contentType ?? 'application/json';
  } else if (init.rawBody !== undefined) {
    body = init.rawBody;
    if (init.contentType !== undefined) headers['content-type'] = init.contentType;
  }
  if (init.clientRequestId !== undefined) headers['x-request-id'] = init.clientRequestId;
  return { headers, body };
}

type ExchangeStart = Pick<
  Exchange,
  'index' | 'label' | 'method' | 'path' | 'as' | 'clientRequestId' | 'sent' | 'startedAt'
>;

function unanswered(request: ExchangeStart, networkError: string, ms: number): Exchange {
  return {
    ...request,
    waitMs: ms,
    status: 0,
    contentType: '',
    headers: {},
    json: undefined,
    head: new Uint8Array(),
    bytes: 0,
    excerpt: networkError,
    ms,
    networkError,
    redirected: false,
  };
}

/** `exchange` without its parsed body, and only the first `KEPT_BYTES` of the body. */
export function kept(exchange: KeptExchange): KeptExchange {
  const { json: _json, ...rest } = exchange as Exchange;
  if (exchange.head.byteLength <= KEPT_BYTES) return rest;
  return { ...rest, head: exchange.head.slice(0, KEPT_BYTES) };
}

/**
 * A short excerpt of a body for a report, not redacted yet: its text with spacing collapsed, cut at
 * `limit` characters with an ellipsis, or `<N bytes of binary>`. Reads at most a few `limit`s of bytes,
 * whatever the body's size or nesting.
 */
export function excerpt(body: { head: Uint8Array; bytes: number }, limit = 200): string {
  const read = body.head.subarray(0, limit * 4);
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(read);
  // A character the cut split in two is no sign of binary.
  const text = read.byteLength < body.bytes ? decoded.replace(/\ufffd{1,3}$/, '') : decoded;
  if (/[\u0000-\u0008\u000e-\u001f\ufffd]/.test(text.slice(0, limit)))
    return `<${body.bytes} bytes of binary>`;
  const shown = text.replace(/\s+/g, ' ').trim();
  const cut = shown.length > limit || read.byteLength < body.bytes;
  return cut ? `${shown.slice(0, limit)}…` : shown;
}
