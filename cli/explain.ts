import {
  ApiError,
  ConnectionError,
  JournalError,
  RequestTimeoutError,
  ResponseTooLargeError,
  SubmissionUnconfirmedError,
  UnexpectedResponseError,
  type VideoTaskClient,
} from '../src/client/index.ts';
import { relative, isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shellWord } from './output.ts';

/** Where this CLI runs: from this checkout's TypeScript sources, or from an installed package. */
export interface RunningFrom {
  readonly fromSources: boolean;
  /** The folder of the package (this checkout, or `node_modules/videotask`). */
  readonly root: string;
  readonly cwd: string;
}

const HERE: RunningFrom = {
  fromSources: import.meta.url.endsWith('.ts'),
  root: fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '..' : '../..', import.meta.url)),
  cwd: process.cwd(),
};

/**
 * The command that starts the local mock (issue 35): `npm start` only inside this checkout, where
 * package.json's start script is; in a project that installed the package, `npx videotask mock`.
 */
export function localMockCommand(from: RunningFrom = HERE): string {
  const inside = relative(from.root, from.cwd);
  const inCheckout = from.fromSources && !inside.startsWith('..') && !isAbsolute(inside);
  return inCheckout ? 'npm start' : 'npx videotask mock';
}

/**
 * What failed, and what a person usually does next. A refused request takes its hint from
 * `ApiError.hint` (chosen by operation, status and code, `src/client/error-hints.ts`); with the task
 * ID the command was given, the `ID` of a command in the hint becomes that ID. Never contains a key;
 * the caller strips control characters when printing (`printable`).
 */
export function explain(
  error: unknown,
  client: VideoTaskClient | undefined,
  taskId?: string,
): string {
  const message = error instanceof Error ? error.message : String(error);
  const step = nextStep(error, client === undefined ? '' : ` at ${client.baseUrl}`);
  return `${message}\n  → ${taskId === undefined ? step : withTaskId(step, taskId)}`;
}

/** `videotask wait ID` in a hint, with the real ID: a command to paste. */
function withTaskId(hint: string, taskId: string): string {
  return hint.replace(/`videotask [^`]*`/g, (command) =>
    command.replace(/\bID\b/g, () => shellWord(taskId)),
  );
}

function nextStep(error: unknown, at: string): string {
  if (error instanceof ApiError) return error.hint;
  if (error instanceof SubmissionUnconfirmedError) return unconfirmedStep(error);
  if (error instanceof ResponseTooLargeError)
    return error.operation === 'content'
      ? 'raise --max-bytes if the video really is that large; nothing was kept.'
      : `no answer of the service is that large: check that the base URL${at} is the service (§1).`;
  if (error instanceof JournalError)
    return error.line === undefined
      ? 'give the journal file written by `videotask submit --journal`.'
      : `nothing was changed or dropped: repair or move line ${error.line} by ` +
          `hand (keep a copy), then run the command again.`;
  if (error instanceof UnexpectedResponseError)
    return (
      `the answer${at} does not follow the service's contract: check the base ` +
      `URL, and report it to the service's administrator with the request ID ` +
      `if it persists.`
    );
  if (error instanceof RequestTimeoutError) return `no answer in time${at}; try again later.`;
  if (error instanceof ConnectionError)
    return `is the service${at} up? (\`${localMockCommand()}\` runs the local mock)`;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code))
    return `a file system error (${code}): check the path, its directory and their permissions.`;
  return 'this is unexpected; please report it with the command you ran.';
}

function unconfirmedStep(error: SubmissionUnconfirmedError): string {
  const cause = error.cause as { meta?: { serviceRequestId?: string } } | undefined;
  const serviceId = cause?.meta?.serviceRequestId;
  const quote = serviceId === undefined ? '' : ` (the service's request ID: ${serviceId})`;
  return (
    `the task may or may not exist. Do NOT resubmit blindly (§7): look for ` +
    `client request ID ${error.clientRequestId}${quote} in your journal or with the ` +
    `service's administrator, and use \`videotask wait --journal FILE\` to ` +
    `pick up tasks the journal knows.`
  );
}
