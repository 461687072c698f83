import { jsonResponse, type CoreResponse } from './http-types.ts';

/**
 * Every error body the mock writes, built here and nowhere else: the service's errors as a table (one
 * row per kind, held to the specs' `x-error-codes` by test/mocks/error-codes.test.ts), the control
 * API's `ControlError` (spec/mock-control.yaml), and the hosts' own answers to what no operation covers
 * (malformed HTTP, an `Expect` they cannot meet, `/docs`).
 *
 * Three envelopes, as on the deployed gateway (assumptions in the spec, `ErrorBody`): the OpenAI style
 * from authentication, routing and the content endpoint; the task-wrapper style from the task handlers;
 * the upstream's own `{error: {code, message}}` on the second family's native path (`PluginErrorBody`),
 * which the control API's errors share.
 *
 * A message is built once, with its ending: a learned profile's habit of naming the request
 * (` (request id: …)`, spec/reference-gateway-facts.md) is passed in by whoever builds the body for a
 * request, never added to a finished body (decisions/031).
 */
type Envelope = 'openai' | 'task' | 'plugin';

export interface ErrorTemplate {
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

/**
 * The table, one row per kind, in three parts: the request as such (authentication, routing, the
 * body's type and size, scenarios, rate limits, the mock's own failure: §4, §5, §7), the submission
 * (its fields, the model's access and channel, quota, the upstream: §2.1, §4.5, §7) and the task
 * (unknown tasks, a flaky upstream, content not ready, ranges, temporary addresses: §4, §5, §7).
 */
export const ERROR_TEMPLATES = {
  // The request.
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
  gateway_invalid_token: {
    status: 401,
    envelope: 'openai',
    type: 'new_api_error',
    code: '',
    message: () => 'Invalid token',
  },
  route_not_found: {
    status: 404,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'route_not_found',
    message: (d) => `No route for ${d.method} ${d.path}: ${d.problem ?? 'see the endpoints of §4'}`,
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
      `Content-Type ${d.contentType || '(none)'} is not supported: this ` +
      `service accepts JSON only (§4.1, §5). Send the body as ` +
      `application/json; multipart/form-data (as the openai SDK's ` +
      `videos.create sends) is not accepted.`,
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
  unknown_scenario: {
    status: 400,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'unknown_scenario',
    message: (d) =>
      `Unknown mock scenario "${d.problem}": use one of ${d.upstream} ` +
      `(X-Mock-Scenario: NAME[:ARG] or [mock:NAME[:ARG]] in the prompt)`,
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
  client_rule_violated: {
    status: 400,
    envelope: 'openai',
    type: 'client_rule_violated',
    code: 'client_rule_violated',
    message: (d) => d.problem ?? 'A client rule of the document was broken',
  },
  internal_error: {
    status: 500,
    envelope: 'openai',
    type: 'server_error',
    code: 'internal_error',
    message: (d) => `The mock failed to answer: ${d.problem}`,
  },

  // The submission.
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

  // The task.
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
  plugin_task_not_found: {
    status: 404,
    envelope: 'plugin',
    code: 'task_not_found',
    message: (d) => `task ${d.taskId} not found`,
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
} as const satisfies Record<string, ErrorTemplate>;

export type ErrorKind = keyof typeof ERROR_TEMPLATES;

/** The error body of a kind (without the HTTP wrapping); `ending` ends its message. */
export function errorBody(
  kind: ErrorKind,
  detail: ErrorDetail = {},
  ending = '',
): { status: number; body: Record<string, unknown> } {
  const template: ErrorTemplate = ERROR_TEMPLATES[kind];
  const message = template.message(detail) + ending;
  const body =
    template.envelope === 'openai'
      ? openAiEnvelope(template.code, message, template.type ?? 'invalid_request_error')
      : template.envelope === 'plugin'
        ? codeEnvelope(template.code, message)
        : { code: template.code, message, data: null };
  return { status: detail.httpStatus ?? template.status, body };
}

/**
 * The JSON answer of an error kind. `ending` ends the message: the profile's way of naming the request
 * this answers (` (request id: …)`), or nothing.
 */
export function errorResponse(
  kind: ErrorKind,
  detail: ErrorDetail = {},
  headers: Record<string, string> = {},
  ending = '',
): CoreResponse {
  const { status, body } = errorBody(kind, detail, ending);
  return jsonResponse(status, body, headers);
}

/**
 * A control API error (`spec/mock-control.yaml` `ControlError`). The mock's own API answers as the
 * mock: no profile's message ending (decisions/031).
 */
export function controlError(status: number, code: string, message: string): CoreResponse {
  return jsonResponse(status, codeEnvelope(code, message));
}

/**
 * The JSON body (OpenAI envelope) of a host's own answer to what no operation covers: malformed HTTP,
 * a timeout, an `Expect` it cannot meet, a CONNECT, `/docs` (mocks/node/http/).
 */
export function hostErrorJson(status: number, code: string, message: string): string {
  return JSON.stringify(openAiEnvelope(code, message, hostErrorType(status)));
}

/** The same as an answer with its headers. */
export function hostErrorResponse(
  status: number,
  error: { readonly code: string; readonly message: string },
  headers: Record<string, string> = {},
): CoreResponse {
  return jsonResponse(
    status,
    openAiEnvelope(error.code, error.message, hostErrorType(status)),
    headers,
  );
}

/** The type the table gives answers of that class: the client's error, or the server's (a 503, a 500). */
const hostErrorType = (status: number): string =>
  status >= 500 ? 'server_error' : 'invalid_request_error';

function openAiEnvelope(code: string, message: string, type: string): Record<string, unknown> {
  return { error: { message, type, code } };
}

/** The upstream's (native path) and the control API's envelope. */
function codeEnvelope(code: string, message: string): Record<string, unknown> {
  return { error: { code, message } };
}
