import {
  ApiError,
  AuthenticationError,
  ConnectionError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestTimeoutError,
  ServerError,
  SubmissionUnconfirmedError,
  UnsupportedRequestError,
  VideoTaskClient,
  redact,
} from '../src/client/index.ts';
import { REFUSED_5XX_CODES } from '../src/client/submission-outcome.ts';
import { UsageError } from './usage-error.ts';

/** The flags every service command takes. */
export const SERVICE_FLAGS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
} as const;

export const SERVICE_HELP = `  --base-url URL        the service (default http://127.0.0.1:4010, the local mock) [VIDEOTASK_BASE_URL]
  --api-key KEY         the API key [VIDEOTASK_API_KEY]`;

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';

/** A client for the service named by flags or `VIDEOTASK_*` variables. */
export function clientFrom(values: {
  'base-url'?: string | undefined;
  'api-key'?: string | undefined;
}): VideoTaskClient {
  const baseUrl = values['base-url'] ?? process.env['VIDEOTASK_BASE_URL'] ?? DEFAULT_BASE_URL;
  const apiKey = values['api-key'] ?? process.env['VIDEOTASK_API_KEY'];
  if (apiKey === undefined || apiKey === '')
    throw new UsageError(
      'an API key is needed: pass --api-key KEY or set VIDEOTASK_API_KEY (the mock accepts sk-mock-alice)',
    );
  try {
    return new VideoTaskClient({ baseUrl, apiKey });
  } catch (error) {
    throw new UsageError(redact((error as Error).message, [apiKey]));
  }
}

/** What failed, and what a person usually does next. Never contains a key. */
export function explain(error: unknown, client: VideoTaskClient | undefined): string {
  const message = error instanceof Error ? error.message : String(error);
  const base = client === undefined ? '' : ` at ${client.baseUrl}`;
  let next: string;
  if (error instanceof AuthenticationError) next = 'check --api-key / VIDEOTASK_API_KEY (§5).';
  else if (error instanceof PermissionDeniedError)
    next =
      'the token or its group may not use this model, or the quota is spent: ask an administrator (§5, §7). Do not retry as is.';
  else if (error instanceof NotFoundError)
    next =
      'no such task for this key: tasks are visible only to the user that submitted them (§5).';
  else if (error instanceof RateLimitError)
    next = 'the service is rate limiting; try again later (§7 asks for exponential backoff).';
  else if (error instanceof UnsupportedRequestError) next = 'send a smaller JSON body (§4.1).';
  else if (
    error instanceof ServerError &&
    error.code !== undefined &&
    REFUSED_5XX_CODES.has(error.code)
  )
    next =
      'the model is unknown or has no channel for your group: check the name against `/v1/models`, or ask an administrator to open it (§5). Do not retry as is.';
  else if (error instanceof ServerError)
    next = 'a temporary service error: retry the same query later; do not create a new task (§7).';
  else if (error instanceof ApiError)
    next =
      'fix the request (model, prompt, parameters) before trying again; a 4xx is not retried (§7).';
  else if (error instanceof SubmissionUnconfirmedError)
    next = `the task may or may not exist. Do NOT resubmit blindly (§7): look for request ID ${error.requestId} in your journal or with the service's administrator, and use \`videotask wait --journal FILE\` to pick up tasks the journal knows.`;
  else if (error instanceof RequestTimeoutError)
    next = `no answer in time${base}; try again later.`;
  else if (error instanceof ConnectionError)
    next = `is the service${base} up? (\`npm start\` runs the local mock)`;
  else next = 'this is unexpected; please report it with the command you ran.';
  return `${message}\n  → ${next}`;
}
