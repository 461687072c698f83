import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import {
  ApiError,
  AuthenticationError,
  ConnectionError,
  NotFoundError,
  PermissionDeniedError,
  PollTimeoutError,
  RateLimitError,
  SubmissionUnconfirmedError,
  redact,
  type PollOptions,
  type VideoTaskClient,
} from '../src/client/index.ts';
import { pollTask } from '../src/client/poller.ts';
import { submitWithRetry } from '../src/client/retry.ts';
import type { VideoTask } from '../src/spec/index.ts';
import { videoSignature } from '../src/media/video-signature.ts';

/**
 * §9 steps 3–5 for one model of the second family: the catalog check, one short task, its final state,
 * the download through `/content`, whatever usage or charge the service exposes, and the record of it
 * all. Never submits more than once (a 429 is retried with the same request ID, §7; an unconfirmed
 * submission is not), never calls anything but the service's documented endpoints (and, when asked,
 * the plugin's native status path).
 */

export type StepOutcome = 'passed' | 'failed' | 'skipped';

export const STEPS = {
  catalog: { step: 3, name: 'catalog lists the model' },
  submit: { step: 3, name: 'submit one short task' },
  poll: { step: 4, name: 'poll to the final state' },
  download: { step: 4, name: 'download through /content' },
  video: { step: 4, name: 'check that it is a video' },
  usage: { step: 4, name: 'usage and charge' },
  record: { step: 5, name: 'verification record' },
} as const;
export type StepKey = keyof typeof STEPS;

export interface StepResult {
  readonly step: 3 | 4 | 5;
  readonly name: string;
  outcome: StepOutcome;
  detail: string;
}

export interface UsageFinding {
  /** `null`: not looked for (the task never reached a final state). */
  exposed: boolean | null;
  detail: string;
  /** Raw fields by where they were found (`wrapper.data.quota`, `task.usage`, `native.usage`). */
  fields: Record<string, unknown>;
}

/** One model's verification record (the JSON `models[]` item). Never holds a key. */
export interface ModelVerification {
  model: string;
  /** ISO time this model's verification started. */
  date: string;
  baseUrl: string;
  /** The client's own request ID sent as `X-Request-Id` with the one submission (§7, §8). */
  requestId: string | null;
  taskId: string | null;
  finalStatus: string | null;
  timings: { submitMs: number | null; toFinalStateMs: number | null; downloadMs: number | null };
  bytes: number | null;
  sha256: string | null;
  contentType: string | null;
  containerSignature: string | null;
  steps: StepResult[];
  httpStatus: number | null;
  errorCode: string | null;
  /** Redacted. */
  errorMessage: string | null;
  usage: UsageFinding;
  failedStep: { step: number; name: string } | null;
  /** What an administrator usually checks next, for the first failed step. */
  advice: string | null;
  ok: boolean;
}

/** `/v1/models` as read once per run. */
export type CatalogCheck =
  | { readonly ok: true; readonly ids: ReadonlySet<string> }
  | { readonly ok: false; readonly error: unknown };

export interface VerifySettings {
  /** `metadata.duration` of the one task. */
  readonly seconds: number;
  /** Whether the administrator passed `--seconds` (otherwise the value is an assumption). */
  readonly secondsGiven: boolean;
  readonly prompt: string;
  readonly poll: Omit<PollOptions, 'signal' | 'onUpdate' | 'stopOn'>;
  readonly dryRun: boolean;
  /** Strings to mask in everything recorded (the API key). */
  readonly secrets: readonly string[];
  /** Reads the plugin's native status path once (`--plugin-name`), for its `usage`. */
  readonly native?: ((taskId: string, signal: AbortSignal) => Promise<unknown>) | undefined;
  readonly signal: AbortSignal;
  readonly log: (model: string, text: string) => void;
}

export const PLUGIN_VERSION = '1.0.5';

