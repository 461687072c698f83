import type { components } from '../generated/openapi.ts';

/** The submission body (§2.1). */
export type SubmitRequest = components['schemas']['SubmitRequest'];
/** The video task object in OpenAI-compatible form (§2.2). */
export type VideoTask = components['schemas']['VideoTask'];
/** The generic task wrapper `{code, message, data}` (§2.3). */
export type TaskWrapper = components['schemas']['TaskWrapper'];
/** The model catalog (§4; shape not shown, the spec's assumption). */
export type ModelList = components['schemas']['ModelList'];

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
   * Time limit of one request in ms (for a download: of each wait for the service, see
   * `downloadContent`). Default 30 000.
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
  /** The largest video accepted, in bytes: past it the download stops with `ResponseTooLargeError`. Default 2 GiB. */
  readonly maxBytes?: number | undefined;
}

export interface DownloadResult {
  readonly bytes: number;
  /** Hex SHA-256 of the bytes written. */
  readonly sha256: string;
  readonly contentType: string;
  /** The absolute path written, for a file destination. */
  readonly path?: string;
}
