import { ApiError, SubmissionUnconfirmedError } from '../../src/client/index.ts';

/** The ApiError behind an error (an unconfirmed submission keeps it as its cause). */
export function apiErrorOf(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof SubmissionUnconfirmedError && error.cause instanceof ApiError)
    return error.cause;
  return undefined;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
