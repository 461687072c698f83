/**
 * The steps of `videotask verify-family` for one model (§9 steps 3–4), in the order they run: the
 * catalog (read once per run, checked per model), one submission, polling to the final state, the
 * download and its container check, and whatever usage or charge the service exposes. Each step fills
 * the model's record through a `StepRecorder` (model-record.ts) and says whether the run goes on.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { catalogModelIds } from '../../src/client/catalog-ids.ts';
import {
  AuthenticationError,
  ConnectionError,
  NotFoundError,
  PermissionDeniedError,
  type PollResult,
  PollTimeoutError,
  RequestTimeoutError,
  type RetryInfo,
  SubmissionUnconfirmedError,
  submitWithRetry,
  type VideoTask,
  type VideoTaskClient,
  type WithMeta,
} from '../../src/client/index.ts';
import { KNOWN_CONTAINERS, videoSignature } from '../../src/media/video-signature.ts';
import { downloadContent, type DownloadResult } from '../../src/node/download-content.ts';
import type { Redactor } from '../../src/redaction/redactor.ts';
import { nothingHereAfter } from '../service-here.ts';
import { SECOND_FAMILY } from '../../src/spec/second-family.ts';
import { ADVICE, apiErrorOf, messageOf, submissionAdvice } from './advice.ts';
import {
  OTHER_RATIOS_HEADER,
  StepRecorder,
  type ModelVerification,
  type UsageFinding,
} from './model-record.ts';
import type { VerifySettings } from './settings.ts';

/**
 * §9 steps 3–5 for one model of the second family: the catalog check, one short task, its final state,
 * the download through `/content`, whatever usage or charge the service exposes, and the record of it
 * all. Never submits more than once (a 429 is retried with the same request ID, §7; an unconfirmed
 * submission is not), never calls anything but the service's documented endpoints (and, when asked,
 * the plugin's native status path). Never throws for a service failure (it is recorded).
 */
export async function verifyModel(
  client: VideoTaskClient,
  model: string,
  catalog: CatalogCheck,
  settings: VerifySettings,
): Promise<ModelVerification> {
  const r = new StepRecorder(model, client.baseUrl, {
    dryRun: settings.dryRun,
    redactor: settings.redactor,
    log: (text) => settings.log(model, text),
  });
  if (!checkCatalog(r, model, catalog)) return r.finish();
  if (settings.dryRun) {
    r.skipRest('--dry-run: only the catalog check; nothing was submitted');
    return r.finish();
  }
  const task = await submitOnce(client, r, settings);
  if (task === undefined) return r.finish();
  const final = await pollToFinal(client, r, task, settings);
  if (final === undefined) return r.finish();
  if (final.status !== 'failed') await downloadVideo(client, r, final.id, settings.signal);
  await usageStep(client, r, final, settings);
  return r.finish();
}

/** `/v1/models` as read once per run. */
export type CatalogCheck =
  | { readonly ok: true; readonly ids: ReadonlySet<string> }
  | { readonly ok: false; readonly error: unknown };

/** The catalog, or why the run cannot start (exit 2: nothing submitted, no record written). */
export type CatalogRead = { readonly catalog: CatalogCheck } | { readonly fatal: string };

const NOTHING_DONE = 'nothing was submitted and no record was written';

/**
 * §9 step 3, once for all models: what `/v1/models` lists for this token. An unreachable service or a
 * refused key stops the run; any other failure is recorded against every model.
 */