/** The advice texts, by what failed. Exported for the tests and the README. */
export const ADVICE = {
  notListed: `§9 steps 1–2: bind the video channel to the plugin with a plugin channel (type 61) using the enabled plugin version (${PLUGIN_VERSION}); do not replace the execution method on an old channel that still has tasks in progress; open the model to the token's group; grant the test token the model; configure its price. Then run verify-family again.`,
  catalogForbidden:
    "the token may not read /v1/models: check the test token's permissions (§5); §9 step 3 needs a separate test token that sees the catalog.",
  catalogUnreadable:
    'the catalog could not be read, so nothing was submitted: check that the gateway answers GET /v1/models (§4) and run verify-family again.',
  unconfirmed: (requestId: string) =>
    `the submission could not be confirmed (request ID ${requestId}): a task may exist and be charged. Do not run verify-family again for this model before looking that request ID up in the administrator console's task log (§7: check it against the client's own records).`,
  rateLimited:
    "HTTP 429: quota or rate limit, still refused after the §7 backoff. Nothing was created: check the test token's quota and the upstream's rate limit, then try again later.",
  failToFetchTask: `fail_to_fetch_task: the upstream refused the model. Check the binding (§9 step 1: a plugin channel of type 61 with the enabled plugin version ${PLUGIN_VERSION}, not the built-in type-54 channel) and the upstream request format (§9 step 2; the OpenAI form goes to POST /v1/videos, the native format to the plugin path, never mixed, §4.5).`,
  modelNotFound:
    "model_not_found: no channel serves the model for the token's group. Open the model to the group and add it to the plugin channel's models (§9 step 2, §5).",
  modelPrice: 'model_price_error: the model has no price. Configure its price (§9 step 2).',
  forbidden: (code: string | undefined) =>
    `HTTP 403${code === undefined ? '' : ` (${code})`}: the token may not use the model, or its quota is spent. Grant the test token the model and check its quota (§5, §9 step 2).`,
  invalidSeconds:
    'invalid_seconds: the duration was refused. Pass a duration the family accepts with --seconds N (§8: the permitted values are not shown) and check the upstream request format (§9 step 2).',
  keyRefused: 'HTTP 401: the key was refused (§5): check --api-key.',
  notSent:
    'the service could not be reached, so nothing was sent: run verify-family again when it is reachable.',
  refused: (status: number, code: string | undefined) =>
    `HTTP ${status}${code === undefined ? '' : ` (${code})`}: the submission was refused and nothing was created. Check the model's configuration and the upstream request format (§9 step 2) and the parameters sent (§7).`,
  taskFailed: (code: string) =>
    `the task failed with ${code}. Keep this record (§9 step 5) and investigate by the task's error message (§7): a failure after acceptance comes from the upstream (account, content, parameters); check in the administrator console whether the failed task was charged. The task was not resubmitted.`,
  pollTimedOut: (taskId: string, last: string | undefined) =>
    `the task did not reach completed or failed within the polling limits (last status ${last ?? 'none read'}). It was not resubmitted: follow it with \`videotask wait ${taskId}\`, keep this record and investigate (§9 step 5).`,
  pollNotFound: (taskId: string) =>
    `the service does not show task ${taskId} to the token that submitted it (§5): check the gateway's task table for it, keep this record and investigate (§9 step 5). It was not resubmitted.`,
  pollError: (taskId: string) =>
    `the status query failed: keep this record and investigate by the message (§9 step 5). The task was not resubmitted; follow it with \`videotask wait ${taskId}\`.`,
  interrupted: (taskId: string) =>
    `interrupted: the task goes on. Follow it with \`videotask wait ${taskId}\` and keep this record (§9 step 5).`,
  download: (taskId: string) =>
    `the download through /content failed (§4.4): check the deployment's content path (the channel fetching the upstream result, its temporary URL, which expires, redirects, the upstream storage). The task itself completed: download it again with \`videotask download ${taskId} -o FILE\`.`,
  notVideo:
    "the content endpoint did not answer a video (§4.4): check the content path: the gateway must stream the upstream's video, not a page or an error body.",
} as const;

export const NO_USAGE =
  "the service exposes no usage or charge information (the document doesn't show it, §4; §2.3 names quota without showing its fields): check actual usage and the final charge in the administrator console (§9 step 4)";

/** Field names read as usage or charge information wherever they appear (never invented, reported raw). */
const USAGE_KEYS = /^(usage|quota|cost|charge|charges|billing|price)$/i;

