import { jsonResponse, type CoreResponse } from './http-types.ts';

/**
 * Every error the mock sends, as templates (one row per kind). Two envelopes, as on the deployed
 * gateway (both assumptions in the spec, `ErrorBody`): the OpenAI style from authentication, routing and
 * the content endpoint, and the task-wrapper style from the task handlers; plus the upstream's own
 * `{error: {code, message}}` on the second family's native path (`PluginErrorBody`).
 */
type Envelope = 'openai' | 'task' | 'plugin';

interface ErrorTemplate {
  readonly status: number;
  readonly envelope: Envelope;
  /** OpenAI envelope only. */
  readonly type?: string;
  readonly code: string;
  readonly message: (detail: ErrorDetail) => string;
}

export interface ErrorDetail {
  readonly model?: string | undefined;
  readonly group?: string | undefined;
  readonly status?: string | undefined;
  readonly problem?: string | undefined;
  readonly method?: string | undefined;
  readonly path?: string | undefined;
  readonly contentType?: string | undefined;
  readonly limit?: number | undefined;
  readonly range?: string | undefined;
  readonly size?: number | undefined;
  readonly taskId?: string | undefined;
  readonly upstream?: string | undefined;
  /** Overrides the template's status (an upstream refusal carries the upstream's status). */
  readonly httpStatus?: number | undefined;
}

export const ERROR_TEMPLATES = {
  missing_api_key: {
    status: 401,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'invalid_api_key',
    message: () => 'Missing API key: send the header Authorization: Bearer <API_KEY> (§5)',
  },
  invalid_api_key: {
    status: 401,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'invalid_api_key',
    message: () => 'Invalid API key: check the key sent in Authorization: Bearer <API_KEY> (§5)',
  },
  route_not_found: {
    status: 404,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'route_not_found',
    message: (d) => `No route for ${d.method} ${d.path}: see the endpoints of §4`,
  },
  method_not_allowed: {
    status: 405,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'method_not_allowed',
    message: (d) => `${d.method} is not allowed on ${d.path}`,
  },
  unsupported_media_type: {
    status: 415,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'unsupported_media_type',
    message: (d) =>
      `Content-Type ${d.contentType || '(none)'} is not supported: this service accepts JSON only (§4.1, §5). Send the body as application/json; multipart/form-data (as the openai SDK's videos.create sends) is not accepted.`,
  },
  body_too_large: {
    status: 413,
    envelope: 'task',
    code: 'request_body_too_large',
    message: (d) => `The request body is larger than ${d.limit} bytes`,
  },
  invalid_json: {
    status: 400,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'invalid_json',
    message: (d) => `The request body is not valid JSON: ${d.problem}`,
  },
  invalid_form_data: {
    status: 400,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'invalid_form_data',
    message: (d) => `The multipart/form-data body cannot be read: ${d.problem}`,
  },
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
  plugin_task_not_found: {
    status: 404,
    envelope: 'plugin',
    code: 'task_not_found',
    message: (d) => `task ${d.taskId} not found`,
  },
  task_not_found: {
    status: 404,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'task_not_found',
    message: (d) => `Task ${d.taskId} not found`,
  },
  status_task_not_found: {
    status: 404,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'task_not_found',
    message: (d) => `Task ${d.taskId} not found`,
  },
  task_not_exist: {
    status: 400,
    envelope: 'task',
    code: 'task_not_exist',
    message: () => 'task_not_exist',
  },
  gateway_invalid_token: {
    status: 401,
    envelope: 'openai',
    type: 'new_api_error',
    code: '',
    message: () => 'Invalid token',
  },
  unknown_scenario: {
    status: 400,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'unknown_scenario',
    message: (d) =>
      `Unknown mock scenario "${d.problem}": use one of ${d.upstream} (X-Mock-Scenario: NAME[:ARG] or [mock:NAME[:ARG]] in the prompt)`,
  },
  invalid_scenario_argument: {
    status: 400,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'invalid_scenario_argument',
    message: (d) => `Invalid mock scenario argument: ${d.problem}`,
  },
  rate_limited: {
    status: 429,
    envelope: 'openai',
    type: 'rate_limit_error',
    code: 'rate_limit_exceeded',
    message: (d) => `Rate limit exceeded: ${d.problem}`,
  },
  upstream_rate_limited: {
    status: 429,
    envelope: 'task',
    code: 'fail_to_fetch_task',
    message: (d) =>
      `upstream rate limit exceeded; retry after ${d.problem} s with exponential backoff (§7)`,
  },
  temporarily_unavailable: {
    status: 503,
    envelope: 'openai',
    type: 'server_error',
    code: 'temporarily_unavailable',
    message: () =>
      'The upstream is temporarily unavailable: retry the same query (§7), do not create a new task',
  },
  task_not_completed: {
    status: 400,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'task_not_completed',
    message: (d) => `Task is not completed yet, current status: ${d.status}`,
  },
  range_not_satisfiable: {
    status: 416,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'range_not_satisfiable',
    message: (d) => `Range ${d.range} is outside the video (${d.size} bytes)`,
  },
  artifact_gone: {
    status: 410,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'artifact_gone',
    message: (d) =>
      `This temporary result address has expired: download through /v1/videos/${d.taskId}/content instead`,
  },
  artifact_invalid: {
    status: 403,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'artifact_signature_invalid',
    message: () => 'This result address is not valid: its signature does not match',
  },
  internal_error: {
    status: 500,
    envelope: 'openai',
    type: 'server_error',
    code: 'internal_error',
    message: (d) => `The mock failed to answer: ${d.problem}`,
  },
} as const satisfies Record<string, ErrorTemplate>;

export type ErrorKind = keyof typeof ERROR_TEMPLATES;

/** The error body of a kind (without the HTTP wrapping). */
export function errorBody(
  kind: ErrorKind,
  detail: ErrorDetail = {},
): { status: number; body: Record<string, unknown> } {
  const template: ErrorTemplate = ERROR_TEMPLATES[kind];
  const message = template.message(detail);
  const body =
    template.envelope === 'openai'
      ? { error: { message, type: template.type ?? 'invalid_request_error', code: template.code } }
      : template.envelope === 'plugin'
        ? { error: { code: template.code, message } }
        : { code: template.code, message, data: null };
  return { status: detail.httpStatus ?? template.status, body };
}

export function errorResponse(
  kind: ErrorKind,
  detail: ErrorDetail = {},
  headers: Record<string, string> = {},
): CoreResponse {
  const { status, body } = errorBody(kind, detail);
  return jsonResponse(status, body, headers);
}
