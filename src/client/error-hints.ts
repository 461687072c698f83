/**
 * What a person does next after a refused request, chosen from the operation, the HTTP status and the
 * error code (issue 16), not from the status class alone: the deployed gateway answers a status query
 * for a missing *or* foreign task with 400 `task_not_exist`, and `/content` before completion with 400
 * (reference-gateway-facts.md), which are not "fix your parameters". The first matching row wins.
 */
import type { ErrorCode } from '../generated/client-contract.ts';

/** Which call was refused. */
export type Operation = 'submit' | 'query' | 'content' | 'models';

export interface HintRow {
  /** `undefined`: any operation. */
  readonly operation?: Operation;
  /** A status, or a class: `4xx`, `5xx`. */
  readonly status: number | '4xx' | '5xx';
  /** `undefined`: any code (or none). One of the spec's `x-error-codes`: a code it drops fails to compile. */
  readonly code?: ErrorCode;
  readonly hint: string;
}

const NOT_YOURS =
  'this task is not yours or does not exist: a task is visible only to the ' +
  'key that submitted it (§5); check the task ID and the key.';

/** A 404 that names no route of the service: the base URL leads elsewhere (issue 35). */
const NO_ROUTE =
  'the service does not serve this path: check the base URL (the address without /v1, §9).';

/** A status query's 404 without the service's code: a task not found, or no such route here. */
const NOT_FOUND_HERE =
  'not found: this task is not yours or does not exist (§5), or nothing at this base URL ' +
  'serves task queries; check the task ID, the key and the base URL (the address without /v1, §9).';

export const HINTS: readonly HintRow[] = [
  // First: the gateway answers an upstream 429 with code fail_to_fetch_task (reference-gateway-facts.md).
  {
    status: 429,
    hint: 'the service is rate limiting: try again later (§7 asks for exponential backoff).',
  },
  {
    operation: 'submit',
    status: 400,
    code: 'invalid_seconds',
    hint:
      'the duration was refused: pass one the model accepts (the permitted ' +
      'values are not shown, §8). Nothing was created.',
  },
  {
    operation: 'submit',
    status: 400,
    code: 'model_price_error',
    hint:
      'the model has no price configured: ask an administrator to set it (§9 ' +
      'step 2). Nothing was created; do not retry as is.',
  },
  {
    operation: 'submit',
    status: '4xx',
    code: 'fail_to_fetch_task',
    hint:
      'the upstream refused the submission: check the model and its parameters ' +
      '(§2.1, §7). Nothing was created; do not retry as is.',
  },
  {
    operation: 'submit',
    status: 403,
    code: 'insufficient_user_quota',
    hint: 'the quota is spent: ask an administrator to raise it (§7). Nothing was created; do not retry as is.',
  },
  {
    operation: 'submit',
    status: 503,
    code: 'model_not_found',
    hint:
      'the model is unknown or has no channel for your group: check the name ' +
      'against `/v1/models`, or ask an administrator to open it (§5). Do not ' +
      'retry as is.',
  },
  {
    operation: 'submit',
    status: 400,
    hint: 'fix the request (model, prompt, parameters) before trying again; a 4xx is not retried (§7).',
  },
  {
    status: 401,
    hint: 'check --api-key / VIDEOTASK_API_KEY (§5): the key is missing, invalid or revoked.',
  },
  {
    operation: 'models',
    status: 403,
    hint: 'the token may not read the catalog: ask an administrator for its permissions (§5).',
  },
  {
    status: 403,
    hint:
      'the token or its group may not use this model, or the quota is spent: ' +
      'ask an administrator (§5, §7). Do not retry as is.',
  },
  // The service's 404 for a path it has no route for says so (the mock: route_not_found).
  { status: 404, code: 'route_not_found', hint: NO_ROUTE },
  { operation: 'query', status: 400, code: 'task_not_exist', hint: NOT_YOURS },
  { operation: 'query', status: 404, code: 'task_not_found', hint: NOT_YOURS },
  { operation: 'query', status: 404, hint: NOT_FOUND_HERE },
  {
    operation: 'query',
    status: 400,
    hint: 'the service refused the query: check the task ID (the public ID returned on submission, §1).',
  },
  {
    operation: 'content',
    status: 400,
    hint:
      'not finished yet (or failed): wait for it first (`videotask wait ID`), ' +
      'and download once it is completed (§3 rule 2, §4.4).',
  },
  {
    operation: 'content',
    status: 404,
    hint:
      'not found, or not yours: the video is served only to the key that ' +
      'submitted the task (§4.4, §5); check the task ID and the key.',
  },
  {
    operation: 'content',
    status: 410,
    hint: "the video's temporary upstream address has expired (§1): it can no longer be downloaded.",
  },
  { status: 404, hint: NO_ROUTE },
  { status: 413, hint: 'send a smaller JSON body (§4.1).' },
  {
    status: 415,
    hint: 'send the body as JSON with Content-Type: application/json (§4.1, §5).',
  },
  {
    operation: 'submit',
    status: '5xx',
    hint: 'the task may or may not exist: do NOT resubmit blindly (§7); check your own records (the journal) first.',
  },
  {
    operation: 'content',
    status: '5xx',
    hint: 'the service could not deliver the video: try the download again later (§7).',
  },
  {
    status: '5xx',
    hint: 'a temporary service error: retry the same query later; do not create a new task (§7).',
  },
  {
    status: '4xx',
    hint: 'the service refused the request; a 4xx is not retried (§7): check the request.',
  },
];

const FALLBACK = 'the service answered an unexpected status; check the base URL.';

/**
 * The hint for a refused request: the first row of `HINTS` that matches.
 *
 * @example
 * errorHint('query', 400, 'task_not_exist'); // 'this task is not yours or does not exist: …'
 */
export function errorHint(
  operation: Operation | undefined,
  status: number,
  code: string | undefined,
): string {
  return HINTS.find((row) => matches(row, operation, status, code))?.hint ?? FALLBACK;
}

/** Whether `row` applies to the request. */
export function matches(
  row: HintRow,
  operation: Operation | undefined,
  status: number,
  code: string | undefined,
): boolean {
  if (row.operation !== undefined && row.operation !== operation) return false;
  if (row.code !== undefined && row.code !== code) return false;
  if (row.status === '4xx') return status >= 400 && status < 500;
  if (row.status === '5xx') return status >= 500 && status < 600;
  return row.status === status;
}