/** Verifies one model; never throws for a service failure (it is recorded). */
export async function verifyModel(
  client: VideoTaskClient,
  model: string,
  catalog: CatalogCheck,
  settings: VerifySettings,
): Promise<ModelVerification> {
  const { signal, secrets } = settings;
  const log = (text: string) => settings.log(model, text);
  const record = emptyRecord(model, client.baseUrl, settings.dryRun);
  const step = (key: StepKey) => record.steps.find((s) => s.name === STEPS[key].name)!;
  const pass = (key: StepKey, detail: string) =>
    Object.assign(step(key), { outcome: 'passed', detail });
  const fail = (key: StepKey, detail: string, advice: string, error?: unknown) => {
    Object.assign(step(key), { outcome: 'failed', detail: redact(detail, secrets) });
    if (record.failedStep === null) {
      record.failedStep = { step: STEPS[key].step, name: STEPS[key].name };
      record.advice = advice;
    }
    if (error !== undefined) {
      const api = apiErrorOf(error);
      record.httpStatus ??= api?.status ?? null;
      record.errorCode ??= api?.code ?? null;
      record.errorMessage ??= redact(messageOf(error), secrets);
    }
    log(`step ${STEPS[key].step} failed (${STEPS[key].name}): ${redact(detail, secrets)}`);
  };
  const skipRest = (why: string) => {
    for (const s of record.steps)
      if (s.outcome === 'skipped' && s.detail === NOT_REACHED) s.detail = why;
  };

  // Step 3: the catalog lists the model for this token.
  if (!catalog.ok) {
    const forbidden = catalog.error instanceof PermissionDeniedError;
    fail(
      'catalog',
      `GET /v1/models failed: ${messageOf(catalog.error)}`,
      forbidden ? ADVICE.catalogForbidden : ADVICE.catalogUnreadable,
      catalog.error,
    );
    skipRest('not reached: the catalog could not be read; nothing was submitted');
    return finish(record);
  }
  if (!catalog.ids.has(model)) {
    const others = [...catalog.ids];
    fail(
      'catalog',
      `/v1/models does not list ${model} for this token (it lists ${others.length === 0 ? 'no model' : others.slice(0, 12).join(', ')}${others.length > 12 ? ', …' : ''})`,
      ADVICE.notListed,
    );
    skipRest('not reached: the model is not listed for this token; nothing was submitted');
    return finish(record);
  }
  pass('catalog', `/v1/models lists ${model} for this token`);
  log('step 3: listed by /v1/models');
  if (settings.dryRun) {
    skipRest('--dry-run: only the catalog check; nothing was submitted');
    return finish(record);
  }

  // Step 3: one short task, through the entry the second family uses (§4).
  const requestId = `vf-${randomUUID()}`;
  record.requestId = requestId;
  const body = { model, prompt: settings.prompt, metadata: { duration: settings.seconds } };
  const submittedAt = performance.now();
  let task: VideoTask;
  try {
    task = await submitWithRetry(
      (id, s) => client.submit(body, { endpoint: 'videos', requestId: id, signal: s }),
      {
        requestId,
        signal,
        onRetry: (info) =>
          log(
            `rate limited (HTTP 429): retry ${info.retry} of the same submission in ${(info.delayMs / 1000).toFixed(1)} s (§7)`,
          ),
      },
    );
  } catch (error) {
    record.timings.submitMs = elapsed(submittedAt);
    if (signal.aborted) {
      fail('submit', 'interrupted during the submission', ADVICE.unconfirmed(requestId), error);
      skipRest('not reached: interrupted');
      return finish(record);
    }
    fail(
      'submit',
      `POST /v1/videos was refused: ${messageOf(error)}`,
      submissionAdvice(error),
      error,
    );
    skipRest(
      error instanceof SubmissionUnconfirmedError
        ? 'not reached: the submission could not be confirmed'
        : 'not reached: the submission was refused; nothing was created',
    );
    return finish(record);
  }
  record.timings.submitMs = elapsed(submittedAt);
  record.taskId = task.id;
  const duration = `metadata.duration ${settings.seconds} s${settings.secondsGiven ? ' (given with --seconds)' : " (an assumption: the document does not show the family's durations, §8; pass --seconds N to state it)"}`;
  pass(
    'submit',
    `POST /v1/videos accepted task ${task.id} (status ${task.status}) in ${record.timings.submitMs} ms; ${duration}; request ID ${requestId}`,
  );
  log(`step 3: submitted ${task.id} (${task.status}) in ${record.timings.submitMs} ms`);

  // Step 4: the final state, with the §8 loop.
  const accepted = performance.now();
  let final: VideoTask;
  let attempts: number;
  let lastShown = '';
  try {
    ({ task: final, attempts } = await pollTask(
      (id, s) => client.getVideo(id, { signal: s }),
      task.id,
      {
        ...settings.poll,
        signal,
        onUpdate: (t) => {
          const shown = `${t.status} ${t.progress}%`;
          if (shown !== lastShown) log(`${t.id} ${shown}`);
          lastShown = shown;
        },
      },
    ));
  } catch (error) {
    record.timings.toFinalStateMs = elapsed(accepted);
    if (signal.aborted)
      fail('poll', `interrupted while polling ${task.id}`, ADVICE.interrupted(task.id), error);
    else if (error instanceof PollTimeoutError)
      fail('poll', messageOf(error), ADVICE.pollTimedOut(task.id, error.lastStatus), error);
    else if (error instanceof NotFoundError || apiErrorOf(error)?.code === 'task_not_exist')
      fail('poll', messageOf(error), ADVICE.pollNotFound(task.id), error);
    else fail('poll', messageOf(error), ADVICE.pollError(task.id), error);
    record.finalStatus = error instanceof PollTimeoutError ? (error.lastStatus ?? null) : null;
    skipRest('not reached: the task has no final state yet');
    return finish(record);
  }
  record.timings.toFinalStateMs = elapsed(accepted);
  record.finalStatus = final.status;
  if (final.status === 'failed') {
    const code = final.error?.code ?? '(no error code)';
    record.errorCode = final.error?.code ?? null;
    record.errorMessage = redact(final.error?.message ?? '', secrets);
    fail(
      'poll',
      `task ${final.id} failed after ${attempts} queries: ${code}: ${record.errorMessage}`,
      ADVICE.taskFailed(code),
    );
    const s = step('download');
    s.detail = 'not reached: the task failed, there is no video (§3 rule 2)';
    step('video').detail = s.detail;
  } else {
    pass(
      'poll',
      `${final.id} completed after ${attempts} queries, ${record.timings.toFinalStateMs} ms after its submission`,
    );
    log(`step 4: completed after ${attempts} queries`);
    await download(client, final.id, record, settings, pass, fail);
  }

  // Step 4: whatever usage or charge information the service exposes, read raw.
  record.usage = await findUsage(client, final, settings);
  Object.assign(step('usage'), {
    outcome: record.usage.exposed ? 'passed' : 'skipped',
    detail: record.usage.detail,
  });
  log(`step 4: ${record.usage.detail}`);
  return finish(record);
}

