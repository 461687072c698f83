import { randomUUID } from 'node:crypto';
import {
  ApiError,
  SubmissionUnconfirmedError,
  type SubmitRequest,
  type VideoTaskClient,
} from '../../src/client/index.ts';
import { FileJournal } from '../../src/client/journal.ts';
import { submitWithRetry } from '../../src/client/retry.ts';
import type { Command } from '../commands.ts';
import { parseFlags } from '../options.ts';
import { SERVICE_FLAGS, SERVICE_HELP, clientFrom, explain } from '../service-options.ts';
import { UsageError } from '../usage-error.ts';

const HELP = `Usage: videotask submit --model M --prompt P [options]

Submits one video generation task and prints its public task ID. A 429 is retried with backoff (§7);
a submission whose outcome is unknown (timeout, dropped connection, 5xx) is never resubmitted.

Options:
  --model M             model name or alias (required)
  --prompt P            generation prompt, not empty (required)
  --image URL           a reference image URL (repeatable)
  --metadata JSON       channel parameters, e.g. '{"duration":5,"ratio":"16:9"}'
  --seconds S           generic duration field (some adapters only)
  --size WxH            generic size field (some adapters only)
  --endpoint E          generations (default, POST /v1/video/generations) or videos (POST /v1/videos)
  --journal FILE        record the request ID, task ID and outcome (§8), so \`videotask wait --journal\` survives restarts
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

    const client = clientFrom(values);
    const journal = values.journal === undefined ? undefined : new FileJournal(values.journal);
    const requestId = `vt-${randomUUID()}`;
    try {
      await journal?.append({ type: 'submitting', requestId, model: body.model, endpoint });
      const task = await submitWithRetry(
        (id, signal) => client.submit(body, { endpoint, requestId: id, signal }),
        {
          requestId,
          onRetry: (info) =>
            console.error(
              `rate limited (HTTP 429): retry ${info.retry} in ${(info.delayMs / 1000).toFixed(1)} s`,
            ),
        },
      );
      await journal?.append({ type: 'submitted', requestId, taskId: task.id, model: body.model });
      console.log(values.json ? JSON.stringify(task, null, 2) : task.id);
      return 0;
    } catch (error) {
      await record(journal, requestId, error);
      console.error(`videotask submit: ${explain(error, client as VideoTaskClient)}`);
      if (journal !== undefined && error instanceof SubmissionUnconfirmedError)
        console.error(`  The journal ${journal.path} marks request ${requestId} as unconfirmed.`);
      return 1;
    } finally {
      await journal?.close();
    }
  },
};

async function record(
  journal: FileJournal | undefined,
  requestId: string,
  error: unknown,
): Promise<void> {
  if (journal === undefined) return;
  if (error instanceof SubmissionUnconfirmedError)
    await journal.append({ type: 'unconfirmed', requestId, reason: error.message });
  else if (error instanceof ApiError && error.status < 500)
    await journal.append({
      type: 'refused',
      requestId,
      status: error.status,
      ...(error.code === undefined ? {} : { code: error.code }),
      message: error.message,
    });
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
