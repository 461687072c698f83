/**
 * The typed client of the video generation task service and its errors.
 */
export {
  VideoTaskClient,
  type DownloadOptions,
  type DownloadResult,
  type ModelList,
  type RequestOptions,
  type SubmitOptions,
  type SubmitRequest,
  type TaskWrapper,
  type VideoTask,
  type VideoTaskClientOptions,
} from './client.ts';
export * from './errors.ts';
export { maskKey, redact } from './mask.ts';
