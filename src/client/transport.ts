import { createApi, type Api, type ApiResult } from './api-request.ts';
import { capResponse } from './capped-body.ts';
import { MAX_JSON_DEPTH } from '../text/json-depth.ts';
import { checkApiKey, checkBaseUrl, describeCause, preview } from './client-support.ts';
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  type RequestOptions,
  type VideoTaskClientOptions,
} from './client-types.ts';
import {
  apiErrorFrom,
  ConnectionError,
  RequestTimeoutError,
  ResponseTooLargeError,
  UnexpectedResponseError,
  VideoTaskError,
  type ApiError,
  type Operation,
} from './errors.ts';
import { maskKey, Redactor } from '../redaction/redactor.ts';
import { responseMeta, type ResponseMeta, type WithMeta } from './response-meta.ts';

/** The fetch one call uses. */
export type RequestFetch = (request: Request) => Promise<Response>;

/** One JSON call of the client, as `Transport.json` runs it. */
export interface JsonCall {
  readonly operation: Operation;
  /** What the call does, for messages: "Failed to <action>: …". */
  readonly action: string;
  readonly options: RequestOptions;
  /** Headers this client owns for the call, set over the caller's. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Sends the request (`api`) with what the transport prepared. */
  readonly send: (prepared: {
    headers: Headers;
    signal: AbortSignal;
    fetch: RequestFetch;
  }) => Promise<ApiResult>;
  /** Whether the data of a 2xx answer is what the call returns; otherwise `invalid` says what is wrong. */
  readonly isValid: (data: unknown) => boolean;
  readonly invalid: string;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** The most of an error answer that is read: its first bytes explain it. */
const ERROR_BODY_LIMIT = 64 * 1024;

/**
 * What every call of `VideoTaskClient` shares: the checked options, the key (only ever sent as
 * `Authorization: Bearer`, §5, and masked in anything shown), the typed requests (`api`), the size
 * bounds on answers, and the mapping of every way a request fails to a typed error.
 */
export class Transport {
  readonly baseUrl: string;
  readonly requestTimeoutMs: number;
  readonly maxResponseBytes: number;
  readonly api: Api;
  readonly #apiKey: string;
  /** Every text this client shows (errors, their bodies, headers) goes through it. */
  readonly #redactor: Redactor;
  readonly #fetch: typeof fetch | undefined;
  readonly #headers: Headers;

  constructor(options: VideoTaskClientOptions) {
    if (options === null || typeof options !== 'object')
      throw new TypeError('VideoTaskClient needs options: { baseUrl, apiKey }');
    this.baseUrl = checkBaseUrl(options.baseUrl);
    this.#apiKey = checkApiKey(options.apiKey);
    this.#redactor = new Redactor([this.#apiKey]);
    this.requestTimeoutMs = positive(
      'requestTimeoutMs',
      options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS,
      'milliseconds',
    );
    this.maxResponseBytes = positive(
      'maxResponseBytes',
      options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      'bytes',
    );
    if (options.fetch !== undefined && typeof options.fetch !== 'function')
      throw new TypeError('fetch must be a function');
    this.#fetch = options.fetch;
    this.#headers = this.#checkedHeaders(() => new Headers(options.headers));
    this.api = createApi(this.baseUrl);
  }

  get maskedKey(): string {
    return maskKey(this.#apiKey);
  }

  /** Headers for one request: the client's, the call's, then the ones this client owns. */
  headersFor(extra: Readonly<Record<string, string>> | undefined, accept?: string): Headers {
    const headers = new Headers(this.#headers);
    this.#checkedHeaders(() => {
      for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value);
    });
    if (accept !== undefined && !headers.has('accept')) headers.set('accept', accept);
    headers.set('authorization', `Bearer ${this.#apiKey}`);
    return headers;
  }

