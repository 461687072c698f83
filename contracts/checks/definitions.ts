import { basisOf, serviceContract } from '../../src/spec/index.ts';
import type { CheckDefinition } from '../verdicts.ts';

const { validators } = serviceContract();
const schemaBasis = (name: string) =>
  basisOf(validators.document.components!.schemas![name] as never);

/** Every check the suite can report, by area. Each names the rule (and so the basis) it judges. */
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
    title: 'a missing or invalid key gets a 4xx on every endpoint',
    rule: 'auth-required',
  },
  authJsonError: {
    id: 'auth.json-error',
    title: 'that refusal is a JSON error',
    rule: 'error-envelope',
  },

  unknownTaskError: {
    id: 'unknown-task.error',
    title: 'an unknown task ID gets an error on every query route',
    rule: 'unknown-task-error',
  },
  unknownContentJson: {
    id: 'unknown-task.content-json',
    title: 'content of an unknown task is a JSON error',
    rule: 'content-json-errors',
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
    title: 'an empty or blank prompt is rejected with a 4xx and creates no task',
    rule: 'empty-prompt-invalid',
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
  submissionPaths: {
    id: 'submission.both-paths',
    title: 'both submit paths accept a task (§4.1)',
    basis: { documented: true, source: '§4.1' },
  },

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
    title: 'the public task ID is the only task identifier exposed',
    rule: 'public-id-only',
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
    title: 'content before completion is refused',
    rule: 'content-after-completion',
  },
  contentJsonErrors: {
    id: 'content.json-errors',
    title: 'content errors are JSON (unfinished, failed, foreign)',
    rule: 'content-json-errors',
  },
  contentBinary: {
    id: 'content.binary',
    title: 'a completed task downloads as a binary video (container signature), redirects followed',
    rule: 'content-binary',
  },

  ownerStatus: {
    id: 'owner.status',
    title: "another user's key cannot read the task's status",
    rule: 'owner-only',
  },
  ownerContent: {
    id: 'owner.content',
    title: "another user's key gets a JSON error for the task's content",
    rule: 'owner-only',
  },

  noResubmission: {
    id: 'client.no-resubmission',
    title: 'the suite never resubmitted a task and stayed within its budget',
    rule: 'no-resubmission',
  },
} as const satisfies Record<string, CheckDefinition>;

export type CheckName = keyof typeof CHECKS;