export async function readCatalog(
  client: VideoTaskClient,
  redactor: Redactor,
  key: { readonly apiKey: string; readonly masked: string },
): Promise<CatalogRead> {
  const maskedKey = key.masked;
  try {
    const list = await client.listModels();
    return { catalog: { ok: true, ids: new Set(catalogModelIds(list)) } };
  } catch (error) {
    const message = redactor.redact((error as Error).message);
    const at = client.baseUrl;
    if (error instanceof ConnectionError || error instanceof RequestTimeoutError)
      return {
        fatal:
          `videotask verify-family: the service at ${at} is unreachable: ${message}\n` +
          `  → ${NOTHING_DONE}; check --base-url.`,
      };
    if (error instanceof AuthenticationError)
      return {
        fatal:
          `videotask verify-family: the key ${maskedKey} was refused by ${at} (HTTP 401): ` +
          `${message}\n  → ${NOTHING_DONE}; check --api-key (§5).`,
      };
    const elsewhere = await nothingHereAfter(error, at, key.apiKey);
    if (elsewhere !== undefined)
      return { fatal: `videotask verify-family: ${elsewhere}\n  → ${NOTHING_DONE}.` };
    return { catalog: { ok: false, error } };
  }
}

/** How many of the catalog's other model IDs a failure names. */
const SHOWN_IDS = 12;

/** `a, b, c, …`: the first IDs the catalog lists, or `no model`. */
function preview(ids: readonly string[]): string {
  if (ids.length === 0) return 'no model';
  const more = ids.length > SHOWN_IDS ? ', …' : '';
  return `${ids.slice(0, SHOWN_IDS).join(', ')}${more}`;
}

/** §9 step 3: `/v1/models` lists the model for this token. Returns whether the run goes on. */
function checkCatalog(r: StepRecorder, model: string, catalog: CatalogCheck): boolean {
  if (!catalog.ok) {
    const forbidden = catalog.error instanceof PermissionDeniedError;
    const advice = forbidden ? ADVICE.catalogForbidden : ADVICE.catalogUnreadable;
    const detail = `GET /v1/models failed: ${messageOf(catalog.error)}`;
    r.fail('catalog', detail, advice, catalog.error);
    r.skipRest('not reached: the catalog could not be read; nothing was submitted');
    return false;
  }
  if (!catalog.ids.has(model)) {
    const listed = preview([...catalog.ids]);
    const detail = `/v1/models does not list ${model} for this token (it lists ${listed})`;
    r.fail('catalog', detail, ADVICE.notListed);
    r.skipRest('not reached: the model is not listed for this token; nothing was submitted');
    return false;
  }
  r.pass('catalog', `/v1/models lists ${model} for this token`);
  r.log('step 3: listed by /v1/models');
  return true;
}

/**
 * Why the run must not start: a `--model` the catalog does not list that is not one of the second
 * family's IDs either (§1) is a typo, not a model to verify (exit 2, nothing submitted, no record).
 * One of the family's IDs not listed is step 3 failing, recorded as such. Undefined when all are known
 * (or the catalog could not be read: every model then fails step 3 anyway).
 */
export function unknownModels(
  catalog: CatalogCheck,
  models: readonly string[],
): string | undefined {
  if (!catalog.ok) return undefined;
  const unknown = models.filter((m) => !catalog.ids.has(m) && !SECOND_FAMILY.models.includes(m));
  if (unknown.length === 0) return undefined;
  const names = unknown.join(', ');
  return (
    `videotask verify-family: --model ${names} ${unknown.length > 1 ? 'are' : 'is'} neither listed ` +
    `by /v1/models for this key nor a second-family model ID (§1: ${SECOND_FAMILY.models.join(', ')}); ` +
    `the catalog lists ${preview([...catalog.ids])}.\n` +
    '  → nothing was submitted and no record was written; check --model for a typo.'
  );
}

const ASSUMED_DURATION =
  " (an assumption: the document does not show the family's durations, §8; pass --seconds N to " +
  'state it)';

function durationNote(settings: VerifySettings): string {
  const source = settings.secondsGiven ? ' (given with --seconds)' : ASSUMED_DURATION;
  return `metadata.duration ${settings.seconds} s${source}`;
}

function retryLine(info: RetryInfo): string {
  const seconds = (info.delayMs / 1000).toFixed(1);
  return `rate limited (HTTP 429): retry ${info.retry} of the same submission in ${seconds} s (§7)`;
}

