import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  NotFoundError,
  PermissionDeniedError,
  RequestTimeoutError,
  ResponseTooLargeError,
  ServerError,
  SubmissionUnconfirmedError,
  UnexpectedResponseError,
} from '../../src/client/errors.ts';
import { submitWithRetry } from '../../src/client/retry.ts';
import { fakeTime } from './fake-time.ts';
import { REQUEST_ID, connection, refusal, script, socketError } from './submit-script.ts';

describe('submitWithRetry: the §7 table', () => {
  it.each([
    [
      '400',
      refusal(
        BadRequestError,
        'Failed to submit: prompt is empty (HTTP 400)',
        400,
        'invalid_request',
      ),
    ],
    ['401', refusal(AuthenticationError, 'Failed to submit: invalid key (HTTP 401)', 401)],
    ['403', refusal(PermissionDeniedError, 'Failed to submit: model not allowed (HTTP 403)', 403)],
    ['404', refusal(NotFoundError, 'Failed to submit: no such model (HTTP 404)', 404)],
    [
      '503 model_not_found (a routing refusal before any task exists)',
      refusal(
        ServerError,
        'Failed to submit: No available channel for model x (HTTP 503, model_not_found)',
        503,
        'model_not_found',
      ),
    ],
  ])('a %s is not retried: rethrown at once, 1 call', async (_status, error) => {
    const time = fakeTime();
    const { submit, ids } = script([error]);
    await expect(
      submitWithRetry(submit, { clientRequestId: REQUEST_ID, sleep: time.sleep }),
    ).rejects.toBe(error);
    expect(ids).toEqual([REQUEST_ID]);
    expect(time.sleeps).toEqual([]);
  });

  it.each([
    ['a request timeout', new RequestTimeoutError('Failed to submit: no answer within 30 s')],
    ['ECONNRESET after the request was sent', connection('ECONNRESET')],
    ['EPIPE', connection('EPIPE')],
    [
      'a connection error with no cause (unknown: assume sent)',
      new ConnectionError('socket closed'),
    ],
    ['a 500', refusal(ServerError, 'Failed to submit: HTTP 500', 500)],
    ['a 503', refusal(ServerError, 'Failed to submit: HTTP 503', 503)],
    [
      'a 200 that is not JSON',
      new UnexpectedResponseError('Failed to submit the task: the answer is not valid JSON'),
    ],
    [
      'a 200 without a task ID',
      new UnexpectedResponseError(
        'Failed to submit the task: the service answered 200 without a task ID',
      ),
    ],
    [
      'a 200 over the size bound',
      new ResponseTooLargeError(
        'Failed to submit the task: the answer is larger than 4194304 bytes',
        4194304,
        'submit',
      ),
    ],
  ])(
    '%s leaves the outcome unknown: SubmissionUnconfirmedError with the request ID, 1 call, ' +
      'no resubmission',
    async (_name, error) => {
      const time = fakeTime();
      const { submit, ids } = script([error]);
      const thrown = await submitWithRetry(submit, {
        clientRequestId: REQUEST_ID,
        sleep: time.sleep,
      }).catch((e: unknown) => e);
      expect(thrown).toBeInstanceOf(SubmissionUnconfirmedError);
      expect(thrown).toMatchObject({ clientRequestId: REQUEST_ID, cause: error });
      expect((thrown as Error).message).toMatch(/req-7f3a.*may exist.*not resubmitted/);
      expect(ids).toEqual([REQUEST_ID]);
    },
  );

  it.each(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'])(
    '%s (nothing was sent) rethrows the ConnectionError unchanged, 1 call',
    async (code) => {
      const time = fakeTime();
      const error = connection(code);
      const { submit, ids } = script([error]);
      await expect(
        submitWithRetry(submit, { clientRequestId: REQUEST_ID, sleep: time.sleep }),
      ).rejects.toBe(error);
      expect(ids).toHaveLength(1);
    },
  );

  it('an AggregateError of refusals (one per address) counts as not sent', async () => {
    const error = new ConnectionError(
      'refused',
      new AggregateError([socketError('ECONNREFUSED'), socketError('ECONNREFUSED')]),
    );
    await expect(
      submitWithRetry(script([error]).submit, {
        clientRequestId: REQUEST_ID,
        sleep: fakeTime().sleep,
      }),
    ).rejects.toBe(error);
  });
});
