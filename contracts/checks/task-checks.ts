import { basisOf, serviceContract } from '../../src/spec/index.ts';
import type { CheckDefinition } from '../verdicts.ts';

const { validators } = serviceContract();

/** The basis a schema's own marking gives a shape check. */
export const schemaBasis = (name: string) =>
  basisOf(validators.document.components!.schemas![name]);

/** The checks of a task's answers: the OpenAI form (§2.2), the wrapper (§2.3), poll sequences. */
export const TASK_CHECKS = {
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
} as const satisfies Record<string, CheckDefinition>;