/**
 * §9 step 3: one short task through the entry the second family uses (`POST /v1/videos`, §4). Never
 * submits twice: a 429 is retried with the same request ID (§7), nothing else is. Returns the accepted
 * task, or `undefined` when the run stops here (the failure is recorded).
 */
export async function submitOnce(
  client: VideoTaskClient,
  r: StepRecorder,
  settings: VerifySettings,
): Promise<VideoTask | undefined> {
  const { record } = r;
  const clientRequestId = `vf-${randomUUID()}`;
  record.clientRequestId = clientRequestId;
  const body = {
    model: record.model,
    prompt: settings.prompt,
    metadata: { duration: settings.seconds },
  };
  const submit = (id: string, signal?: AbortSignal) =>
    client.withResponse().submit(body, { endpoint: 'videos', clientRequestId: id, signal });
  const submittedAt = performance.now();
  let answer: WithMeta<VideoTask>;
  try {
    const onRetry = (info: RetryInfo) => r.log(retryLine(info));
    const retry = { clientRequestId, signal: settings.signal, onRetry };
    answer = await submitWithRetry(submit, retry);
  } catch (error) {
    record.timings.submitMs = elapsed(submittedAt);
    refused(r, error, settings.signal);
    return undefined;
  }
  record.timings.submitMs = elapsed(submittedAt);
  const otherRatios = answer.meta.headers[OTHER_RATIOS_HEADER.toLowerCase()];
  record.otherRatios = otherRatios === undefined ? null : r.redact(otherRatios);
  accepted(r, answer.data, settings);
  return answer.data;
}

function accepted(r: StepRecorder, task: VideoTask, settings: VerifySettings): void {
  const { record } = r;
  record.taskId = task.id;
  const ratios =
    record.otherRatios === null ? '' : `; ${OTHER_RATIOS_HEADER} ${record.otherRatios}`;
  const took = `in ${record.timings.submitMs} ms`;
  const detail =
    `POST /v1/videos accepted task ${task.id} (status ${task.status}) ${took}; ` +
    `${durationNote(settings)}; client request ID ${record.clientRequestId}${ratios}`;
  r.pass('submit', detail);
  r.log(`step 3: submitted ${task.id} (${task.status}) ${took}${ratios}`);
}

function refused(r: StepRecorder, error: unknown, signal: AbortSignal): void {
  if (signal.aborted) {
    const advice = ADVICE.unconfirmed(r.record.clientRequestId!);
    r.fail('submit', 'interrupted during the submission', advice, error);
    r.skipRest('not reached: interrupted');
    return;
  }
  const detail = `POST /v1/videos was refused: ${messageOf(error)}`;
  r.fail('submit', detail, submissionAdvice(error), error);
  // §7: a 4xx is the client's to fix; the key's permission or quota is the run's input (exit 2).
  if (isInputProblem(error))
    r.record.inputError = r.redact(`${detail}: ${submissionAdvice(error)}`);
  r.skipRest(
    error instanceof SubmissionUnconfirmedError
      ? 'not reached: the submission could not be confirmed'
      : 'not reached: the submission was refused; nothing was created',
  );
}

/**
 * Whether a refused submission says the run's input is wrong rather than the rollout unfinished: the
 * key refused (401), or the test token without the model's permission or quota (402, 403; §5). A 400
 * such as an unbound plugin's `fail_to_fetch_task` or an unpriced model is a step of §9 not done yet.
 */
function isInputProblem(error: unknown): boolean {
  if (error instanceof PermissionDeniedError || error instanceof AuthenticationError) return true;
  return apiErrorOf(error)?.status === 402;
}

/**
 * §9 step 4: the task polled to its final state with the §8 loop. Returns the final task (completed or
 * failed, §3), or `undefined` when it reached none (the failure is recorded). A failed task fails the
 * step; it is never resubmitted.
 */
