import { randomUUID } from 'node:crypto';
import {
  ApiError,
  SubmissionUnconfirmedError,
  type SubmitRequest,
  type VideoTaskClient,
} from '../../src/client/index.ts';
import type { JournalEntry } from '../../src/client/journal.ts';
import { retryHeaders, submitWithRetry } from '../../src/client/retry.ts';
import type { VideoTask } from '../../src/client/client-types.ts';
import { FileJournal } from '../../src/node/file-journal.ts';
import type { Command } from '../command.ts';
import { explain } from '../explain.ts';
import { checkJournalToWrite } from '../journal-path.ts';
import { parseFlags, UsageError } from '../options.ts';
import { SERVICE_FLAGS, SERVICE_HELP, clientFrom } from '../service-options.ts';
import { printErr, printOut } from '../output.ts';

const HELP =
  `Usage: videotask submit --model M --prompt P [options]

Submits one video generation task and prints its public task ID. A 429 is retried with backoff (§7);
a submission whose outcome is unknown (timeout, dropped connection, 5xx, or a 200 that is not a
readable task) is never resubmitted: it is reported, and journaled as unconfirmed.

Options:
  --model M             model name or alias (required)
  --prompt P            generation prompt, not empty (required)
  --image URL           a reference image URL (repeatable)
  --metadata JSON       channel parameters, e.g. '{"duration":5,"ratio":"16:9"}'
  --seconds S           generic duration field (some adapters only)
  --size WxH            generic size field (some adapters only)
  --endpoint E          generations (default, POST /v1/video/generations) or videos (POST /v1/videos)
  --journal FILE        record the client request ID, task ID and outcome (§8), so ` +
  `\`videotask wait --journal\` survives restarts
  --json                print the whole submission answer as JSON
${SERVICE_HELP}`;

export const submitCommand: Command = {
  name: 'submit',
  async run(argv) {
    const { values } = parse(argv);
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const { body, endpoint } = submissionOf(values);

    const client = clientFrom(values);
    if (values.journal !== undefined) await checkJournalToWrite(values.journal);
    const journal = values.journal === undefined ? undefined : new FileJournal(values.journal);
    const clientRequestId = `vt-${randomUUID()}`;
    const json = values.json === true;
    try {
      return await submitOnce(client, { body, endpoint, clientRequestId, journal, json });
    } finally {
      await journal?.close();
    }
  },
};

/** The submission the flags describe (exit 2 when one is missing or wrong). */
function submissionOf(values: ReturnType<typeof parse>['values']): {
  body: SubmitRequest;
  endpoint: 'generations' | 'videos';
} {
  if (values.model === undefined || values.model.trim() === '')
    throw new UsageError('--model is required');
  if (values.prompt === undefined || values.prompt.trim() === '')
    throw new UsageError('--prompt is required and must not be empty (§7)');
  const endpoint = values.endpoint ?? 'generations';
  if (endpoint !== 'generations' && endpoint !== 'videos')
    throw new UsageError(`--endpoint must be generations or videos, got "${endpoint}"`);
  const body: SubmitRequest = { model: values.model, prompt: values.prompt };
  const images = values.image ?? [];
  if (images.length === 1) body.image = images[0]!;
  else if (images.length > 1) body.images = images;
  if (values.metadata !== undefined) body.metadata = parseMetadata(values.metadata);
  if (values.seconds !== undefined) body.seconds = values.seconds;
  if (values.size !== undefined) body.size = values.size;
  return { body, endpoint };
}

/** One submission as the command makes it. */
interface Submission {
  readonly body: SubmitRequest;
  readonly endpoint: 'generations' | 'videos';
  /** The client's own request ID, sent as `X-Request-Id` and journaled before it is sent (§7). */
  readonly clientRequestId: string;
  readonly journal: FileJournal | undefined;
  readonly json: boolean;
}

/** Journals the attempt, submits with the §7 rules, journals and prints the outcome; the exit code. */
async function submitOnce(client: VideoTaskClient, submission: Submission): Promise<number> {
  const { body, endpoint, clientRequestId, journal, json } = submission;
  try {
    await journal?.append({ type: 'submitting', clientRequestId, model: body.model, endpoint });
  } catch (error) {
    printErr(`videotask submit: nothing was submitted: ${explain(error, undefined)}`);
    return 1;
  }
  let task: VideoTask;
  try {
    task = await submitWithRetry(
      (id, signal, retry = 0) =>
        client.submit(body, {
          endpoint,
          clientRequestId: id,
          signal,
          headers: retryHeaders(retry > 0),
        }),
      {
        clientRequestId,
        onRetry: (info) =>
          console.error(
            `rate limited (HTTP 429): retry ${info.retry} in ${(info.delayMs / 1000).toFixed(1)} s`,
          ),
      },
    );
  } catch (error) {
    printErr(`videotask submit: ${explain(error, client)}`);
    await record(journal, clientRequestId, error);
    return 1;
  }
  // The task exists whatever happens to the journal: its ID is printed either way.
  printOut(json ? JSON.stringify(task, null, 2) : task.id);
  try {
    const submitted = { clientRequestId, taskId: task.id, model: body.model };
    await journal?.append({ type: 'submitted', ...submitted });
  } catch (error) {
    printErr(
      `videotask submit: task ${task.id} was created, but the journal could ` +
        `not record it: ${explain(error, undefined)}\n  Keep the task ID printed ` +
        `above; follow it with \`videotask wait ${task.id}\`.`,
    );
    return 1;
  }
  return 0;
}

/** Records why a submission did not give a task; says so, and says if the journal could not. */
async function record(
  journal: FileJournal | undefined,
  clientRequestId: string,
  error: unknown,
): Promise<void> {
  const entry = outcomeEntry(clientRequestId, error);
  if (journal === undefined) {
    if (entry?.type === 'unconfirmed')
      printErr(
        `  No --journal was given: keep client request ID ${clientRequestId} to check it later.`,
      );
    return;
  }
  if (entry === undefined) return;
  try {
    await journal.append(entry);
  } catch (failure) {
    printErr(`  The journal ${journal.path} could not record it: ${(failure as Error).message}`);
    return;
  }
  if (entry.type === 'unconfirmed')
    printErr(
      `  The journal ${journal.path} marks client request ${clientRequestId} as unconfirmed.`,
    );
}

function outcomeEntry(clientRequestId: string, error: unknown): JournalEntry | undefined {
  if (error instanceof SubmissionUnconfirmedError)
    return { type: 'unconfirmed', clientRequestId, reason: error.message };
  if (error instanceof ApiError && error.status < 500)
    return {
      type: 'refused',
      clientRequestId,
      status: error.status,
      ...(error.code === undefined ? {} : { code: error.code }),
      message: error.message,
    };
  return undefined;
}

function parseMetadata(raw: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new UsageError(
      `--metadata must be a JSON object, e.g. '{"duration":5}': ${(error as Error).message}`,
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new UsageError('--metadata must be a JSON object, e.g. \'{"duration":5}\'');
  return value as Record<string, unknown>;
}

function parse(argv: readonly string[]) {
  return parseFlags(argv, {
    ...SERVICE_FLAGS,
    model: { type: 'string' },
    prompt: { type: 'string' },
    image: { type: 'string', multiple: true },
    metadata: { type: 'string' },
    seconds: { type: 'string' },
    size: { type: 'string' },
    endpoint: { type: 'string' },
    journal: { type: 'string' },
    json: { type: 'boolean' },
  });
}
