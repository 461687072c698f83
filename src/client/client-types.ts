import type { components } from '../generated/openapi.ts';

/** The submission body (§2.1). */
export type SubmitRequest = components['schemas']['SubmitRequest'];
/** The video task object in OpenAI-compatible form (§2.2). */
export type VideoTask = components['schemas']['VideoTask'];
/** A task's status (§3). */
export type VideoStatus = components['schemas']['VideoStatus'];
/** The generic task wrapper `{code, message, data}` (§2.3). */
export type TaskWrapper = components['schemas']['TaskWrapper'];
/** The model catalog (§4; shape not shown, the spec's assumption). */
export type ModelList = components['schemas']['ModelList'];
/** The native submit body of the second family's task plugin (§4.5; the upstream's shape, assumed). */
export type PluginSubmitRequest = components['schemas']['PluginSubmitRequest'];
/** The native path's answer to a submission: the public task ID (§1, §4.5; assumed). */
export type PluginSubmitted = components['schemas']['PluginSubmitted'];
/** A task on the native path, in the upstream's shape and status values (§4.5; assumed). */
export type PluginTask = components['schemas']['PluginTask'];

/** 4 MiB: far above any task object, wrapper or catalog, far below what would hurt the process. */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** 2 GiB: above any video the service is known to produce. */
export const DEFAULT_MAX_DOWNLOAD_BYTES = 2 * 1024 * 1024 * 1024;

export interface VideoTaskClientOptions {
  /**
   * The service's base address (`{base_url}`, §1), http or https, without the `/v1` prefix: the
   * paths carry it (§9).
   */
  readonly baseUrl: string;
  /** Sent only as `Authorization: Bearer <API_KEY>` (§5); never shown anywhere else. */
  readonly apiKey: string;
  /** A fetch implementation. Default: the global `fetch`, looked up at each request (so msw can intercept it). */
  readonly fetch?: typeof fetch | undefined;
  /**
   * Time limit of one request in ms (for a video: of each wait for the service, see `content`).
   * Default 30 000.
   */
  readonly requestTimeoutMs?: number | undefined;
  /**
   * The most bytes read of a JSON answer (task, wrapper, catalog). A larger one throws
   * `ResponseTooLargeError`; an error answer is read only this far (at most 64 KiB). Default 4 MiB.
   */
  readonly maxResponseBytes?: number | undefined;
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
  /**
   * The client's own request ID, sent as `X-Request-Id`: keep it with the task ID (§7, §8). Not the
   * service's ID of its answer (`meta.serviceRequestId`).
   */
  readonly clientRequestId?: string | undefined;
}

/** Options of a native-path submission (`submitPluginTask`, §4.5): its path is the plugin's. */
export type PluginSubmitOptions = Omit<SubmitOptions, 'endpoint'>;

export interface ContentOptions extends RequestOptions {
  /**
   * The largest video accepted, in bytes: an announced size over it is refused before any byte is
   * read, and the stream errors with `ResponseTooLargeError` before passing it. Default 2 GiB.
   */
  readonly maxBytes?: number | undefined;
  /** Called as each chunk is read, with the bytes so far and the announced size (when one was sent). */
  readonly onProgress?: ((received: number, total: number | undefined) => void) | undefined;
}

/** A finished task's video as the service sends it (§4.4), not yet read. */
export interface VideoContent {
  /**
   * The video's bytes, read from the service only as fast as they are consumed. Read it to its end,
   * or cancel it to release the connection. It errors with the client's typed errors.
   */
  readonly body: ReadableStream<Uint8Array>;
  readonly contentType: string;
  /** The announced size in bytes, when the service sent one (and no content coding changes it). */
  readonly size: number | undefined;
}