  /**
   * The fetch of one call: an error answer is read at most 64 KiB (enough to explain it); a 2xx is
   * capped at `maxResponseBytes` unless `capSuccess` is false (a download meters its own bytes), and
   * refused when it nests deeper than `MAX_JSON_DEPTH`. A submission (every `POST`) never follows a
   * redirect: following one sends the task again (issue 24 item 5); its 3xx is an unconfirmed answer.
   */
  fetchFor(operation: Operation, action: string, capSuccess = true): RequestFetch {
    return async (request) => {
      const sent =
        request.method === 'POST' ? new Request(request, { redirect: 'manual' }) : request;
      // The global fetch is looked up per request: msw (and other interceptors) may patch it later.
      const response = await (this.#fetch ?? globalThis.fetch)(sent);
      if (!response.ok) {
        const limit = Math.min(ERROR_BODY_LIMIT, this.maxResponseBytes);
        return capResponse(response, { limit, tooDeep: 'cut' });
      }
      if (!capSuccess) return response;
      return capResponse(response, {
        limit: this.maxResponseBytes,
        tooLarge: () =>
          this.tooLarge(operation, action, 'the answer', this.maxResponseBytes, response),
        tooDeep: () => this.tooDeep(action, response),
      });
    };
  }

  /**
   * Runs one JSON call with the time limit and the size bound; every failure comes out typed, and an
   * answer `isValid` refuses is an `UnexpectedResponseError` showing it.
   */
  async json(call: JsonCall): Promise<WithMeta<unknown>> {
    const { operation, action, options } = call;
    const headers = this.headersFor(options.headers, 'application/json');
    for (const [name, value] of Object.entries(call.headers ?? {})) headers.set(name, value);
    const timeout = AbortSignal.timeout(this.requestTimeoutMs);
    const callerSignal = options.signal;
    const signal = callerSignal === undefined ? timeout : AbortSignal.any([callerSignal, timeout]);
    const seen: { response?: Response } = {};
    const fetchOnce = this.fetchFor(operation, action);
    const fetch: RequestFetch = async (request) => (seen.response = await fetchOnce(request));
    let result: ApiResult;
    try {
      result = await call.send({ headers, signal, fetch });
    } catch (error) {
      throw this.transportError(action, error, timeout, callerSignal, seen.response);
    }
    const answer = this.#answer(operation, action, result);
    if (!call.isValid(answer.data)) {
      const text = `Failed to ${action}: ${call.invalid}: ${preview(answer.data)}`;
      throw new UnexpectedResponseError(this.redact(text), { meta: answer.meta });
    }
    return answer;
  }

  /** The data and metadata of an answer, or the typed error it is. */
  #answer(operation: Operation, action: string, result: ApiResult): WithMeta<unknown> {
    const { response } = result;
    const meta = this.meta(response);
    // Node hands a redirect not followed over as is; a browser as an opaque one (status 0).
    const redirect = response.type === 'opaqueredirect' || Math.floor(response.status / 100) === 3;
    if (redirect) throw this.redirected(action, response);
    if (!response.ok) throw this.apiError(operation, action, result.error, response, meta);
    if (result.data === undefined)
      throw new UnexpectedResponseError(
        this.redact(
          `Failed to ${action}: the service answered ${response.status} with an empty body`,
        ),
        { meta },
      );
    return { data: result.data, meta };
  }

  meta(response: Response): ResponseMeta {
    return responseMeta(response, (text) => this.redact(text));
  }

  apiError(
    operation: Operation,
    action: string,
    body: unknown,
    response: Response,
    meta = this.meta(response),
  ): ApiError {
    const context = { operation, meta };
    const safeBody = this.#redactor.redactDeep(body);
    const error = apiErrorFrom(action, response.status, safeBody, response.headers, context);
    const message = this.redact(error.message);
    if (message !== error.message) {
      error.message = message;
      if (error.stack !== undefined) error.stack = this.redact(error.stack);
    }
    return error;
  }

  /** A request that produced no usable answer: the caller's abort, the time limit, a bad body, or the network. */
  transportError(
    action: string,
    error: unknown,
    timeout: AbortSignal,
    callerSignal: AbortSignal | undefined,
    answered?: Response,
  ): unknown {
    if (callerSignal?.aborted) return callerSignal.reason;
    if (timeout.aborted)
      return new RequestTimeoutError(
        this.redact(
          `Failed to ${action}: no answer from ${this.baseUrl} within ${this.requestTimeoutMs} ms`,
        ),
        { cause: error },
      );
    if (error instanceof VideoTaskError) return error;
    if (error instanceof SyntaxError)
      return new UnexpectedResponseError(
        this.redact(`Failed to ${action}: the answer is not valid JSON (${error.message})`),
        { cause: error, meta: answered === undefined ? undefined : this.meta(answered) },
      );
    return new ConnectionError(
      this.redact(`Failed to ${action}: could not reach ${this.baseUrl} (${describeCause(error)})`),
      error,
    );
  }

  tooLarge(
    operation: Operation,
    action: string,
    what: string,
    limit: number,
    response: Response,
  ): ResponseTooLargeError {
    const text =
      `Failed to ${action}: ${what} is larger than ${limit} bytes, the most ` +
      `this client reads; it was not read further`;
    return new ResponseTooLargeError(this.redact(text), limit, operation, this.meta(response));
  }

  tooDeep(action: string, response: Response): UnexpectedResponseError {
    const text =
      `Failed to ${action}: the answer nests deeper than ${MAX_JSON_DEPTH} levels, ` +
      'which no answer of the service does; it was not read further';
    return new UnexpectedResponseError(this.redact(text), { meta: this.meta(response) });
  }

  /** A submission answered with a redirect: not followed, so the task may or may not exist (§7). */
  redirected(action: string, response: Response): UnexpectedResponseError {
    const to = response.headers.get('location');
    const text =
      `Failed to ${action}: the service answered HTTP ${response.status}, a redirect` +
      `${to === null ? '' : ` to ${to}`}, which a submission never follows (it would be sent ` +
      'again); the task may have been created (§7)';
    return new UnexpectedResponseError(this.redact(text), { meta: this.meta(response) });
  }

  redact(text: string): string {
    return this.#redactor.redact(text);
  }

  #checkedHeaders<T>(build: () => T): T {
    try {
      return build();
    } catch (error) {
      // The caught error's message holds the header values unredacted (an API key: §5).
      // eslint-disable-next-line preserve-caught-error -- its cause would carry the key
      throw new TypeError(this.redact(`Invalid headers: ${(error as Error).message}`));
    }
  }
}

function positive(name: string, value: number, unit: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new RangeError(`${name} must be a positive number of ${unit}, got ${String(value)}`);
  return value;
}
