import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from '../generated/openapi.ts';
import {
  apiErrorFrom,
  ConnectionError,
  describeBody,
  RequestTimeoutError,
  UnexpectedResponseError,
  VideoTaskError,
  type ApiError,
} from './errors.ts';
import { maskKey, redact } from './mask.ts';
import { writeAtomically } from './atomic-file.ts';
import {
  checkApiKey,
  checkBaseUrl,
  checkTaskId,
  contentLength,
  describeCause,
  idleTimeout,
  isObject,
  type IdleTimeout,
  isPlainObject,
  preview,
  readCapped,
  redactDeep,
  safeJson,
} from './client-support.ts';

/** The submission body (§2.1). */
export type SubmitRequest = components['schemas']['SubmitRequest'];
/** The video task object in OpenAI-compatible form (§2.2). */
export type VideoTask = components['schemas']['VideoTask'];
/** The generic task wrapper `{code, message, data}` (§2.3). */
export type TaskWrapper = components['schemas']['TaskWrapper'];
/** The model catalog (§4; shape not shown, the spec's assumption). */
export type ModelList = components['schemas']['ModelList'];

export interface VideoTaskClientOptions {
  /** The service's base address (`{base_url}`, §1), http or https, without the `/v1` prefix: the paths carry it (§9). */
  readonly baseUrl: string;
  /** Sent only as `Authorization: Bearer <API_KEY>` (§5); never shown anywhere else. */
  readonly apiKey: string;
  /** A fetch implementation. Default: the global `fetch`, looked up at each request (so msw can intercept it). */
  readonly fetch?: typeof fetch | undefined;
  /** Time limit of one request in ms (for a download: of each wait for the service, see `downloadContent`). Default 30 000. */
  readonly requestTimeoutMs?: number | undefined;
  /** Extra headers sent with every request. They cannot replace `Authorization` or the JSON `Content-Type`. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

export interface RequestOptions {
  /** Cancels the request; the promise then rejects with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
  /** Extra headers for this request. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

export interface SubmitOptions extends RequestOptions {
  /**
   * `generations` (default): `POST /v1/video/generations`, "recommended for new integrations" (§4).
   * `videos`: `POST /v1/videos`, the OpenAI-compatible entry the second family uses (§4).
   */
  readonly endpoint?: 'generations' | 'videos' | undefined;
  /** The client's own request ID, sent as `X-Request-Id`: keep it with the task ID (§7, §8). */
  readonly requestId?: string | undefined;
}

export interface DownloadOptions {
  /** A file path (written to a temporary file beside it, then renamed into place) or a stream (ended when done). */
  readonly to: string | NodeJS.WritableStream;
  readonly signal?: AbortSignal | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Called after each chunk with the bytes received so far and the announced size, when the service sent one. */
  readonly onProgress?: ((received: number, total: number | undefined) => void) | undefined;
}

export interface DownloadResult {
  readonly bytes: number;
  /** Hex SHA-256 of the bytes written. */
  readonly sha256: string;
  readonly contentType: string;
  /** The absolute path written, for a file destination. */
  readonly path?: string;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const ENDPOINTS = { generations: '/v1/video/generations', videos: '/v1/videos' } as const;
/** The most of a body that is read to explain an answer that is not a video. */
const EXPLAIN_LIMIT = 16 * 1024;
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

type AnyResult = { data?: unknown; error?: unknown; response: Response };

/**
 * A typed client for the video generation task service, built on `openapi-fetch` over the types
 * generated from `spec/openapi.yaml`. Each method makes exactly one request: retries and polling live
 * elsewhere. Non-2xx answers throw the typed errors of `errors.ts` (`AuthenticationError`,
 * `RateLimitError`, …); no HTTP answer throws `ConnectionError`; a request over `requestTimeoutMs` throws
 * `RequestTimeoutError`. The API key goes only into the `Authorization` header (§5): errors, `toString()`,
 * `util.inspect()` and `JSON.stringify()` show it masked (`sk-…abcd`).
 *
 * @example
 * const client = new VideoTaskClient({ baseUrl: 'https://video.example.com', apiKey: process.env.VIDEO_API_KEY! });
 * const task = await client.submit({ model: 'video-pro-v1', prompt: 'a red kite over the sea' }, { requestId: crypto.randomUUID() });
 * // … poll until completed (§3) …
 * const state = await client.getVideo(task.id);
 * if (state.status === 'completed') {
 *   const { bytes, sha256 } = await client.downloadContent(task.id, { to: './kite.mp4' });
 * }
 */
export class VideoTaskClient {
  /** The base address, without a trailing slash. */
  readonly baseUrl: string;
  readonly requestTimeoutMs: number;
  readonly #apiKey: string;
  readonly #fetch: typeof fetch | undefined;
  readonly #headers: Headers;
  readonly #api: Client<paths>;

