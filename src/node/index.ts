/**
 * `videotask/node`: the parts of the client that need Node: the task journal in a file and its
 * resumption after a restart, and the video downloaded into a file or a Node stream. The client itself
 * (`videotask`) runs anywhere.
 */
export { FileJournal, MAX_JOURNAL_BYTES, type FileJournalOptions } from './file-journal.ts';
export {
  resumeJournal,
  type ManualCheck,
  type ResumeOptions,
  type ResumePollOptions,
  type ResumeResult,
  type ResumeSummary,
} from './resume.ts';
export { downloadContent, type DownloadOptions, type DownloadResult } from './download-content.ts';
export { DEFAULT_MAX_DOWNLOAD_BYTES } from '../client/client-types.ts';
