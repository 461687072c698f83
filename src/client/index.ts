/**
 * The typed client of the video generation task service and its errors.
 */
export {
  VideoTaskClient,
  DEFAULT_MAX_DOWNLOAD_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
  type DownloadOptions,
  type DownloadResult,
  type ModelList,
  type RequestOptions,
  type ResponseMeta,
  type SubmitOptions,
  type SubmitRequest,
  type TaskWrapper,
  type VideoTaskClientOptions,
  type VideoTaskClientWithResponse,
  type WithMeta,
} from './client.ts';
export * from './errors.ts';
export { errorHint, HINTS, type HintRow } from './error-hints.ts';
export { maskKey, Redactor } from '../redaction/redactor.ts';
export { printable } from './printable.ts';
export { catalogModelIds } from './catalog-ids.ts';
export {
  pollTask,
  pollInterval,
  type GetTask,
  type PollOptions,
  type PollResult,
} from './poller.ts';
export { submitWithRetry, type SubmitRetryOptions, type RetryInfo } from './retry.ts';
export {
  FileJournal,
  MAX_JOURNAL_BYTES,
  type TaskJournal,
  type JournalEntry,
  type JournalRecord,
  type JournalState,
} from './journal.ts';
export { resumeJournal, type ResumeSummary, type ResumeResult } from './resume.ts';
