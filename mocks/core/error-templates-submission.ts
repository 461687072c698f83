// Errors of a submission: its fields, the model's access and channel, quota and the upstream
// (§2.1, §4.5, §7).
import type { ErrorTemplate } from './errors.ts';

export const SUBMISSION_ERRORS = {
  model_required: {
    status: 400,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'model_required',
    message: () => 'model is required: name a model of /v1/models',
  },
  prompt_required: {
    status: 400,
    envelope: 'task',
    code: 'invalid_request',
    message: () => 'prompt is required: it must not be empty or blank (§2.1, §7)',
  },
  invalid_request: {
    status: 400,
    envelope: 'task',
    code: 'invalid_request',
    message: (d) => `Invalid request: ${d.problem}`,
  },
  invalid_seconds: {
    status: 400,
    envelope: 'task',
    code: 'invalid_seconds',
    message: (d) => `Invalid duration: ${d.problem}`,
  },
  model_not_allowed: {
    status: 403,
    envelope: 'openai',
    type: 'new_api_error',
    code: 'model_not_allowed',
    message: (d) => `This token has no access to model ${d.model}`,
  },
  model_not_found: {
    status: 503,
    envelope: 'openai',
    type: 'new_api_error',
    code: 'model_not_found',
    message: (d) => `No available channel for model ${d.model} under group ${d.group}`,
  },
  insufficient_user_quota: {
    status: 403,
    envelope: 'task',
    code: 'insufficient_user_quota',
    message: () => 'Your quota is exhausted: top it up before submitting (§7: do not retry as is)',
  },
  upstream_refused: {
    status: 400,
    envelope: 'task',
    code: 'fail_to_fetch_task',
    message: (d) => d.upstream ?? 'The upstream refused the task',
  },
  upstream_rate_limited: {
    status: 429,
    envelope: 'task',
    code: 'fail_to_fetch_task',
    message: (d) =>
      `upstream rate limit exceeded; retry after ${d.problem} s with exponential backoff (§7)`,
  },
  plugin_invalid_request: {
    status: 400,
    envelope: 'plugin',
    code: 'invalid_request',
    message: (d) => d.problem ?? 'invalid request',
  },
  plugin_permission_denied: {
    status: 403,
    envelope: 'plugin',
    code: 'permission_denied',
    message: (d) => `This token may not use model ${d.model}`,
  },
} as const satisfies Record<string, ErrorTemplate>;
