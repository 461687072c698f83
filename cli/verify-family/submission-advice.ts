import {
  AuthenticationError,
  ConnectionError,
  PermissionDeniedError,
  RateLimitError,
  SubmissionUnconfirmedError,
} from '../../src/client/index.ts';
import { ADVICE } from './advice.ts';
import { apiErrorOf } from './error-facts.ts';

/** Advice for a refused submission, by error code where the service sent a known one (§7, §9). */
const BY_CODE: ReadonlyMap<string, string> = new Map([
  ['fail_to_fetch_task', ADVICE.failToFetchTask],
  ['model_not_found', ADVICE.modelNotFound],
  ['model_price_error', ADVICE.modelPrice],
  ['invalid_seconds', ADVICE.invalidSeconds],
]);

/** What to check next after a submission that created no confirmed task. */
export function submissionAdvice(error: unknown): string {
  if (error instanceof SubmissionUnconfirmedError) return ADVICE.unconfirmed(error.clientRequestId);
  if (error instanceof RateLimitError) return ADVICE.rateLimited;
  const api = apiErrorOf(error);
  const byCode = api?.code === undefined ? undefined : BY_CODE.get(api.code);
  if (byCode !== undefined) return byCode;
  if (error instanceof PermissionDeniedError) return ADVICE.forbidden(error.code);
  if (error instanceof AuthenticationError) return ADVICE.keyRefused;
  if (error instanceof ConnectionError) return ADVICE.notSent;
  if (api !== undefined) return ADVICE.refused(api.status, api.code);
  return ADVICE.unexpected;
}
