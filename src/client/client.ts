import type {
  DownloadOptions,
  DownloadResult,
  ModelList,
  RequestOptions,
  SubmitOptions,
  SubmitRequest,
  TaskWrapper,
  VideoTask,
  VideoTaskClientOptions,
} from './client-types.ts';
import { downloadContent } from './download-content.ts';
import { getVideo, getWrapper, listModels } from './query-task.ts';
import type { WithMeta } from './response-meta.ts';
import { submitTask } from './submit-task.ts';
import { Transport } from './transport.ts';

export type * from './client-types.ts';
export { DEFAULT_MAX_DOWNLOAD_BYTES, DEFAULT_MAX_RESPONSE_BYTES } from './client-types.ts';
export type { ResponseMeta, WithMeta } from './response-meta.ts';

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * The calls of `VideoTaskClient`, each resolving to `{ data, meta }`: the usual result and the
 * answer's request ID, rate-limit headers and other headers (`ResponseMeta`).
 */
export interface VideoTaskClientWithResponse {
  submit(body: SubmitRequest, options?: SubmitOptions): Promise<WithMeta<VideoTask>>;
  getVideo(taskId: string, options?: RequestOptions): Promise<WithMeta<VideoTask>>;
  getWrapper(taskId: string, options?: RequestOptions): Promise<WithMeta<TaskWrapper>>;
  listModels(options?: RequestOptions): Promise<WithMeta<ModelList>>;
  downloadContent(taskId: string, options: DownloadOptions): Promise<WithMeta<DownloadResult>>;
}

/**
 * A typed client for the video generation task service, built on `openapi-fetch` over the types
 * generated from `spec/openapi.yaml`. Each method makes exactly one request: retries and polling live
 * elsewhere. Non-2xx answers throw the typed errors of `errors.ts` (`AuthenticationError`,
 * `RateLimitError`, …, each with a `hint` and the answer's `meta`); no HTTP answer throws
 * `ConnectionError`; a request over `requestTimeoutMs` throws `RequestTimeoutError`; a JSON answer
 * over `maxResponseBytes` throws `ResponseTooLargeError`. The API key goes only into the
 * `Authorization` header (§5): errors, `toString()`, `util.inspect()` and `JSON.stringify()` show it
 * masked (`sk-…abcd`). `withResponse()` gives the same calls with the answer's headers.
 *
 * @example
 * const client = new VideoTaskClient({ baseUrl: 'https://video.example.com', apiKey: process.env.VIDEO_API_KEY! });
 * const task = await client.submit({ model: 'video-pro-v1', prompt: 'a red kite over the sea' }, {
 * requestId: crypto.randomUUID() });
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
  readonly maxResponseBytes: number;
  readonly #transport: Transport;
  readonly #withResponse: VideoTaskClientWithResponse;

  constructor(options: VideoTaskClientOptions) {
    const transport = new Transport(options);
    this.#transport = transport;
    this.baseUrl = transport.baseUrl;
    this.requestTimeoutMs = transport.requestTimeoutMs;
    this.maxResponseBytes = transport.maxResponseBytes;
    this.#withResponse = Object.freeze({
      submit: (body, options = {}) => submitTask(transport, body, options),
      getVideo: (taskId, options = {}) => getVideo(transport, taskId, options),
      getWrapper: (taskId, options = {}) => getWrapper(transport, taskId, options),
      listModels: (options = {}) => listModels(transport, options),
      downloadContent: (taskId, options) => downloadContent(transport, taskId, options),
    } satisfies VideoTaskClientWithResponse);
  }

  /**
   * The same calls, resolving to `{ data, meta }`: `meta.requestId` (`X-Oneapi-Request-Id`),
   * `meta.retryAfterMs`, `meta.rateLimit` (`X-RateLimit-*`) and `meta.headers` (lower-cased names).
   *
   * @example
   * const { data: task, meta } = await client.withResponse().submit({ model: 'video-pro-v1', prompt: 'a kite' });
   * console.log(task.id, meta.requestId, meta.headers['x-new-api-other-ratios']);
   */
  withResponse(): VideoTaskClientWithResponse {
    return this.#withResponse;
  }

  /**
   * Submits a task (§4.1): one JSON `POST`, never retried here. HTTP 200 means only that the task was
   * accepted (§1). A timeout, a lost connection or a 200 that is not a task object leaves the outcome
   * unknown: do not blindly resubmit (§7).
   */
  async submit(body: SubmitRequest, options: SubmitOptions = {}): Promise<VideoTask> {
    return (await this.#withResponse.submit(body, options)).data;
  }

  /** The task in OpenAI-compatible form: `GET /v1/videos/{task_id}` (§4.2), "recommended for status". */
  async getVideo(taskId: string, options: RequestOptions = {}): Promise<VideoTask> {
    return (await this.#withResponse.getVideo(taskId, options)).data;
  }

  /** The generic task wrapper: `GET /v1/video/generations/{task_id}` (§4.3, §2.3). */
  async getWrapper(taskId: string, options: RequestOptions = {}): Promise<TaskWrapper> {
    return (await this.#withResponse.getWrapper(taskId, options)).data;
  }

  /** The model catalog: `GET /v1/models` (§4). */
  async listModels(options: RequestOptions = {}): Promise<ModelList> {
    return (await this.#withResponse.listModels(options)).data;
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
   * - A video over `maxBytes` (default 2 GiB; announced or counted) throws `ResponseTooLargeError`.
   */
  async downloadContent(taskId: string, options: DownloadOptions): Promise<DownloadResult> {
    return (await this.#withResponse.downloadContent(taskId, options)).data;
  }

  toString(): string {
    return `VideoTaskClient(${this.baseUrl}, ${this.#transport.maskedKey})`;
  }

  toJSON(): { baseUrl: string; apiKey: string; requestTimeoutMs: number } {
    return {
      baseUrl: this.baseUrl,
      apiKey: this.#transport.maskedKey,
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
}
