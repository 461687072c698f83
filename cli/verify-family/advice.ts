/**
 * What an administrator usually checks next, by what failed in §9 steps 3–5, and the facts of an error
 * the advice and the record are chosen by. Exported for the tests and docs/admin.md.
 */
import {
  ApiError,
  AuthenticationError,
  ConnectionError,
  PermissionDeniedError,
  RateLimitError,
  SubmissionUnconfirmedError,
} from '../../src/client/index.ts';
import { SECOND_FAMILY } from '../../src/spec/second-family.ts';

/** The enabled plugin version, as the service document states it (§1). */
const PLUGIN_VERSION = SECOND_FAMILY.pluginVersion;
const PLUGIN_CHANNEL = SECOND_FAMILY.pluginChannelType;
const BUILT_IN_CHANNEL = SECOND_FAMILY.builtInChannelType;

/** `HTTP 403 (code)` or `HTTP 403`: the status and, when the service sent one, its error code. */
const statusWithCode = (status: number, code: string | undefined): string =>
  code === undefined ? `HTTP ${status}` : `HTTP ${status} (${code})`;

export const ADVICE = {
  notListed:
    '§9 steps 1–2: bind the video channel to the plugin with a plugin channel ' +
    `(type ${PLUGIN_CHANNEL}) using the enabled plugin version (${PLUGIN_VERSION}); do not replace ` +
    'the execution method on an old channel that still has tasks in progress; open the model to ' +
    "the token's group; grant the test token the model; configure its price. Then run " +
    'verify-family again.',
  catalogForbidden:
    "the token may not read /v1/models: check the test token's permissions (§5); §9 step 3 needs a " +
    'separate test token that sees the catalog.',
  catalogUnreadable:
    'the catalog could not be read, so nothing was submitted: check that the gateway answers ' +
    'GET /v1/models (§4) and run verify-family again.',
  unconfirmed: (clientRequestId: string) =>
    `the submission could not be confirmed (client request ID ${clientRequestId}): a task may exist and be ` +
    'charged. Do not run verify-family again for this model before looking that request ID up in ' +
    "the administrator console's task log (§7: check it against the client's own records).",
  rateLimited:
    'HTTP 429: quota or rate limit, still refused after the §7 backoff. Nothing was created: check ' +
    "the test token's quota and the upstream's rate limit, then try again later.",
  failToFetchTask:
    'fail_to_fetch_task: the upstream refused the model. Check the binding (§9 step 1: a plugin ' +
    `channel of type ${PLUGIN_CHANNEL} with the enabled plugin version ${PLUGIN_VERSION}, not the ` +
    `built-in type-${BUILT_IN_CHANNEL} channel) and the upstream request format (§9 step 2; the ` +
    'OpenAI form goes to POST /v1/videos, the native format to the plugin path, never mixed, §4.5).',
  modelNotFound:
    "model_not_found: no channel serves the model for the token's group. Open the model to the group " +
    "and add it to the plugin channel's models (§9 step 2, §5).",
  modelPrice: 'model_price_error: the model has no price. Configure its price (§9 step 2).',
  forbidden: (code: string | undefined) =>
    `${statusWithCode(403, code)}: the token may not use the model, or its quota is spent. Grant ` +
    'the test token the model and check its quota (§5, §9 step 2).',
  invalidSeconds:
    'invalid_seconds: the duration was refused. Pass a duration the family accepts with --seconds N ' +
    '(§8: the permitted values are not shown) and check the upstream request format (§9 step 2).',
  keyRefused: 'HTTP 401: the key was refused (§5): check --api-key.',
  notSent:
    'the service could not be reached, so nothing was sent: run verify-family again when it is ' +
    'reachable.',
  refused: (status: number, code: string | undefined) =>
    `${statusWithCode(status, code)}: the submission was refused and nothing was created. Check the ` +
    "model's configuration and the upstream request format (§9 step 2) and the parameters sent (§7).",
  unexpected: 'unexpected: keep this record and report it with the command you ran.',
  taskFailed: (code: string) =>
    `the task failed with ${code}. Keep this record (§9 step 5) and investigate by the task's error ` +
    'message (§7): a failure after acceptance comes from the upstream (account, content, ' +
    'parameters); check in the administrator console whether the failed task was charged. The task ' +
    'was not resubmitted.',
  pollTimedOut: (taskId: string, last: string | undefined) =>
    'the task did not reach completed or failed within the polling limits (last status ' +
    `${last ?? 'none read'}). It was not resubmitted: follow it with \`videotask wait ${taskId}\`, ` +
    'keep this record and investigate (§9 step 5).',
  pollNotFound: (taskId: string) =>
    `the service does not show task ${taskId} to the token that submitted it (§5): check the ` +
    "gateway's task table for it, keep this record and investigate (§9 step 5). It was not " +
    'resubmitted.',
  pollError: (taskId: string) =>
    'the status query failed: keep this record and investigate by the message (§9 step 5). The task ' +
    `was not resubmitted; follow it with \`videotask wait ${taskId}\`.`,
  interrupted: (taskId: string) =>
    `interrupted: the task goes on. Follow it with \`videotask wait ${taskId}\` and keep this record ` +
    '(§9 step 5).',
  download: (taskId: string) =>
    "the download through /content failed (§4.4): check the deployment's content path (the channel " +
    'fetching the upstream result, its temporary URL, which expires, redirects, the upstream ' +
    'storage). The task itself completed: download it again with ' +
    `\`videotask download ${taskId} -o FILE\`.`,
  notVideo:
    'the content endpoint did not answer a video (§4.4): check the content path: the gateway must ' +
    "stream the upstream's video, not a page or an error body.",
} as const;

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