  constructor(options: VideoTaskClientOptions) {
    if (options === null || typeof options !== 'object')
      throw new TypeError('VideoTaskClient needs options: { baseUrl, apiKey }');
    this.baseUrl = checkBaseUrl(options.baseUrl);
    this.#apiKey = checkApiKey(options.apiKey);
    const timeout = options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0)
      throw new RangeError(
        `requestTimeoutMs must be a positive number of milliseconds, got ${String(timeout)}`,
      );
    this.requestTimeoutMs = timeout;
    if (options.fetch !== undefined && typeof options.fetch !== 'function')
      throw new TypeError('fetch must be a function');
    this.#fetch = options.fetch;
    try {
      this.#headers = new Headers(options.headers);
    } catch (error) {
      throw new TypeError(this.#redact(`Invalid headers: ${(error as Error).message}`));
    }
    // The global fetch is looked up per request, not captured here: msw (and other interceptors) may patch it later.
    this.#api = createClient<paths>({
      baseUrl: this.baseUrl,
      fetch: (request: Request) => (this.#fetch ?? globalThis.fetch)(request),
    });
  }

  /**
   * Submits a task (§4.1): one JSON `POST`, never retried here. HTTP 200 means only that the task was
   * accepted (§1). A timeout or a lost connection leaves the outcome unknown: do not blindly resubmit (§7).
   */
  async submit(body: SubmitRequest, options: SubmitOptions = {}): Promise<VideoTask> {
    const action = 'submit the task';
    if (body === null || typeof body !== 'object' || Array.isArray(body) || !isPlainObject(body)) {
      throw new TypeError(
        'submit() takes the request as a plain object ({ model, prompt, … }): the service accepts JSON only (§4.1, §5)',
      );
    }
    const endpoint = options.endpoint ?? 'generations';
    const path = ENDPOINTS[endpoint];
    if (path === undefined)
      throw new TypeError(
        `endpoint must be 'generations' or 'videos', got ${JSON.stringify(endpoint)}`,
      );
    const headers = this.#requestHeaders(options.headers, 'application/json');
    if (options.requestId !== undefined) headers.set('x-request-id', options.requestId);
    headers.set('content-type', 'application/json');
    const data = await this.#json(action, options.signal, (signal) =>
      this.#api.POST(path, { body, headers, signal }),
    );
    if (!isObject(data) || typeof data['id'] !== 'string' || data['id'] === '') {
      throw new UnexpectedResponseError(
        this.#redact(
          `Failed to ${action}: the service answered 200 without a task ID (§4.1): ${preview(data)}`,
        ),
      );
    }
    return data as VideoTask;
  }

  /** The task in OpenAI-compatible form: `GET /v1/videos/{task_id}` (§4.2), "recommended for status". */
  async getVideo(taskId: string, options: RequestOptions = {}): Promise<VideoTask> {
    const task_id = checkTaskId(taskId);
    const action = `query ${task_id}`;
    const headers = this.#requestHeaders(options.headers, 'application/json');
    const data = await this.#json(action, options.signal, (signal) =>
      this.#api.GET('/v1/videos/{task_id}', { params: { path: { task_id } }, headers, signal }),
    );
    if (!isObject(data) || typeof data['id'] !== 'string' || typeof data['status'] !== 'string') {
      throw new UnexpectedResponseError(
        this.#redact(
          `Failed to ${action}: the answer is not a task object (§2.2): ${preview(data)}`,
        ),
      );
    }
    return data as VideoTask;
  }

  /** The generic task wrapper: `GET /v1/video/generations/{task_id}` (§4.3, §2.3). */
  async getWrapper(taskId: string, options: RequestOptions = {}): Promise<TaskWrapper> {
    const task_id = checkTaskId(taskId);
    const action = `query ${task_id}`;
    const headers = this.#requestHeaders(options.headers, 'application/json');
    const data = await this.#json(action, options.signal, (signal) =>
      this.#api.GET('/v1/video/generations/{task_id}', {
        params: { path: { task_id } },
        headers,
        signal,
      }),
    );
    if (!isObject(data) || !isObject(data['data'])) {
      throw new UnexpectedResponseError(
        this.#redact(
          `Failed to ${action}: the answer is not a task wrapper {code, message, data} (§2.3): ${preview(data)}`,
        ),
      );
    }
    return data as TaskWrapper;
  }

  /** The model catalog: `GET /v1/models` (§4). */
  async listModels(options: RequestOptions = {}): Promise<ModelList> {
    const action = 'list models';
    const headers = this.#requestHeaders(options.headers, 'application/json');
    const data = await this.#json(action, options.signal, (signal) =>
      this.#api.GET('/v1/models', { headers, signal }),
    );
    if (!isObject(data) || !Array.isArray(data['data'])) {
      throw new UnexpectedResponseError(
        this.#redact(`Failed to ${action}: the answer has no data list: ${preview(data)}`),
      );
    }
    return data as ModelList;
  }

  /**
   * Downloads the finished video: `GET /v1/videos/{task_id}/content` (§4.4), following redirects. The
   * body is streamed through a SHA-256 and a byte counter into the destination, never held whole.
   *
   * - Before completion, and for a missing or foreign task, the service answers a JSON error (§3 rule 2,
   *   §4.4, §5): it throws the typed `ApiError` and writes nothing. A 200 that is JSON throws
   *   `UnexpectedResponseError` (§4.4: "a binary video stream, not JSON").
   * - A file path is written as `.<name>.<random>.part` in the same directory, flushed (fsync) and renamed
   *   onto the target; on any failure or abort the temporary file is removed and the target is untouched.
   * - A stream destination is ended when the download completes (and destroyed if it fails).
   * - `requestTimeoutMs` limits each wait for the service (the answer, then every chunk), not the whole
   *   transfer: a large video on a slow line is fine as long as bytes keep coming.
   */
  async downloadContent(taskId: string, options: DownloadOptions): Promise<DownloadResult> {
    const task_id = checkTaskId(taskId);
    if (
      options === null ||
      typeof options !== 'object' ||
      options.to === undefined ||
      options.to === null
    ) {
      throw new TypeError('downloadContent() needs { to }: a file path or a writable stream');
    }
    const { to, onProgress } = options;
    if (typeof to !== 'string' && typeof (to as { write?: unknown }).write !== 'function')
      throw new TypeError('`to` must be a file path or a writable stream');
    if (typeof to === 'string' && to === '') throw new TypeError('`to` must not be an empty path');
    const action = `download the video of ${task_id}`;
    const idle = idleTimeout(this.requestTimeoutMs);
    const signal =
      options.signal === undefined ? idle.signal : AbortSignal.any([options.signal, idle.signal]);
    try {
      const headers = this.#requestHeaders(options.headers, undefined);
      let result: AnyResult;
      try {
        result = await this.#api.GET('/v1/videos/{task_id}/content', {
          params: { path: { task_id } },
          headers,
          signal,
          parseAs: 'stream',
        });
      } catch (error) {
        throw this.#transportError(action, error, idle.signal, options.signal);
      }
      const { response } = result;
      if (!response.ok)
        throw this.#apiError(action, response.status, result.error, response.headers);
      const body = result.data as ReadableStream<Uint8Array> | null | undefined;
      const contentType = response.headers.get('content-type') ?? '';
      if (response.status !== 200 || body === null || body === undefined) {
        body?.cancel().catch(() => undefined);
        throw new UnexpectedResponseError(
          this.#redact(
            `Failed to ${action}: the service answered ${response.status}${body ? '' : ' with no body'} instead of the video (§4.4)`,
          ),
        );
      }
      if (/^\s*(application\/([\w.-]+\+)?json|text\/html)\b/i.test(contentType)) {
        const text = await readCapped(body, EXPLAIN_LIMIT).catch(() => '');
        const { message } = describeBody(safeJson(text));
        throw new UnexpectedResponseError(
          this.#redact(
            `Failed to ${action}: the service answered 200 with ${contentType.split(';')[0]} instead of a video stream (§4.4)${message ? `: ${message}` : ''}`,
          ),
        );
      }
      const total =
        response.headers.has('content-encoding') &&
        !/^\s*identity\s*$/i.test(response.headers.get('content-encoding') ?? '')
          ? undefined
          : contentLength(response.headers.get('content-length'));
      const meter = { bytes: 0, hash: createHash('sha256') };
      const chunks = this.#meteredChunks(
        action,
        body,
        meter,
        total,
        idle,
        options.signal,
        onProgress,
      );
      const checkComplete = (): void => {
        if (total !== undefined && meter.bytes !== total)
          throw new UnexpectedResponseError(
            this.#redact(
              `Failed to ${action}: received ${meter.bytes} of the ${total} bytes announced`,
            ),
          );
      };
      const summary = (): DownloadResult => ({
        bytes: meter.bytes,
        sha256: meter.hash.digest('hex'),
        contentType: contentType || 'application/octet-stream',
      });
      try {
        if (typeof to === 'string') {
          const target = resolve(to);
          // Checked before the rename: a short body never replaces the target.
          await writeAtomically(target, chunks, checkComplete);
          return { ...summary(), path: target };
        }
        await pipeline(chunks, to, { signal });
      } catch (error) {
        // If the destination failed before the first chunk was read, release the connection (a no-op otherwise).
        body.cancel().catch(() => undefined);
        throw this.#streamError(action, error, idle.signal, options.signal);
      }
      checkComplete();
      return summary();
    } finally {
      idle.clear();
    }
  }

  toString(): string {
    return `VideoTaskClient(${this.baseUrl}, ${maskKey(this.#apiKey)})`;
  }

  toJSON(): { baseUrl: string; apiKey: string; requestTimeoutMs: number } {
    return {
      baseUrl: this.baseUrl,
      apiKey: maskKey(this.#apiKey),
      requestTimeoutMs: this.requestTimeoutMs,
    };
  }

  [INSPECT](
    _depth: number,
    options: object,
    inspect: (value: unknown, options?: object) => string,
  ): string {
    return `VideoTaskClient ${inspect(this.toJSON(), options)}`;
  }

  /** Headers for one request: the client's, the call's, then the ones this client owns. */
  #requestHeaders(
    extra: Readonly<Record<string, string>> | undefined,
    accept: string | undefined,
  ): Headers {
    const headers = new Headers(this.#headers);
    try {
      for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value);
    } catch (error) {
      throw new TypeError(this.#redact(`Invalid headers: ${(error as Error).message}`));
    }
    if (accept !== undefined && !headers.has('accept')) headers.set('accept', accept);
    headers.set('authorization', `Bearer ${this.#apiKey}`);
    return headers;
  }

  /** Runs one JSON request with the time limit and maps every way it can fail to a typed error. */
  async #json(
    action: string,
    callerSignal: AbortSignal | undefined,
    run: (signal: AbortSignal) => Promise<AnyResult>,
  ): Promise<unknown> {
    const timeout = AbortSignal.timeout(this.requestTimeoutMs);
    const signal = callerSignal === undefined ? timeout : AbortSignal.any([callerSignal, timeout]);
    let result: AnyResult;
    try {
      result = await run(signal);
    } catch (error) {
      throw this.#transportError(action, error, timeout, callerSignal);
    }
    const { response } = result;
    if (!response.ok) throw this.#apiError(action, response.status, result.error, response.headers);
    if (result.data === undefined)
      throw new UnexpectedResponseError(
        this.#redact(
          `Failed to ${action}: the service answered ${response.status} with an empty body`,
        ),
      );
    return result.data;
  }

  #apiError(action: string, status: number, body: unknown, headers: Headers): ApiError {
    const error = apiErrorFrom(action, status, redactDeep(body, [this.#apiKey]), headers);
    const message = this.#redact(error.message);
    if (message !== error.message) {
      error.message = message;
      if (error.stack !== undefined) error.stack = this.#redact(error.stack);
    }
    return error;
  }

  /** A request that produced no HTTP answer: the caller's abort, the time limit, a bad body, or the network. */
  #transportError(
    action: string,
    error: unknown,
    timeout: AbortSignal,
    callerSignal: AbortSignal | undefined,
  ): unknown {
    if (callerSignal?.aborted) return callerSignal.reason;
    if (timeout.aborted)
      return new RequestTimeoutError(
        this.#redact(
          `Failed to ${action}: no answer from ${this.baseUrl} within ${this.requestTimeoutMs} ms`,
        ),
        { cause: error },
      );
    if (error instanceof VideoTaskError) return error;
    if (error instanceof SyntaxError)
      return new UnexpectedResponseError(
        this.#redact(`Failed to ${action}: the answer is not valid JSON (${error.message})`),
        { cause: error },
      );
    return new ConnectionError(
      this.#redact(
        `Failed to ${action}: could not reach ${this.baseUrl} (${describeCause(error)})`,
      ),
      error,
    );
  }

  /** An error while moving the bytes: the caller's abort, a stall, the source's (already typed) or the destination's own. */
  #streamError(
    action: string,
    error: unknown,
    idle: AbortSignal,
    callerSignal: AbortSignal | undefined,
  ): unknown {
    if (callerSignal?.aborted) return callerSignal.reason;
    if (idle.aborted)
      return error instanceof RequestTimeoutError ? error : this.#stalled(action, error);
    return error;
  }

  #stalled(action: string, cause: unknown): RequestTimeoutError {
    return new RequestTimeoutError(
      this.#redact(
        `Failed to ${action}: no data from ${this.baseUrl} for ${this.requestTimeoutMs} ms`,
      ),
      { cause },
    );
  }

  /** The body's chunks, hashed and counted as they pass; errors of the source come out typed. */
  async *#meteredChunks(
    action: string,
    body: ReadableStream<Uint8Array>,
    meter: { bytes: number; hash: ReturnType<typeof createHash> },
    total: number | undefined,
    idle: IdleTimeout,
    callerSignal: AbortSignal | undefined,
    onProgress: DownloadOptions['onProgress'],
  ): AsyncGenerator<Uint8Array, void, undefined> {
    const reader = body.getReader();
    let done = false;
    try {
      for (;;) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch (error) {
          if (callerSignal?.aborted) throw callerSignal.reason;
          if (idle.signal.aborted) throw this.#stalled(action, error);
          throw new ConnectionError(
            this.#redact(
              `Failed to ${action}: the connection broke after ${meter.bytes}${total === undefined ? '' : ` of ${total}`} bytes (${describeCause(error)})`,
            ),
            error,
          );
        }
        if (next.done) {
          done = true;
          return;
        }
        const chunk = next.value;
        idle.reset();
        meter.hash.update(chunk);
        meter.bytes += chunk.byteLength;
        onProgress?.(meter.bytes, total);
        yield chunk;
      }
    } finally {
      // Not awaited: cancelling releases the connection, and some bodies (msw's) never settle the promise.
      if (!done) reader.cancel().catch(() => undefined);
    }
  }

  #redact(text: string): string {
    return redact(text, [this.#apiKey]);
  }
}
