/**
 * The typed client of the video generation task service, environment-neutral (no `node:` import, no
 * spec loaded at run time): the client, its errors, the §8 polling loop, the §7 submission rules and
 * the journal's interface (`FileJournal` and `resumeJournal` are in `videotask/node`). `videotask`'s
 * root export.
 */
export { VideoTaskClient, type VideoTaskClientWithResponse } from './client.ts';
export type {
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
  VideoStatus,
  VideoTask,
  VideoTaskClientOptions,
} from './client-types.ts';
export type { ResponseMeta, WithMeta } from './response-meta.ts';
export {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  JournalError,
  NotFoundError,
  PermissionDeniedError,
  PollTimeoutError,
  RateLimitError,
  RequestTimeoutError,
  ResponseTooLargeError,
  ServerError,
  SubmissionUnconfirmedError,
  UnexpectedResponseError,
  UnsupportedRequestError,
  VideoTaskError,
  type ApiErrorOptions,
  type Operation,
} from './errors.ts';
export {
  pollTask,
  type GetTask,
  type PollOptions,
  type PollResult,
  type PollSchedule,
} from './poller.ts';
export {
  retryHeaders,
  submitWithRetry,
  type RetryInfo,
  type Submit,
  type SubmitRetryOptions,
} from './retry.ts';
export type {
  JournalEntry,
  JournalRecord,
  JournalState,
  RecordState,
  StoredEntry,
  TaskJournal,
} from './journal.ts';
