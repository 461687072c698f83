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
  type VideoTaskClientOptions,
} from './client.ts';
export * from './errors.ts';
export { maskKey, redact } from './mask.ts';
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
  type TaskJournal,
  type JournalEntry,
  type JournalRecord,
  type JournalState,
} from './journal.ts';
export { resumeJournal, type ResumeSummary, type ResumeResult } from './resume.ts';