async function pollToFinal(
  client: VideoTaskClient,
  r: StepRecorder,
  task: VideoTask,
  settings: VerifySettings,
): Promise<VideoTask | undefined> {
  const { record } = r;
  const acceptedAt = performance.now();
  let result: PollResult;
  try {
    result = await client.poll(task.id, {
      ...settings.poll,
      signal: settings.signal,
      onUpdate: progressLogger(r),
    });
  } catch (error) {
    record.timings.toFinalStateMs = elapsed(acceptedAt);
    noFinalState(r, task.id, error, settings.signal);
    return undefined;
  }
  record.timings.toFinalStateMs = elapsed(acceptedAt);
  const { task: final, attempts } = result;
  record.finalStatus = final.status;
  if (final.status === 'failed') taskFailed(r, final, attempts);
  else {
    const after = `${record.timings.toFinalStateMs} ms after its submission`;
    r.pass('poll', `${final.id} completed after ${attempts} queries, ${after}`);
    r.log(`step 4: completed after ${attempts} queries`);
  }
  return final;
}

/** Logs `task_… in_progress 50%` whenever status or progress changes. */
function progressLogger(r: StepRecorder): (task: VideoTask) => void {
  let lastShown = '';
  return (t) => {
    const shown = `${t.status} ${t.progress}%`;
    if (shown !== lastShown) r.log(`${t.id} ${shown}`);
    lastShown = shown;
  };
}

function noFinalState(r: StepRecorder, taskId: string, error: unknown, signal: AbortSignal): void {
  const message = messageOf(error);
  const timedOut = error instanceof PollTimeoutError;
  const notFound = error instanceof NotFoundError || apiErrorOf(error)?.code === 'task_not_exist';
  if (signal.aborted)
    r.fail('poll', `interrupted while polling ${taskId}`, ADVICE.interrupted(taskId), error);
  else if (timedOut) r.fail('poll', message, ADVICE.pollTimedOut(taskId, error.lastStatus), error);
  else if (notFound) r.fail('poll', message, ADVICE.pollNotFound(taskId), error);
  else r.fail('poll', message, ADVICE.pollError(taskId), error);
  r.record.finalStatus = timedOut ? (error.lastStatus ?? null) : null;
  r.skipRest('not reached: the task has no final state yet');
}

function taskFailed(r: StepRecorder, final: VideoTask, attempts: number): void {
  const { record } = r;
  const code = final.error?.code ?? '(no error code)';
  record.errorCode = final.error?.code ?? null;
  record.errorMessage = r.redact(final.error?.message ?? '');
  const detail = `task ${final.id} failed after ${attempts} queries: ${code}: ${record.errorMessage}`;
  r.fail('poll', detail, ADVICE.taskFailed(code));
  const noVideo = 'not reached: the task failed, there is no video (§3 rule 2)';
  r.step('download').detail = noVideo;
  r.step('video').detail = noVideo;
}

/** Bytes kept from the start of the video: enough for every container signature we know. */
const HEAD_BYTES = 512;

/**
 * §9 step 4: the video downloaded through `/content` (§4.4), counted and hashed but not kept, and its
 * first bytes checked for a video container signature.
 */
