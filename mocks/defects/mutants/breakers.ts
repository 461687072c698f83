import {
  acceptFileUpload,
  fillEmptyPrompt,
  fillRequiredFields,
  ignoreModelPermissions,
} from '../access.ts';
import type { MutantCell } from './cell.ts';
import type { Mutation } from './mutation.ts';
import { corruptRange, headDisagrees, wrongLength } from './content-mutations.ts';
import {
  acceptMixed,
  taskWithoutModel,
  wrappedSubmission,
  wrongNativeStatus,
} from './native-mutations.ts';
import {
  bareRateLimit,
  foreignEnvelope,
  grant,
  leakUpstreamId,
  otherStatus,
  textError,
} from './refusal-mutations.ts';
import {
  drop,
  emptyResultUrl,
  emptyUrl,
  laterReads,
  progressFalls,
  relativeUrl,
  resultNotAddress,
  rewrite,
  rewriteData,
  set,
  staleWrapper,
} from './task-mutations.ts';

/** A (rule, cell) pair no answer of the mock can break, and why. */
export interface Equivalent {
  readonly equivalent: string;
}

type Breaker = (cell: MutantCell) => Mutation | Equivalent;

/** A completed task's content as a page of text labelled as a video: §4.4 judges the bytes. */
const contentAsPage: Mutation = {
  does: 'answers the content of a completed task with an HTML page labelled video/mp4',
  after: (_request, response) =>
    response.status >= 400
      ? response
      : {
          status: 200,
          headers: { 'content-type': 'video/mp4' },
          body: '<html><body><h1>Video unavailable</h1></body></html>',
        },
};

const catalogAsPage: Mutation = {
  does: 'answers /v1/models with an HTML page instead of a model list',
  after: (_request, response) =>
    response.status >= 300
      ? response
      : {
          status: 200,
          headers: { 'content-type': 'text/html; charset=utf-8' },
          body: '<!doctype html><title>Models</title><p>See the console.</p>',
        },
};

const acceptedWith201: Mutation = {
  does: 'answers an accepted submission 201 Created',
  after: (_request, response) =>
    response.status === 200 ? { ...response, status: 201 } : response,
};

const slowSubmission: Mutation = {
  does: 'answers the submission 11 s later',
  before(request, { state }) {
    state.clock.advance(11_000);
    return request;
  },
};

/**
 * How to break each rule of `x-lifecycle.rules` in one cell of the suites' matrix. The generated mutant
 * applies the mutation to that cell's requests only (`mutant`).
 */
export const BREAKERS: Readonly<Record<string, Breaker>> = {
  'task-id-equals-id': () =>
    rewrite('answers a task_id that differs from id', (b) => ({
      ...b,
      task_id: `${String(b['id'])}x`,
    })),
  'object-is-video': () => set('object', 'video.generation'),
  'model-echoed': () =>
    rewrite('answers the resolved model name', (b) => ({
      ...b,
      model: `${String(b['model'])}-20260101`,
    })),
  'progress-range': () => set('progress', 150),
  'status-documented': () => set('status', 'processing'),
  'presence-always': () => drop('object'),
  'presence-on-submission': () => drop('created_at'),
  'presence-when-completed': () => drop('completed_at'),
  'presence-when-failed': () => drop('error'),
  'wrapper-progress-format': () =>
    rewriteData('gives data.progress without the % sign', (d) => ({
      ...d,
      progress: String(d['progress']).replace(/%$/, ''),
    })),
  'wrapper-success-code': () => set('message', 'ok'),
  'wrapper-failure-status': () =>
    rewriteData('gives an empty fail_reason', (d) => ({ ...d, fail_reason: '' })),
  'public-id-only': () => leakUpstreamId,
  'result-url-address': (cell) => (cell.state === 'completed' ? emptyUrl : relativeUrl),
  'wrapper-result-url-address': (cell) =>
    cell.state === 'completed' ? emptyResultUrl : resultNotAddress,
  'unix-timestamps': () =>
    rewrite('answers created_at in milliseconds', (b, { state }) => ({
      ...b,
      created_at: state.clock.now(),
    })),
  'wrapper-unix-timestamps': () =>
    rewriteData('answers data.updated_at in milliseconds', (d, { state }) => ({
      ...d,
      updated_at: state.clock.now(),
    })),
  'content-after-completion': () => grant,
  'content-json-errors': () => textError,
  'content-binary': () => contentAsPage,
  'owner-only': () => grant,
  'unknown-task-error': () => grant,
  'submission-answers-at-once': () => slowSubmission,
  'submission-status-queued': () => set('status', 'in_progress'),
  'submission-status-200': () => acceptedWith201,
  // A catalog that lists another model set is an input error of the run (issue 22), not a verdict.
  'catalog-lists-model': () => catalogAsPage,
  'empty-prompt-invalid': () => ({ does: 'fills in an empty prompt', before: fillEmptyPrompt }),
  'required-fields': () => ({
    does: 'fills in a missing or mistyped model or prompt',
    before: fillRequiredFields,
  }),
  'model-permissions': () => ({
    does: 'creates a task of a model the key may not use',
    before: ignoreModelPermissions,
  }),
  'multipart-upload-refused': () => ({
    does: 'accepts a multipart file upload, reading its text fields',
    before: acceptFileUpload,
  }),
  'auth-required': () => grant,
  'terminal-stays-terminal': () =>
    laterReads('shows in_progress again after the first read', (b) => ({
      ...b,
      status: 'in_progress',
    })),
  'legal-transition': (cell) =>
    cell.state === 'in_progress'
      ? laterReads('shows queued again after the first read', (b) => ({ ...b, status: 'queued' }))
      : {
          equivalent:
            `x-lifecycle.transitions allows every next state from ${cell.state}, so ` +
            `no answer breaks the rule there`,
        },
  'progress-monotonic': () => progressFalls(),
  'progress-complete': () => set('progress', 99),
  'timestamps-ordered': (cell) =>
    cell.route === 'getVideo'
      ? rewrite('answers completed_at before created_at', (b) => ({
          ...b,
          completed_at: Number(b['created_at']) - 60,
        }))
      : rewriteData('answers updated_at before created_at', (d) => ({
          ...d,
          updated_at: Number(d['created_at']) - 60,
        })),
  'forms-agree': () => staleWrapper,
  'error-status-code': () => otherStatus,
  'error-envelope': () => foreignEnvelope,
  'native-formats-not-mixed': () => acceptMixed,
  'native-shape': (cell) =>
    cell.route === 'createPluginTask' ? wrappedSubmission : taskWithoutModel,
  'native-status-mapping': (cell) => wrongNativeStatus(cell.state),
  'content-length-matches': () => wrongLength,
  'content-range-reassembles': () => corruptRange,
  'content-head-agrees': () => headDisagrees,
  'rate-limit-retry-after': () => bareRateLimit,
};
