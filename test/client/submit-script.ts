import {
  ConnectionError,
  RateLimitError,
  type ApiError,
  type ApiErrorOptions,
} from '../../src/client/errors.ts';
import type { Submit } from '../../src/client/retry.ts';
import type { VideoTask } from '../../src/client/client-types.ts';

/** What the submission tests share: the accepted task and the client's own request ID. */
export const TASK: VideoTask = {
  id: 'task_1',
  task_id: 'task_1',
  object: 'video',
  model: 'video-pro-v1',
  status: 'queued',
  progress: 0,
  created_at: 1,
};
export const REQUEST_ID = 'req-7f3a';

type ApiErrorClass<E extends ApiError> = new (message: string, options: ApiErrorOptions) => E;

/** A refusal as the client throws it: no body, no request ID. */
export function refusal<E extends ApiError>(
  Class: ApiErrorClass<E>,
  message: string,
  status: number,
  code?: string,
): E {
  return new Class(message, { status, code });
}

export const rateLimited = (retryAfterMs?: number): RateLimitError =>
  new RateLimitError('Failed to submit: too many requests (HTTP 429)', {
    status: 429,
    retryAfterMs,
  });

export const socketError = (code: string): Error =>
  Object.assign(new Error(`connect ${code}`), { code });

/** fetch's shape: TypeError('fetch failed') whose cause is the socket error. */
export const connection = (code: string): ConnectionError =>
  new ConnectionError(
    `Failed to submit: ${code}`,
    new TypeError('fetch failed', { cause: socketError(code) }),
  );

/**
 * A fake submission: throws the answers in order, then returns the task; logs the request IDs it
 * got.
 */
export function script(answers: readonly Error[]): { submit: Submit; ids: string[] } {
  const ids: string[] = [];
  const submit: Submit = (requestId) => {
    const answer = answers[ids.length];
    ids.push(requestId);
    if (answer !== undefined) return Promise.reject(answer);
    return Promise.resolve(TASK);
  };
  return { submit, ids };
}
