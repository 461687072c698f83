// Errors of a request as such: authentication, routing, the body's type and size, scenarios,
// rate limits and the mock's own failure (§4, §5, §7).
import type { ErrorTemplate } from './errors.ts';

export const REQUEST_ERRORS = {
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
  internal_error: {
    status: 500,
    envelope: 'openai',
    type: 'server_error',
    code: 'internal_error',
    message: (d) => `The mock failed to answer: ${d.problem}`,
  },
} as const satisfies Record<string, ErrorTemplate>;