async function download(
  client: VideoTaskClient,
  taskId: string,
  record: ModelVerification,
  settings: VerifySettings,
  pass: (key: StepKey, detail: string) => void,
  fail: (key: StepKey, detail: string, advice: string, error?: unknown) => void,
): Promise<void> {
  const head = new HeadSink(64);
  const started = performance.now();
  let result;
  try {
    result = await client.downloadContent(taskId, { to: head, signal: settings.signal });
  } catch (error) {
    record.timings.downloadMs = elapsed(started);
    fail(
      'download',
      `GET /v1/videos/${taskId}/content failed: ${messageOf(error)}`,
      settings.signal.aborted ? ADVICE.interrupted(taskId) : ADVICE.download(taskId),
      error,
    );
    record.steps.find((s) => s.name === STEPS.video.name)!.detail =
      'not reached: the download failed';
    return;
  }
  record.timings.downloadMs = elapsed(started);
  record.bytes = result.bytes;
  record.sha256 = result.sha256;
  record.contentType = result.contentType;
  pass(
    'download',
    `GET /v1/videos/${taskId}/content: ${result.bytes} bytes of ${result.contentType} in ${record.timings.downloadMs} ms`,
  );
  const signature = videoSignature(head.bytes());
  record.containerSignature = signature ?? null;
  if (signature !== undefined && result.bytes > 0)
    pass('video', `${signature}, ${result.bytes} bytes, sha256 ${result.sha256}`);
  else
    fail(
      'video',
      `${result.bytes} bytes of ${result.contentType} without a video container signature (ISO BMFF, Matroska/WebM or AVI)`,
      ADVICE.notVideo,
    );
  settings.log(
    record.model,
    `step 4: downloaded ${result.bytes} bytes, ${signature ?? 'no video signature'}, sha256 ${result.sha256}`,
  );
}

