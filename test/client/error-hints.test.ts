import { describe, expect, it } from 'vitest';
import { errorHint, HINTS, type HintRow } from '../../src/client/error-hints.ts';
import { apiErrorFrom } from '../../src/client/errors.ts';
import { BadRequestError, type Operation } from '../../src/client/index.ts';

/** A request the row is written for: its own status, or one of its class. */
function example(row: HintRow): [Operation | undefined, number, string | undefined] {
  const status = row.status === '4xx' ? 418 : row.status === '5xx' ? 502 : row.status;
  return [row.operation, status, row.code];
}

const label = (row: HintRow) =>
  `${row.operation ?? 'any call'} ${row.status} ${row.code ?? '(any code)'}`;

describe('the hint table', () => {
  it.each(HINTS.map((row) => [label(row), row] as const))(
    'reaches row "%s": no earlier row hides it',
    (_label, row) => {
      expect(errorHint(...example(row))).toBe(row.hint);
    },
  );

  it('cites a section of the document in every hint', () => {
    for (const row of HINTS) expect(row.hint, label(row)).toMatch(/§\d/);
  });
});

describe('hints that fit the error (issue 16)', () => {
  it.each<[string, Operation | undefined, number, string | undefined, RegExp]>([
    [
      'a status query for a missing or foreign task (gateway: 400)',
      'query',
      400,
      'task_not_exist',
      /^this task is not yours or does not exist/,
    ],
    [
      'a status query for a missing or foreign task (404)',
      'query',
      404,
      'task_not_found',
      /^this task is not yours or does not exist/,
    ],
    [
      'a status query answered 404 without a code: missing task or no such route',
      'query',
      404,
      undefined,
      /^not found: this task is not yours or does not exist .*or nothing at this base URL/,
    ],
    [
      'a status query of a route that does not exist',
      'query',
      404,
      'route_not_found',
      /^the service does not serve this path/,
    ],
    ['another 400 on a status query', 'query', 400, 'invalid_request', /check the task ID/],
    [
      'content before completion',
      'content',
      400,
      'task_not_completed',
      /^not finished yet .*`videotask wait ID`/,
    ],
    [
      'content before completion (no code, mid-2026 gateways)',
      'content',
      400,
      undefined,
      /^not finished yet/,
    ],
    [
      'content for a missing or foreign task',
      'content',
      404,
      undefined,
      /^not found, or not yours/,
    ],
    ['content whose upstream address expired', 'content', 410, 'artifact_gone', /expired/],
    [
      'content the upstream could not deliver',
      'content',
      502,
      undefined,
      /try the download again later/,
    ],
    [
      'an empty prompt',
      'submit',
      400,
      'invalid_request',
      /^fix the request \(model, prompt, parameters\)/,
    ],
    ['a duration refused', 'submit', 400, 'invalid_seconds', /duration was refused/],
    ['a model without a price', 'submit', 400, 'model_price_error', /no price/],
    ['the upstream refusing a submission', 'submit', 400, 'fail_to_fetch_task', /upstream refused/],
    [
      'an upstream 5xx on a submission',
      'submit',
      502,
      'fail_to_fetch_task',
      /may or may not exist/,
    ],
    [
      'an unknown model (gateway: 503)',
      'submit',
      503,
      'model_not_found',
      /unknown or has no channel/,
    ],
    [
      'another 5xx on a submission',
      'submit',
      500,
      undefined,
      /may or may not exist: do NOT resubmit/,
    ],
    ['a refused key', 'query', 401, '', /--api-key/],
    ['a spent quota', 'submit', 403, 'insufficient_user_quota', /quota is spent/],
    ['a token without the model', 'submit', 403, undefined, /may not use this model/],
    ['a catalog the token may not read', 'models', 403, undefined, /may not read the catalog/],
    ['a rate limit', 'submit', 429, 'fail_to_fetch_task', /rate limiting/],
    ['a body too large', 'submit', 413, undefined, /smaller JSON body/],
    ['a body not JSON', 'submit', 415, undefined, /as JSON/],
    ['a temporary error on a query', 'query', 503, undefined, /retry the same query later/],
    ['a path the service does not serve', 'models', 404, undefined, /check the base URL/],
    ['a 4xx of an unknown call', undefined, 422, undefined, /a 4xx is not retried/],
  ])('%s', (_name, operation, status, code, hint) => {
    expect(errorHint(operation, status, code)).toMatch(hint);
  });

  it('gives ApiError the hint of its operation, status and code', () => {
    const body = { code: 'task_not_exist', message: 'task_not_exist', data: null };
    const error = apiErrorFrom('query task_1', 400, body, new Headers(), { operation: 'query' });
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.operation).toBe('query');
    expect(error.hint).toMatch(/^this task is not yours or does not exist/);
    const unknown = apiErrorFrom('query task_1', 400, body, new Headers());
    expect(unknown.hint).toMatch(/a 4xx is not retried/);
  });
});
