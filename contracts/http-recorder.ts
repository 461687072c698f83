import { maskKey, redact } from '../src/client/mask.ts';

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
  /** Set when the request got no HTTP answer. */
  readonly networkError?: string | undefined;
  /** Statuses of redirects followed on the way, if any. */
  readonly redirected: boolean;
}

export type KeyRole = 'primary' | 'other' | 'none' | 'invalid';

export interface RecorderOptions {
  readonly baseUrl: string;
  readonly keys: { readonly primary: string; readonly other?: string | undefined };
  readonly requestTimeoutMs: number;
  readonly fetch?: typeof fetch | undefined;
}

const INVALID_KEY = 'sk-videotask-contract-invalid-key-0000';
const HEAD_BYTES = 512;

/**
 * Sends requests for the checks and keeps every exchange (the report shows what was seen). Bodies are
 * read in full but only their first bytes are kept, so a video never stays in memory.
 */
export class HttpRecorder {
  readonly exchanges: Exchange[] = [];
  /** Submissions sent, by client request ID: the suite itself must never resubmit (§3 rule 1). */
  readonly submissions = new Map<string, number>();
  readonly #fetch: typeof fetch;

  constructor(readonly options: RecorderOptions) {
    this.#fetch = options.fetch ?? fetch;
  }

  async send(
    label: string,
    method: string,
    path: string,
    init: {
      as?: KeyRole;
      json?: unknown;
      rawBody?: string;
      contentType?: string;
      headers?: Record<string, string>;
      requestId?: string;
    } = {},
  ): Promise<Exchange> {
    const as = init.as ?? 'primary';
    const headers: Record<string, string> = {
      accept: 'application/json, video/*;q=0.9, */*;q=0.1',
      ...init.headers,
    };
    const key =
      as === 'primary'
        ? this.options.keys.primary
        : as === 'other'
          ? this.options.keys.other
          : as === 'invalid'
            ? INVALID_KEY
            : undefined;
    if (key !== undefined) headers['authorization'] = `Bearer ${key}`;
    let body: string | undefined;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['content-type'] = init.contentType ?? 'application/json';
    } else if (init.rawBody !== undefined) {
      body = init.rawBody;
      if (init.contentType !== undefined) headers['content-type'] = init.contentType;
    }
    if (init.requestId !== undefined) {
      headers['x-request-id'] = init.requestId;
      this.submissions.set(init.requestId, (this.submissions.get(init.requestId) ?? 0) + 1);
    }
    const started = performance.now();
    let exchange: Exchange;
    try {
      const response = await this.#fetch(new URL(path, this.options.baseUrl), {
        method,
        headers,
        body: body ?? null,
        redirect: 'follow',
        signal: AbortSignal.timeout(this.options.requestTimeoutMs),
      });
      const { head, bytes } = await readHead(response);
      const contentType = response.headers.get('content-type') ?? '';
      exchange = {
        label,
        method,
        path,
        as,
        status: response.status,
        contentType,
        head,
        bytes,
        ms: performance.now() - started,
        headers: Object.fromEntries(response.headers),
        json: parseJson(head, bytes, contentType),
        redirected: response.redirected,
      };
    } catch (error) {
      exchange = {
        label,
        method,
        path,
        as,
        status: 0,
        contentType: '',
        headers: {},
        json: undefined,
        head: new Uint8Array(),
        bytes: 0,
        ms: performance.now() - started,
        networkError: this.redact(describeNetworkError(error)),
        redirected: false,
      };
    }
    this.exchanges.push(exchange);
    return exchange;
  }

  /** Removes every key from a text meant for a person. */
  redact(text: string): string {
    return redact(text, [this.options.keys.primary, this.options.keys.other, INVALID_KEY]);
  }

  /** `sk-…abcd` for the primary key (what reports may show). */
  maskedKey(): string {
    return maskKey(this.options.keys.primary);
  }
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

// Whole JSON bodies are kept (up to 1 MiB) so they can be parsed; other bodies keep their first bytes.
const JSON_LIMIT = 1 << 20;

async function readHead(response: Response): Promise<{ head: Uint8Array; bytes: number }> {
  if (response.body === null) return { head: new Uint8Array(), bytes: 0 };
  const isJson =
    /json/i.test(response.headers.get('content-type') ?? '') ||
    response.headers.get('content-type') === null;
  const keep = isJson ? JSON_LIMIT : HEAD_BYTES;
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    if (kept < keep) {
      const part = chunk.subarray(0, keep - kept);
      chunks.push(part);
      kept += part.byteLength;
    }
  }
  const head = new Uint8Array(kept);
  let offset = 0;
  for (const c of chunks) {
    head.set(c, offset);
    offset += c.byteLength;
  }
  return { head, bytes };
}

function parseJson(head: Uint8Array, bytes: number, contentType: string): unknown {
  if (bytes === 0 || head.byteLength < bytes) return undefined;
  const text = new TextDecoder().decode(head).trim();
  if (!(text.startsWith('{') || text.startsWith('[') || /json/i.test(contentType)))
    return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describeNetworkError(error: unknown): string {
  const e = error as {
    name?: string;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  if (e.name === 'TimeoutError') return 'no answer within the request time limit';
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(error);
}
