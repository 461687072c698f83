import type {
  ContentOptions,
  ModelList,
  PluginSubmitOptions,
  PluginSubmitRequest,
  PluginSubmitted,
  PluginTask,
  RequestOptions,
  SubmitOptions,
  SubmitRequest,
  TaskWrapper,
  VideoContent,
  VideoTask,
  VideoTaskClientOptions,
} from './client-types.ts';
import { pollTask, type PollOptions, type PollResult } from './poller.ts';
import { retryHeaders } from './retry.ts';
import { getPluginTask, getVideo, getWrapper, listModels } from './query-task.ts';
import type { WithMeta } from './response-meta.ts';
import { submitPluginTask, submitTask } from './submit-task.ts';
import { Transport } from './transport.ts';
import { videoContent } from './video-content.ts';

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * The calls of `VideoTaskClient` that make one request, each resolving to `{ data, meta }`: the usual
 * result and the answer's request ID, rate-limit headers and other headers (`ResponseMeta`).
 */
export interface VideoTaskClientWithResponse {
  submit(body: SubmitRequest, options?: SubmitOptions): Promise<WithMeta<VideoTask>>;
  getVideo(taskId: string, options?: RequestOptions): Promise<WithMeta<VideoTask>>;
  getWrapper(taskId: string, options?: RequestOptions): Promise<WithMeta<TaskWrapper>>;
  listModels(options?: RequestOptions): Promise<WithMeta<ModelList>>;
  content(taskId: string, options?: ContentOptions): Promise<WithMeta<VideoContent>>;
  submitPluginTask(
    pluginName: string,
    body: PluginSubmitRequest,
    options?: PluginSubmitOptions,
  ): Promise<WithMeta<PluginSubmitted>>;
  getPluginTask(
    pluginName: string,
    taskId: string,
    options?: RequestOptions,
  ): Promise<WithMeta<PluginTask>>;
}

/**
 * A typed client for the video generation task service, its requests typed by the paths generated
 * from `spec/openapi.yaml` (openapi-fetch's way, `api-request.ts`). It runs in a browser as in Node
 * (the download into a file and the journal file are in `videotask/node`). Each call makes exactly
 * one request, except `poll`, the §8 loop. Non-2xx answers throw the typed errors of `errors.ts`
 * (`AuthenticationError`, `RateLimitError`, …, each with a `hint` and the answer's `meta`); no HTTP
 * answer throws `ConnectionError`; a request over `requestTimeoutMs` throws `RequestTimeoutError`; a
 * JSON answer over `maxResponseBytes` throws `ResponseTooLargeError`. The API key goes only into the
 * `Authorization` header (§5): errors, `toString()`, `util.inspect()` and `JSON.stringify()` show it
 * masked (`sk-…abcd`). `withResponse()` gives the same calls with the answer's headers.
 *
 * @example
 * const client = new VideoTaskClient({ baseUrl: 'https://video.example.com', apiKey });
 * const clientRequestId = crypto.randomUUID(); // keep it in your records first (§7)
 * const task = await client.submit({ model: 'video-pro-v1', prompt: 'a red kite' }, { clientRequestId });
 * const { task: done } = await client.poll(task.id);
 * if (done.status === 'completed') {
 *   const video = await client.content(done.id);
 *   const blob = await new Response(video.body).blob();
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
      content: (taskId, options = {}) => videoContent(transport, taskId, options),
      submitPluginTask: (pluginName, body, options = {}) =>
        submitPluginTask(transport, pluginName, body, options),
      getPluginTask: (pluginName, taskId, options = {}) =>
        getPluginTask(transport, pluginName, taskId, options),
    } satisfies VideoTaskClientWithResponse);
  }

  /**
   * The same calls, resolving to `{ data, meta }`: `meta.serviceRequestId` (`X-Oneapi-Request-Id`),
   * `meta.retryAfterMs`, `meta.rateLimit` (`X-RateLimit-*`) and `meta.headers` (lower-cased names).
   *
   * @example
   * const { data: task, meta } = await client.withResponse().submit({ model: 'video-pro-v1', prompt: 'a kite' });
   * console.log(task.id, meta.serviceRequestId, meta.headers['x-new-api-other-ratios']);
   */
  withResponse(): VideoTaskClientWithResponse {
    return this.#withResponse;
  }

  /**
   * Submits a task (§4.1): one JSON `POST`, never retried here. HTTP 200 means only that the task was
   * accepted (§1). A timeout, a lost connection or a 200 that is not a task object leaves the outcome
   * unknown: do not blindly resubmit (§7; `submitWithRetry` applies the rules).
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
   * Polls a task with `getVideo` until it is `completed` or `failed` (§3), with the §8 loop
   * (`pollTask`: 5 s growing ×1.5 to 30 s, at most 60 queries, a total timeout, `unknown` slowing
   * it down). Resolves with the task, a failed one included: a failed task is data, not an error.
   *
   * @example
   * const { task, attempts } = await client.poll('task_abc', { timeoutMs: 10 * 60_000, signal });
   * if (task.status === 'failed') console.error(task.error?.code);
   */
  poll(taskId: string, options: PollOptions = {}): Promise<PollResult> {
    return pollTask(
      (id, signal, retry) => this.getVideo(id, { signal, headers: retryHeaders(retry === true) }),
      taskId,
      options,
    );
  }

  /**
   * The finished video: `GET /v1/videos/{task_id}/content` (§4.4), following redirects, as a stream
   * read from the service only as fast as it is consumed (never held whole).
   *
   * - Before completion, and for a missing or foreign task, the service answers a JSON error (§3 rule
   *   2, §4.4, §5): it throws the typed `ApiError`. A 200 that is JSON throws
   *   `UnexpectedResponseError` (§4.4: "a binary video stream, not JSON").
   * - `requestTimeoutMs` limits each wait for the service (the answer, then every chunk), not the
   *   whole transfer: a large video on a slow line is fine as long as bytes keep coming.
   * - A video over `maxBytes` (default 2 GiB; announced or counted) throws `ResponseTooLargeError`.
   * - In Node, `downloadContent` of `videotask/node` writes it to a file atomically, with its SHA-256.
   *
   * @example
   * const video = await client.content(task.id);
   * videoElement.src = URL.createObjectURL(await new Response(video.body).blob());
   */
  async content(taskId: string, options: ContentOptions = {}): Promise<VideoContent> {
    return (await this.#withResponse.content(taskId, options)).data;
  }

  /**
   * Submits on the native path a task plugin declares (§4.5, the second family):
   * `POST /{pluginName}/api/v3/contents/generations/tasks` with the upstream's own body, never mixed
   * with the OpenAI form. The same rules as `submit` (§7): never retried here.
   */
  async submitPluginTask(
    pluginName: string,
    body: PluginSubmitRequest,
    options: PluginSubmitOptions = {},
  ): Promise<PluginSubmitted> {
    return (await this.#withResponse.submitPluginTask(pluginName, body, options)).data;
  }

  /**
   * A task on the native path of a task plugin (§4.5):
   * `GET /{pluginName}/api/v3/contents/generations/tasks/{task_id}`, in the upstream's own shape and
   * status values (`x-lifecycle.pluginMapping` maps them; an assumption, not shown in the document).
   */
  async getPluginTask(
    pluginName: string,
    taskId: string,
    options: RequestOptions = {},
  ): Promise<PluginTask> {
    return (await this.#withResponse.getPluginTask(pluginName, taskId, options)).data;
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
