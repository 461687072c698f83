import { maskKey } from '../src/client/mask.ts';
import { describeNetworkError, parseJson, readBody } from './http-body.ts';
import type { Caller } from './matrix/cells.ts';
import { Redactor } from './redaction.ts';
import type { RunLimits } from './run-limits.ts';

/** One request and its answer, as a check sees it. Keys never stored. */
export interface Exchange {
  readonly label: string;
  readonly method: string;
  readonly path: string;
  /** Which key was sent: `primary`, `other`, `none` or `invalid`. */
  readonly as: KeyRole;
  readonly status: number;
  readonly contentType: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON when the body parses as JSON, else undefined. */
  readonly json: unknown;
  /** The first bytes of the body (for signatures and excerpts). */
  readonly head: Uint8Array;
  readonly bytes: number;
  readonly ms: number;
  /** Set when the request got no HTTP answer (or was not sent: the run had stopped). */
  readonly networkError?: string | undefined;
  /** Set when the answer began but its body broke off (`bytes` is what arrived). */
  readonly bodyError?: string | undefined;
  /** The run had stopped: the request was never sent. */
  readonly notSent?: boolean | undefined;
  /** The `X-Request-Id` the suite sent, on a submission. */
  readonly requestId?: string | undefined;
  /** Statuses of redirects followed on the way, if any. */
  readonly redirected: boolean;
}

export type KeyRole = 'primary' | 'other' | 'none' | 'invalid';

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
}

/** What a request sends besides its method and path. */
export interface SendInit {
  readonly as?: KeyRole;
  readonly json?: unknown;
  readonly rawBody?: string;
  readonly contentType?: string;
  readonly headers?: Record<string, string>;
  readonly requestId?: string;
  /** Sees every chunk of the body as it arrives (a check hashing a download). */
  readonly sink?: (chunk: Uint8Array) => void;
}

const INVALID_KEY = 'sk-videotask-contract-invalid-key-0000';

/**
 * Sends requests for the checks and keeps every exchange (the report shows what was seen). Bodies are
 * read in full but only their first bytes are kept, so a video never stays in memory.
 */
export class HttpRecorder {
  readonly exchanges: Exchange[] = [];
  /** Submissions sent, by client request ID: the suite itself must never resubmit (§3 rule 1). */
  readonly submissions = new Map<string, number>();
  /** The one redaction of every text a person or a report sees (every key the run holds). */
  readonly redactor: Redactor;
  readonly #fetch: typeof fetch;

  constructor(readonly options: RecorderOptions) {
    this.#fetch = options.fetch ?? fetch;
    this.redactor = new Redactor([options.keys.primary, options.keys.other, INVALID_KEY]);
  }

  async send(label: string, method: string, path: string, init: SendInit = {}): Promise<Exchange> {
    const as = init.as ?? 'primary';
    const headers: Record<string, string> = {
      accept: 'application/json, video/*;q=0.9, */*;q=0.1',
      ...init.headers,
    };
    const key = this.#keyFor(as);
    if (key !== undefined) headers['authorization'] = `Bearer ${key}`;
    let body: string | undefined;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['content-type'] = init.contentType ?? 'application/json';
    } else if (init.rawBody !== undefined) {
      body = init.rawBody;
      if (init.contentType !== undefined) headers['content-type'] = init.contentType;
    }
    const request = { label, method, path, as, requestId: init.requestId };
    const { limits } = this.options;
    const stopped = limits?.stopped;
    if (stopped !== undefined)
      return this.#keep({ ...unanswered(request, `not sent: ${stopped}`, 0), notSent: true }, init);
    if (init.requestId !== undefined) {
      headers['x-request-id'] = init.requestId;
      this.submissions.set(init.requestId, (this.submissions.get(init.requestId) ?? 0) + 1);
    }
    const started = performance.now();
    // One timer per request, cleared once the body is read (AbortSignal.timeout costs ~40 µs and
    // keeps its timer alive for the whole limit); the run's own stop aborts it too.
    const perRequest = this.options.requestTimeoutMs;
    const abort = Number.isFinite(perRequest) ? new AbortController() : undefined;
    const timer =
      abort === undefined
        ? undefined
        : setTimeout(
            () => abort.abort(new DOMException('request time limit', 'TimeoutError')),
            limits?.requestLimitMs(perRequest) ?? perRequest,
          );
    const signals = [abort?.signal, limits?.signal].filter((s) => s !== undefined);
    let exchange: Exchange;
    try {
      const response = await this.#fetch(new URL(path, this.options.baseUrl), {
        method,
        headers,
        body: body ?? null,
        redirect: 'follow',
        signal: signals.length > 1 ? AbortSignal.any(signals) : (signals[0] ?? null),
      });
      const { head, bytes, error } = await readBody(response, init.sink);
      const contentType = response.headers.get('content-type') ?? '';
      exchange = {
        ...request,
        status: response.status,
        contentType,
        head,
        bytes,
        ms: performance.now() - started,
        headers: Object.fromEntries(response.headers),
        json: error === undefined ? parseJson(head, bytes, contentType) : undefined,
        redirected: response.redirected,
        ...(error === undefined ? {} : { bodyError: this.redact(error) }),
      };
    } catch (error) {
      const why = this.redact(describeNetworkError(error));
      exchange = unanswered(request, why, performance.now() - started);
    } finally {
      clearTimeout(timer);
    }
    limits?.record(exchange.networkError === undefined, exchange.networkError);
    return this.#keep(exchange, init);
  }

  #keyFor(as: KeyRole): string | undefined {
    if (as === 'primary') return this.options.keys.primary;
    if (as === 'other') return this.options.keys.other;
    return as === 'invalid' ? INVALID_KEY : undefined;
  }

  #keep(exchange: Exchange, sent: SendInit): Exchange {
    this.exchanges.push(exchange);
    this.options.onExchange?.(exchange, sent);
    return exchange;
  }

  /** Removes every key from a text meant for a person. */
  redact(text: string): string {
    return this.redactor.redact(text);
  }

  /** `sk-…abcd` for the primary key (what reports may show). */
  maskedKey(): string {
    return maskKey(this.options.keys.primary);
  }
}

function unanswered(
  request: Pick<Exchange, 'label' | 'method' | 'path' | 'as' | 'requestId'>,
  networkError: string,
  ms: number,
): Exchange {
  return {
    ...request,
    status: 0,
    contentType: '',
    headers: {},
    json: undefined,
    head: new Uint8Array(),
    bytes: 0,
    ms,
    networkError,
    redirected: false,
  };
}

/** A short, redaction-ready excerpt of a body for a report. */
export function excerpt(exchange: Exchange, limit = 200): string {
  if (exchange.networkError !== undefined) return exchange.networkError;
  if (exchange.json !== undefined) return JSON.stringify(exchange.json).slice(0, limit);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(exchange.head.subarray(0, limit));
  return /[\u0000-\u0008\u000e-\u001f\ufffd]/.test(text)
    ? `<${exchange.bytes} bytes of binary>`
    : text;
}