async function downloadVideo(
  client: VideoTaskClient,
  r: StepRecorder,
  taskId: string,
  signal: AbortSignal,
): Promise<void> {
  const { record } = r;
  const head = new HeadSink(HEAD_BYTES);
  const started = performance.now();
  let result: DownloadResult;
  try {
    result = await downloadContent(client, taskId, { to: head, signal });
  } catch (error) {
    record.timings.downloadMs = elapsed(started);
    const advice = signal.aborted ? ADVICE.interrupted(taskId) : ADVICE.download(taskId);
    const detail = `GET /v1/videos/${taskId}/content failed: ${messageOf(error)}`;
    r.fail('download', detail, advice, error);
    r.step('video').detail = 'not reached: the download failed';
    return;
  }
  record.timings.downloadMs = elapsed(started);
  Object.assign(record, {
    bytes: result.bytes,
    sha256: result.sha256,
    contentType: result.contentType,
  });
  const { bytes, contentType, sha256 } = result;
  const took = `in ${record.timings.downloadMs} ms`;
  r.pass('download', `GET /v1/videos/${taskId}/content: ${bytes} bytes of ${contentType} ${took}`);
  const signature = videoSignature(head.bytes());
  record.containerSignature = signature ?? null;
  if (signature !== undefined && bytes > 0)
    r.pass('video', `${signature}, ${bytes} bytes, sha256 ${sha256}`);
  else {
    const what = `${bytes} bytes of ${contentType}`;
    const why = `without a video container signature (${KNOWN_CONTAINERS})`;
    r.fail('video', `${what} ${why}`, ADVICE.notVideo);
  }
  const shownSignature = signature ?? 'no video signature';
  r.log(`step 4: downloaded ${bytes} bytes, ${shownSignature}, sha256 ${sha256}`);
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

const NO_USAGE =
  "the service exposes no usage or charge information (the document doesn't show it, §4; §2.3 " +
  'names quota without showing its fields): check actual usage and the final charge in the ' +
  'administrator console (§9 step 4)';

const RAW_NOTE =
  '(raw, as the service reports them: the document shows neither these fields nor their units, ' +
  '§2.3, §4.5)';

/** Field names read as usage or charge information wherever they appear (never invented, reported raw). */
const USAGE_KEYS = /^(usage|quota|cost|charge|charges|billing|price)$/i;

/** How deep into an answer usage fields are looked for. */
const MAX_DEPTH = 4;

/** §9 step 4: whatever usage or charge information the service exposes, read raw and recorded. */
async function usageStep(
  client: VideoTaskClient,
  r: StepRecorder,
  final: VideoTask,
  settings: VerifySettings,
): Promise<void> {
  const usage = await findUsage(client, final, settings);
  r.record.usage = usage;
  Object.assign(r.step('usage'), {
    outcome: usage.exposed ? 'passed' : 'skipped',
    detail: usage.detail,
  });
  r.log(`step 4: ${usage.detail}`);
}

/** Looks for usage or charge fields on the OpenAI form, the wrapper and (when asked) the native path. */
async function findUsage(
  client: VideoTaskClient,
  final: VideoTask,
  settings: VerifySettings,
): Promise<UsageFinding> {
  const { signal, redactor } = settings;
  const fields: Record<string, unknown> = {};
  const notes: string[] = [];
  const collect = (prefix: string, value: unknown) => collectUsage(prefix, value, fields, redactor);
  const unreadable = (what: string, error: unknown) =>
    notes.push(`${what} could not be read: ${redactor.redact(messageOf(error))}`);
  collect('task', final);
  try {
    collect('wrapper', await client.getWrapper(final.id, { signal }));
  } catch (error) {
    unreadable(`the wrapper (GET /v1/video/generations/${final.id})`, error);
  }
  if (settings.pluginName !== undefined) {
    try {
      collect('native', await client.getPluginTask(settings.pluginName, final.id, { signal }));
    } catch (error) {
      unreadable('the native status path', error);
    }
  }
  const names = Object.keys(fields);
  const shown = names.map((n) => `${n} = ${JSON.stringify(fields[n])}`).join('; ');
  const found = names.length === 0 ? NO_USAGE : `the service exposes ${shown} ${RAW_NOTE}`;
  return { exposed: names.length > 0, detail: [found, ...notes].join('; '), fields };
}

function collectUsage(
  prefix: string,
  value: unknown,
  into: Record<string, unknown>,
  redactor: Redactor,
  depth = 0,
): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || depth > MAX_DEPTH)
    return;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const path = `${prefix}.${key}`;
    if (USAGE_KEYS.test(key) && v !== undefined && v !== null && v !== '')
      into[path] = redactor.redactDeep(v);
    else collectUsage(path, v, into, redactor, depth + 1);
  }
}

/** Whole milliseconds since `since` (a `performance.now()` reading). */
export function elapsed(since: number): number {
  return Math.round(performance.now() - since);
}
