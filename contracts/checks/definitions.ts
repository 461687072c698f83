import { basisOf, serviceSpec } from '../../src/spec/index.ts';
import type { CheckDefinition } from '../verdicts.ts';

/** The basis a schema's own marking gives a shape check (the spec's data; no validator is built). */
const schemaBasis = (name: string) => basisOf(serviceSpec.components!.schemas![name]);

/**
 * Every check the suite can report, one table: each names the rule of `x-lifecycle.rules` it judges
 * (and so its section and basis) or, for a shape check, the schema whose marking gives the basis. By
 * area: the catalog, access, refusals and input, submission, the task's answers (the OpenAI form
 * §2.2, the wrapper §2.3, poll sequences), content, the native path, rate limits, the suite itself.
 */
export const CHECKS = {
  catalogListsModel: {
    id: 'catalog.lists-model',
    title: '/v1/models answers and lists the target model',
    rule: 'catalog-lists-model',
  },
  catalogShape: {
    id: 'catalog.shape',
    title: "the catalog has the gateway's shape",
    basis: schemaBasis('ModelList'),
  },

  authRequired: {
    id: 'auth.required',
    title: 'a missing or invalid key gets a 4xx on every route, for every task state',
    rule: 'auth-required',
  },

  unknownTaskError: {
    id: 'unknown-task.error',
    title: 'an unknown task ID gets an error on every route that names a task',
    rule: 'unknown-task-error',
  },
  errorJson: {
    id: 'errors.json',
    title: 'every refusal outside the content route is a JSON error',
    rule: 'error-envelope',
  },
  errorEnvelope: {
    id: 'errors.envelope',
    title: "error bodies have one of the gateway's envelopes",
    rule: 'error-envelope',
  },
  errorStatusCode: {
    id: 'errors.status-code',
    title: 'errors use the status codes the gateway uses (400/401/403/404…)',
    rule: 'error-status-code',
  },

  emptyPrompt: {
    id: 'input.empty-prompt',
    title:
      'an empty or blank prompt is rejected with a 4xx on both submit paths and creates no task',
    rule: 'empty-prompt-invalid',
  },

  requiredFields: {
    id: 'input.required-fields',
    title:
      'a submission missing model or prompt, or giving one of another type, is refused with a 4xx on both submit paths',
    rule: 'required-fields',
  },

  modelPermissions: {
    id: 'auth.model-permissions',
    title:
      'a submission of a model the key may not use (--forbidden-model) is refused with a 4xx ' +
      'on both submit paths and creates no task',
    rule: 'model-permissions',
  },

  fileUpload: {
    id: 'input.no-file-upload',
    title:
      'a multipart submission uploading a file (a second-family reference) is refused with a 4xx and creates no task',
    rule: 'multipart-upload-refused',
  },

  submissionShape: {
    id: 'submission.shape',
    title: 'the submission answer validates against §2.2/§4.1',
    basis: { documented: true, source: '§4.1' },
  },
  submissionShapeAssumed: {
    id: 'submission.shape-assumed',
    title: "the submission answer satisfies the spec's assumptions too",
    basis: { documented: false },
  },
  submissionPresence: {
    id: 'submission.presence',
    title: 'the submission answer has id, task_id, object, model, status, progress, created_at',
    rule: 'presence-on-submission',
  },
  submissionQueued: {
    id: 'submission.status-queued',
    title: 'the submission answer says queued',
    rule: 'submission-status-queued',
  },
  submissionAtOnce: {
    id: 'submission.at-once',
    title: 'the submission answers at once (within 10 s)',
    rule: 'submission-answers-at-once',
  },
  submissionStatus200: {
    id: 'submission.status-200',
    title: 'an accepted submission is answered HTTP 200, not another 2xx (§4.1 "Response 200")',
    rule: 'submission-status-200',
  },
  submissionPaths: {
    id: 'submission.both-paths',
    title: 'both submit paths accept a task (§4.1)',
    basis: { documented: true, source: '§4.1' },
  },

  // The task's answers: the OpenAI form (§2.2), the wrapper (§2.3), poll sequences.
  taskIdEqualsId: {
    id: 'task.task-id-equals-id',
    title: 'task_id equals id',
    rule: 'task-id-equals-id',
  },
  objectIsVideo: {
    id: 'task.object-is-video',
    title: 'object is "video"',
    rule: 'object-is-video',
  },
  modelEchoed: {
    id: 'task.model-echoed',
    title: 'model is the one requested',
    rule: 'model-echoed',
  },
  statusDocumented: {
    id: 'task.status-documented',
    title: 'status is one of the five documented states',
    rule: 'status-documented',
  },
  progressRange: {
    id: 'task.progress-range',
    title: 'progress is an integer 0–100',
    rule: 'progress-range',
  },
  presenceAlways: {
    id: 'task.presence-always',
    title: 'id, object, model, status, progress are always present',
    rule: 'presence-always',
  },
  presenceCompleted: {
    id: 'task.presence-completed',
    title: 'a completed task has task_id, created_at, completed_at, metadata.url',
    rule: 'presence-when-completed',
  },
  presenceFailed: {
    id: 'task.presence-failed',
    title: 'a failed task has error.code and error.message',
    rule: 'presence-when-failed',
  },
  taskShape: {
    id: 'task.shape',
    title: 'the OpenAI form validates against §2.2',
    basis: schemaBasis('VideoTask'),
  },
  taskShapeAssumed: {
    id: 'task.shape-assumed',
    title: "the OpenAI form satisfies the spec's assumptions too",
    basis: { documented: false },
  },
  publicIdOnly: {
    id: 'task.public-id-only',
    title: 'the task answers with its public ID, and that ID queries it on every route',
    rule: 'public-id-only',
  },
  noOtherIdentifier: {
    id: 'body.no-other-identifier',
    title: 'no task identifier other than the public ID at any depth of any task answer',
    rule: 'public-id-only',
  },
  resultAddress: {
    id: 'body.result-address',
    title:
      'metadata.url is an absolute http(s) URL when present and not empty, and not empty once completed',
    rule: 'result-url-address',
  },
  unixTimestamps: {
    id: 'task.unix-timestamps',
    title:
      "created_at and completed_at are Unix seconds, near the answer's Date (not milliseconds)",
    rule: 'unix-timestamps',
  },
  wrapperUnixTimestamps: {
    id: 'wrapper.unix-timestamps',
    title: "data.created_at and data.updated_at are Unix seconds, near the answer's Date",
    rule: 'wrapper-unix-timestamps',
  },
  wrapperResultAddress: {
    id: 'wrapper.result-address',
    title:
      'data.result_url is an absolute http(s) URL when present and not empty, and not empty once completed',
    rule: 'wrapper-result-url-address',
  },

  wrapperShape: {
    id: 'wrapper.shape',
    title: 'the wrapper validates against §2.3',
    basis: schemaBasis('TaskWrapper'),
  },
  wrapperShapeAssumed: {
    id: 'wrapper.shape-assumed',
    title: "the wrapper satisfies the spec's assumptions too (fields the gateway always sends)",
    basis: { documented: false },
  },
  wrapperSuccess: {
    id: 'wrapper.success-code',
    title: 'the wrapper says code "success" and message ""',
    rule: 'wrapper-success-code',
  },
  wrapperProgress: {
    id: 'wrapper.progress-format',
    title: 'the wrapper progress reads "<n>%"',
    rule: 'wrapper-progress-format',
  },
  wrapperFailure: {
    id: 'wrapper.failure-status',
    title: 'a failed task shows FAILURE with a fail_reason',
    rule: 'wrapper-failure-status',
  },
  formsAgree: {
    id: 'forms.agree',
    title: 'both query forms tell the same story (status mapping, progress, result URL)',
    rule: 'forms-agree',
  },

  legalTransition: {
    id: 'sequence.legal-transition',
    title: 'successive polls follow the transition table',
    rule: 'legal-transition',
  },
  terminalStays: {
    id: 'sequence.terminal-stays',
    title: 'a completed or failed task stays so',
    rule: 'terminal-stays-terminal',
  },
  progressMonotonic: {
    id: 'sequence.progress-monotonic',
    title: 'progress never decreases',
    rule: 'progress-monotonic',
  },
  progressComplete: {
    id: 'sequence.progress-complete',
    title: 'a completed task reports progress 100',
    rule: 'progress-complete',
  },
  timestampsOrdered: {
    id: 'sequence.timestamps-ordered',
    title: 'created_at ≤ completed_at; created_at ≤ updated_at',
    rule: 'timestamps-ordered',
  },
  reachesEnd: {
    id: 'sequence.reaches-end',
    title: 'the task reaches completed or failed within the polling budget (§8)',
    basis: { documented: false },
  },

  contentBeforeCompletion: {
    id: 'content.before-completion',
    title: 'content is refused in every state before completion, and for a failed task',
    rule: 'content-after-completion',
  },
  contentJsonErrors: {
    id: 'content.json-errors',
    title:
      'content errors are JSON in every cell that refuses (unfinished, failed, missing, foreign, keyless)',
    rule: 'content-json-errors',
  },
  contentBinary: {
    id: 'content.binary',
    title: 'a completed task downloads as a binary video (container signature), redirects followed',
    rule: 'content-binary',
  },
  contentLength: {
    id: 'content.length-matches',
    title: 'Content-Length equals the bytes received, on every download',
    rule: 'content-length-matches',
  },
  contentRange: {
    id: 'content.range-reassembles',
    title: 'when Range is honoured (206), two parts reassemble to the whole download',
    rule: 'content-range-reassembles',
  },
  contentHead: {
    id: 'content.head-agrees',
    title: 'a HEAD of the content, when answered, announces the length and type of the GET',
    rule: 'content-head-agrees',
  },

  ownerStatus: {
    id: 'owner.status',
    title: "another user's key cannot read the task's status on any query route, in any state",
    rule: 'owner-only',
  },
  nativeAccepts: {
    id: 'native.accepts',
    title:
      "the native path accepts a task in the upstream's shape (§4.5: its request shape is not shown; " +
      '§4.1 covers the two OpenAI submission routes only)',
    basis: { documented: false },
  },
  nativeQuery: {
    id: 'native.owner-query',
    title: "the native path's GET answers the owner's task (not in the document's endpoint table)",
    basis: { documented: false },
  },
  nativeMixed: {
    id: 'native.formats-not-mixed',
    title: "a native-path submission mixing in the OpenAI form's fields is refused with a 4xx",
    rule: 'native-formats-not-mixed',
  },
  nativeShape: {
    id: 'native.shape',
    title: "the native path answers in the upstream's shapes (PluginSubmitted, PluginTask)",
    rule: 'native-shape',
  },
  nativeStatus: {
    id: 'native.status-mapping',
    title: "the native status is a native value that maps to the task's state (pluginMapping)",
    rule: 'native-status-mapping',
  },

  rateLimitRetryAfter: {
    id: 'rate-limit.retry-after',
    title: 'a 429 carries Retry-After (recorded wherever one is seen)',
    rule: 'rate-limit-retry-after',
  },
  ownerContent: {
    id: 'owner.content',
    title: "another user's key gets a JSON error for the task's content, in every state",
    rule: 'owner-only',
  },

  noResubmission: {
    id: 'client.no-resubmission',
    title: 'the suite never resubmitted a task and stayed within its budget',
    rule: 'no-resubmission',
  },
} as const satisfies Record<string, CheckDefinition>;
