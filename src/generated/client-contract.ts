// Generated from spec/openapi.yaml by `npm run generate`; do not edit.
import type { components } from './openapi.ts';

type VideoStatus = components['schemas']['VideoStatus'];

/**
 * `x-lifecycle` (§3): every status in the order a task passes them, the ones a polling loop stops on,
 * polls again, treats as final (an assumption), and the ones that slow it down.
 */
export const LIFECYCLE = {
  states: ['unknown', 'queued', 'in_progress', 'completed', 'failed'],
  stopPolling: ['completed', 'failed'],
  pollAgain: ['unknown', 'queued', 'in_progress'],
  terminal: ['completed', 'failed'],
  slowDown: ['unknown'],
} as const satisfies Readonly<Record<string, readonly VideoStatus[]>>;

/** `x-polling` (§8): the loop the document recommends to clients (not enforced by the server). */
export const POLLING = {
  initialIntervalMs: 5000,
  factor: 1.5,
  maxIntervalMs: 30000,
  maxAttempts: 60,
} as const;

/** Every error code of `x-error-codes` (§7: "not shown", so each one is an assumption). */
export type ErrorCode =
  | 'artifact_gone'
  | 'fail_to_fetch_task'
  | 'insufficient_user_quota'
  | 'invalid_api_key'
  | 'invalid_form_data'
  | 'invalid_json'
  | 'invalid_request'
  | 'invalid_seconds'
  | 'method_not_allowed'
  | 'model_not_allowed'
  | 'model_not_found'
  | 'model_price_error'
  | 'model_required'
  | 'permission_denied'
  | 'range_not_satisfiable'
  | 'rate_limit_exceeded'
  | 'request_body_too_large'
  | 'route_not_found'
  | 'task_not_completed'
  | 'task_not_exist'
  | 'task_not_found'
  | 'temporarily_unavailable'
  | 'unsupported_media_type'
  | 'upstream_fetch_failed';

/** The header of the client's own request ID on a submission (`ClientRequestId`, §7, §8). */
export const CLIENT_REQUEST_ID_HEADER = 'X-Request-Id';