/** Looks for usage or charge fields on the OpenAI form, the wrapper and (when asked) the native path; reports them raw. */
async function findUsage(
  client: VideoTaskClient,
  final: VideoTask,
  settings: VerifySettings,
): Promise<UsageFinding> {
  const fields: Record<string, unknown> = {};
  const notes: string[] = [];
  collectUsage('task', final, fields, settings.secrets);
  try {
    collectUsage(
      'wrapper',
      await client.getWrapper(final.id, { signal: settings.signal }),
      fields,
      settings.secrets,
    );
  } catch (error) {
    notes.push(
      `the wrapper (GET /v1/video/generations/${final.id}) could not be read: ${redact(messageOf(error), settings.secrets)}`,
    );
  }
  if (settings.native !== undefined) {
    try {
      collectUsage(
        'native',
        await settings.native(final.id, settings.signal),
        fields,
        settings.secrets,
      );
    } catch (error) {
      notes.push(
        `the native status path could not be read: ${redact(messageOf(error), settings.secrets)}`,
      );
    }
  }
  const names = Object.keys(fields);
  const found =
    names.length === 0
      ? NO_USAGE
      : `the service exposes ${names.map((n) => `${n} = ${JSON.stringify(fields[n])}`).join('; ')} (raw, as the service reports them: the document shows neither these fields nor their units, §2.3, §4.5)`;
  return { exposed: names.length > 0, detail: [found, ...notes].join('; '), fields };
}

function collectUsage(
  prefix: string,
  value: unknown,
  into: Record<string, unknown>,
  secrets: readonly string[],
  depth = 0,
): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || depth > 4) return;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const path = `${prefix}.${key}`;
    if (USAGE_KEYS.test(key) && v !== undefined && v !== null && v !== '')
      into[path] = redactDeep(v, secrets);
    else collectUsage(path, v, into, secrets, depth + 1);
  }
}

export function submissionAdvice(error: unknown): string {
  if (error instanceof SubmissionUnconfirmedError) return ADVICE.unconfirmed(error.requestId);
  if (error instanceof RateLimitError) return ADVICE.rateLimited;
  const api = apiErrorOf(error);
  if (api?.code === 'fail_to_fetch_task') return ADVICE.failToFetchTask;
  if (api?.code === 'model_not_found') return ADVICE.modelNotFound;
  if (api?.code === 'model_price_error') return ADVICE.modelPrice;
  if (api?.code === 'invalid_seconds') return ADVICE.invalidSeconds;
  if (error instanceof PermissionDeniedError) return ADVICE.forbidden(error.code);
  if (error instanceof AuthenticationError) return ADVICE.keyRefused;
  if (error instanceof ConnectionError) return ADVICE.notSent;
  if (api !== undefined) return ADVICE.refused(api.status, api.code);
  return 'unexpected: keep this record and report it with the command you ran.';
}

const NOT_REACHED = 'not reached: an earlier step failed';

function emptyRecord(model: string, baseUrl: string, dryRun: boolean): ModelVerification {
  return {
    model,
    date: new Date().toISOString(),
    baseUrl,
    requestId: null,
    taskId: null,
    finalStatus: null,
    timings: { submitMs: null, toFinalStateMs: null, downloadMs: null },
    bytes: null,
    sha256: null,
    contentType: null,
    containerSignature: null,
    steps: Object.values(STEPS).map((s) => ({
      step: s.step,
      name: s.name,
      outcome: 'skipped' as StepOutcome,
      detail: NOT_REACHED,
    })),
    httpStatus: null,
    errorCode: null,
    errorMessage: null,
    usage: {
      exposed: null,
      detail: dryRun
        ? '--dry-run: not looked for'
        : 'not looked for: the task reached no final state',
      fields: {},
    },
    failedStep: null,
    advice: null,
    ok: false,
  };
}

/** Sets `ok` (no step failed); step 5 is filled in by the caller once it knows where the record goes. */
function finish(record: ModelVerification): ModelVerification {
  record.ok = record.steps.every((s) => s.outcome !== 'failed');
  return record;
}

/** The ApiError behind an error (an unconfirmed submission keeps it as its cause). */
function apiErrorOf(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof SubmissionUnconfirmedError && error.cause instanceof ApiError)
    return error.cause;
  return undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function elapsed(since: number): number {
  return Math.round(performance.now() - since);
}

function redactDeep(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redact(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, secrets));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v, secrets)]));
  return value;
}

/** A sink that keeps the first `limit` bytes (for the container signature) and drops the rest. */
class HeadSink extends Writable {
  readonly #chunks: Buffer[] = [];
  #kept = 0;

  constructor(readonly limit: number) {
    super();
  }

  override _write(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error | null) => void,
  ): void {
    if (this.#kept < this.limit) {
      const part = chunk.subarray(0, this.limit - this.#kept);
      this.#chunks.push(part);
      this.#kept += part.byteLength;
    }
    callback();
  }

  bytes(): Uint8Array {
    return Buffer.concat(this.#chunks);
  }
}
