// A held-out test deployment that follows /work/shared/service/reference-gateway-facts.md wherever it
// says something (new-api's task relay, channel type 54; the second family on a type-61 plugin channel
// once bound), and the service document everywhere. Its breaks of documented rules that the facts
// describe are departures, off by default (GATEWAY_DEPARTURES).
//
// Timing (speed 1): the upstream queues a task 3–20 s and renders it 15–45 s (a failing one fails after
// 5–15 s of rendering); the gateway learns upstream states from a background poller every 15 s, so a
// task says `unknown` (NOT_START) until the first poll after its submission and can jump states.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  callerOf,
  contentProblems,
  duration,
  header,
  isObject,
  listen,
  mediaType,
  parseJson,
  PRIMARY_MODELS,
  randomText,
  readBody,
  SECOND_FAMILY,
  send,
  outcomeOf,
  sendVideo,
  settingsOf,
  submissionProblems,
  unix,
  UNPRICED_MODEL,
  VIDEO,
  wantsFailure,
  type DeploymentKey,
  type DeploymentOptions,
  type RunningDeployment,
  type Settings,
} from './support.ts';

/** The gateway's documented-rule breaks the facts describe: each off unless named. */
export const GATEWAY_DEPARTURES = {
  'timeout-sweep':
    'a failing task is failed by the timeout sweep (fail_reason 任务超时（1440分钟）), so its OpenAI form ' +
    'carries no `error` (breaks §2.2: a failed task has error)',
  'result-url-fallback':
    "a failed task's wrapper result_url falls back to the failure reason (breaks §2.3: a result address)",
  'upstream-id-in-data':
    "the wrapper's raw upstream body `data.data` keeps the upstream's `cgt-…` ID (breaks §1)",
  'drops-task-id':
    'newer versions: the OpenAI-form query carries no task_id (breaks §2.2: completed responses have it)',
  'progress-falls':
    'an upstream status the channel does not know reads IN_PROGRESS at 30%, so progress falls 50 → 30 ' +
    '(breaks no documented rule: the progress-monotonic assumption)',
} as const;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';
const POLL_MS = 15_000;
const QUEUE_MS = [3_000, 20_000] as const;
const RUN_MS = [15_000, 45_000] as const;
const FAIL_MS = [5_000, 15_000] as const;
/** The upstream's result URL lives 24 h; after that the content route answers 410 (newer versions). */
const RESULT_TTL_MS = 24 * 3_600_000;
const BODY_LIMIT = 2 << 20;
const MULTIPART_PARTS = 64;
const SWEEP_REASON = '任务超时（1440分钟）';
const KNOWN_MODELS = [...PRIMARY_MODELS, ...SECOND_FAMILY, UNPRICED_MODEL];

type Internal = 'NOT_START' | 'QUEUED' | 'IN_PROGRESS' | 'SUCCESS' | 'FAILURE';
const OPENAI_STATUS: Record<Internal, string> = {
  NOT_START: 'unknown',
  QUEUED: 'queued',
  IN_PROGRESS: 'in_progress',
  SUCCESS: 'completed',
  FAILURE: 'failed',
};
const UPSTREAM_STATUS: Record<Internal, string> = {
  NOT_START: 'queued',
  QUEUED: 'queued',
  IN_PROGRESS: 'running',
  SUCCESS: 'succeeded',
  FAILURE: 'failed',
};

interface Task {
  readonly id: string;
  readonly row: number;
  readonly owner: DeploymentKey;
  readonly userId: number;
  readonly model: string;
  /** The channel type: 54 (built-in video channel) or 61 (the plugin channel, once bound). */
  readonly platform: '54' | '61';
  readonly submittedAt: number;
  readonly queueMs: number;
  readonly runMs: number;
  readonly failure: { readonly code: string; readonly message: string } | undefined;
  readonly upstreamId: string;
  readonly upstreamModel: string;
  readonly action: string;
  readonly seconds: number;
  readonly resolution: string;
  readonly ratio: string;
  readonly resultUrl: string;
  /** `X-Test-Outcome: content-502`: completed, but the upstream no longer gives its video. */
  readonly videoLost: boolean;
}

/** What the task's row says at one instant: as of the last background poll that saw it. */
interface Row {
  readonly status: Internal;
  readonly progress: number;
  readonly updatedAt: number;
  readonly startTime: number;
  readonly finishTime: number;
}

/** An OpenAI-style error: `type` is `invalid_request_error` unless said, `code` "" unless said. */
interface OpenAiError {
  readonly message: string;
  readonly code?: string;
  readonly type?: 'invalid_request_error' | 'new_api_error' | 'server_error';
}

/** A refusal of the task handler, in the wrapper envelope. */
interface Refusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

interface Call {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly requestId: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

class Gateway {
  readonly #tasks = new Map<string, Task>();
  readonly #epoch = Date.now();
  #rows = 0;

  constructor(readonly s: Settings) {}

  readonly handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const call: Call = { request, response, requestId: this.#requestId() };
    response.setHeader('X-Oneapi-Request-Id', call.requestId);
    const path = new URL(request.url ?? '/', 'http://gateway').pathname;
    const method = request.method ?? 'GET';
    const route = this.#route(method, path);
    if (route === undefined)
      return this.#openAi(call, 404, { message: `Invalid URL (${method} ${path})` });
    const caller = callerOf(this.s, request);
    // Missing or invalid key: one answer for both (reference-gateway-facts.md).
    if (caller === undefined)
      return this.#openAi(call, 401, { message: 'Invalid token', type: 'new_api_error' });
    await route(call, caller);
  };

  #route(
    method: string,
    path: string,
  ): ((call: Call, caller: DeploymentKey) => unknown) | undefined {
    const read = method === 'GET' || method === 'HEAD';
    if (path === '/v1/models' && read) return (c, k) => this.#catalog(c, k);
    if ((path === '/v1/video/generations' || path === '/v1/videos') && method === 'POST')
      return (c, k) => this.#submit(c, k);
    let m = /^\/v1\/videos\/([^/]+)\/content$/.exec(path);
    if (m !== null && read) return (c, k) => this.#content(c, k, decodeURIComponent(m![1]!));
    m = /^\/v1\/videos\/([^/]+)$/.exec(path);
    if (m !== null && read)
      return (c, k) => this.#query(c, k, decodeURIComponent(m![1]!), 'openai');
    m = /^\/v1\/video\/generations\/([^/]+)$/.exec(path);
    if (m !== null && read)
      return (c, k) => this.#query(c, k, decodeURIComponent(m![1]!), 'wrapper');
    m = /^\/([^/]+)\/api\/v3\/contents\/generations\/tasks(?:\/([^/]+))?$/.exec(path);
    if (m === null || decodeURIComponent(m[1]!) !== this.s.plugin) return undefined;
    const id = m[2];
    if (id === undefined) return method === 'POST' ? (c, k) => this.#nativeSubmit(c, k) : undefined;
    return read ? (c, k) => this.#nativeQuery(c, k, decodeURIComponent(id)) : undefined;
  }

  // --- answers ---------------------------------------------------------------------------------

  #json(call: Call, status: number, body: unknown, headers: Record<string, string> = {}): void {
    send(
      call.request,
      call.response,
      status,
      { 'content-type': JSON_TYPE, ...headers },
      JSON.stringify(body),
    );
  }

  /** The OpenAI-style envelope, its message ending with the request ID. */
  #openAi(call: Call, status: number, error: OpenAiError): void {
    const { message, code = '', type = 'invalid_request_error' } = error;
    const text = `${message} (request id: ${call.requestId})`;
    this.#json(call, status, { error: { message: text, type, param: '', code } });
  }

  /** The task handlers' envelope. */
  #wrapped(call: Call, status: number, code: string, message: string): void {
    this.#json(call, status, { code, message, data: null });
  }

  /** The upstream's (Ark) envelope, on the native path. */
  #native(call: Call, status: number, code: string, message: string): void {
    this.#json(call, status, { error: { code, message } });
  }

  // --- the catalog -------------------------------------------------------------------------------

  #catalog(call: Call, caller: DeploymentKey): void {
    const listed = caller.models.filter(
      (m) =>
        PRIMARY_MODELS.includes(m) ||
        m === UNPRICED_MODEL ||
        (this.s.familyBound && SECOND_FAMILY.includes(m)),
    );
    const data = listed.map((id) => ({
      id,
      object: 'model',
      created: 1626777600,
      owned_by: SECOND_FAMILY.includes(id) ? 'volcengine' : 'custom',
      supported_endpoint_types: ['openai'],
    }));
    this.#json(call, 200, { success: true, object: 'list', data });
  }

  // --- submission ------------------------------------------------------------------------------

  /**
   * A submission, in the gateway's order: the body (JSON or a form), the model, model routing (§5),
   * then the task handler's own refusals; accepted, the §4.1 answer and `X-New-Api-Other-Ratios`.
   */
  async #submit(call: Call, caller: DeploymentKey): Promise<void> {
    const body = await this.#submission(call);
    if (body === undefined) return;
    const model = body['model'];
    if (model === undefined || (typeof model === 'string' && model.trim() === ''))
      return this.#openAi(call, 400, { message: 'model is required', code: 'invalid_request' });
    if (typeof model !== 'string')
      return this.#openAi(call, 400, {
        message: 'Invalid request body: model must be a string',
        code: 'invalid_request',
      });
    if (!this.#routed(call, caller, model)) return;
    const refusal = this.#taskRefusal(call.request, caller, body, model);
    if (refusal !== undefined)
      return this.#wrapped(call, refusal.status, refusal.code, refusal.message);
    const task = this.#create(call.request, caller, model, body);
    const answer = {
      id: task.id,
      task_id: task.id,
      object: 'video',
      model: task.model,
      status: 'queued',
      progress: 0,
      created_at: unix(task.submittedAt),
    };
    const ratios = JSON.stringify({ seconds: task.seconds });
    this.#json(call, 200, answer, { 'X-New-Api-Other-Ratios': ratios });
  }

  /** The submission's fields, from JSON or a multipart form; `undefined` once refused. */
  async #submission(call: Call): Promise<Record<string, unknown> | undefined> {
    const bytes = await readBody(call.request, BODY_LIMIT);
    if (bytes === 'too-large') {
      call.response.setHeader('connection', 'close');
      return void this.#wrapped(call, 413, 'read_request_body_failed', 'request body too large');
    }
    const contentType = header(call.request, 'content-type');
    const isForm = mediaType(contentType) === 'multipart/form-data';
    const body = isForm ? formSubmission(bytes, contentType!) : parseJson(bytes);
    if (isForm && typeof body === 'string')
      return void this.#wrapped(call, 400, 'invalid_request', body);
    if (isObject(body)) return body;
    const message = 'Invalid request body: not a JSON object';
    return void this.#openAi(call, 400, { message, code: 'invalid_request' });
  }

  /** Model routing, before any task handler: an unknown model is 503, one the token may not use 403. */
  #routed(call: Call, caller: DeploymentKey, model: string): boolean {
    const group = caller.group ?? 'default';
    if (!KNOWN_MODELS.includes(model)) {
      this.#openAi(call, 503, {
        message: `No available channel for model ${model} under group ${group}`,
        code: 'model_not_found',
        type: 'new_api_error',
      });
      return false;
    }
    if (!caller.models.includes(model)) {
      this.#openAi(call, 403, {
        message: `This token has no access to model ${model}`,
        code: 'access_denied',
        type: 'new_api_error',
      });
      return false;
    }
    return true;
  }

  /**
   * The task handler's refusals, in the gateway's order and words: §2.1 types and the prompt (§7), the
   * clip's seconds (1..3600), the family's content URLs, the price, the quota, then what the upstream
   * answers (it does not know the unbound family's model; `X-Test-Outcome: upstream-429`).
   */
  #taskRefusal(
    request: IncomingMessage,
    caller: DeploymentKey,
    body: Record<string, unknown>,
    model: string,
  ): Refusal | undefined {
    const problems = [
      ...submissionProblems(body).filter((p) => p.field !== 'model'),
      ...(SECOND_FAMILY.includes(model) ? contentProblems(body) : []),
    ];
    if (problems.some((p) => p.field === 'prompt'))
      return { status: 400, code: 'invalid_request', message: 'prompt is required' };
    const seconds = secondsOf(body);
    if (problems.length === 0 && (seconds === undefined || seconds < 1 || seconds > 3600))
      problems.push({ field: 'seconds', problem: 'must be an integer between 1 and 3600' });
    const [first] = problems;
    if (first !== undefined) {
      const code = first.field === 'seconds' ? 'invalid_seconds' : 'invalid_request';
      return { status: 400, code, message: `${first.field} ${first.problem}` };
    }
    if (model === UNPRICED_MODEL)
      return { status: 400, code: 'model_price_error', message: `model ${model} has no price` };
    if (caller.quotaExhausted === true)
      return { status: 403, code: 'insufficient_user_quota', message: 'user quota is not enough' };
    return this.#upstreamRefusal(request, model);
  }

  /** The upstream's refusal, passed on with its status, its body as the message. */
  #upstreamRefusal(request: IncomingMessage, model: string): Refusal | undefined {
    const upstream = (status: number, code: string, message: string): Refusal => ({
      status,
      code: 'fail_to_fetch_task',
      message: JSON.stringify({ error: { code, message } }),
    });
    if (outcomeOf(request) === 'upstream-429')
      return upstream(429, 'ServerOverloaded', 'The service is overloaded: retry later.');
    // Still on the built-in type-54 channel (§1): the upstream does not know the model.
    if (SECOND_FAMILY.includes(model) && !this.s.familyBound)
      return upstream(
        404,
        'InvalidEndpointOrModel.NotFound',
        `The model or endpoint ${model} does not exist or you do not have access to it.`,
      );
    return undefined;
  }

  #create(
    request: IncomingMessage,
    owner: DeploymentKey,
    model: string,
    body: Record<string, unknown>,
  ): Task {
    const { s } = this;
    const prompt = typeof body['prompt'] === 'string' ? body['prompt'] : promptOf(body);
    const fails = wantsFailure(prompt, request);
    const metadata = isObject(body['metadata']) ? body['metadata'] : {};
    const family = SECOND_FAMILY.includes(model);
    const now = Date.now();
    const task: Task = {
      id: `task_${randomText(s, BASE62, 32)}`,
      row: ++this.#rows,
      owner,
      userId: s.keys.indexOf(owner) + 1,
      model,
      platform: family ? '61' : '54',
      submittedAt: now,
      queueMs: duration(s, QUEUE_MS),
      runMs: duration(s, fails ? FAIL_MS : RUN_MS),
      failure: fails
        ? {
            code: 'OutputVideoSensitiveContentDetected',
            message:
              'The request failed because the output video may contain sensitive information.',
          }
        : undefined,
      upstreamId: `cgt-${stamp(now)}-${randomText(s, 'abcdefghijklmnopqrstuvwxyz0123456789', 5)}`,
      upstreamModel: family ? `${model}-250915` : 'doubao-seedance-1-0-pro-250528',
      action:
        body['image'] !== undefined || body['images'] !== undefined ? 'generate' : 'textGenerate',
      seconds: secondsOf(body) ?? 5,
      resolution: typeof metadata['resolution'] === 'string' ? metadata['resolution'] : '720p',
      ratio: typeof metadata['ratio'] === 'string' ? metadata['ratio'] : '16:9',
      resultUrl:
        `https://ark-content.example.com/doubao-seedance/${randomText(s, HEX, 32)}.mp4` +
        `?X-Tos-Algorithm=TOS4-HMAC-SHA256&X-Tos-Expires=86400&X-Tos-Signature=${randomText(s, HEX, 64)}`,
      videoLost: outcomeOf(request) === 'content-502',
    };
    this.#tasks.set(task.id, task);
    return task;
  }

  // --- the task's state --------------------------------------------------------------------------

  /** The row as of the last background poll: NOT_START until the first poll after submission. */
  #rowAt(task: Task, now: number): Row {
    const every = POLL_MS / this.s.speed;
    const tick = (t: number, round: (x: number) => number) =>
      this.#epoch + round((t - this.#epoch) / every) * every;
    const last = tick(now, Math.floor);
    const first = tick(task.submittedAt, Math.floor) + every;
    if (last < first)
      return {
        status: 'NOT_START',
        progress: 0,
        updatedAt: task.submittedAt,
        startTime: 0,
        finishTime: 0,
      };
    const started = Math.max(first, tick(task.submittedAt + task.queueMs, Math.ceil));
    const finished = Math.max(first, tick(task.submittedAt + task.queueMs + task.runMs, Math.ceil));
    if (last >= finished) {
      const status = task.failure === undefined ? 'SUCCESS' : 'FAILURE';
      return {
        status,
        progress: 100,
        updatedAt: finished,
        startTime: started,
        finishTime: finished,
      };
    }
    if (last < started)
      return { status: 'QUEUED', progress: 10, updatedAt: last, startTime: 0, finishTime: 0 };
    // An upstream answer the channel does not know reads IN_PROGRESS at 30% (a departure: every other poll).
    const unknownAnswer =
      this.s.departures.has('progress-falls') && Math.round((last - started) / every) % 2 === 1;
    return {
      status: 'IN_PROGRESS',
      progress: unknownAnswer ? 30 : 50,
      updatedAt: last,
      startTime: started,
      finishTime: 0,
    };
  }

  #swept(task: Task): boolean {
    return task.failure !== undefined && this.s.departures.has('timeout-sweep');
  }

  #failReason(task: Task, row: Row): string {
    if (row.status !== 'FAILURE') return '';
    return this.#swept(task) ? SWEEP_REASON : task.failure!.message;
  }

  /** The OpenAI form: `completed_at` is the row's update time, `metadata.url` "" until done. */
  #openAiForm(task: Task, now: number): Record<string, unknown> {
    const row = this.#rowAt(task, now);
    const failed = row.status === 'FAILURE';
    const keepTaskId = !this.s.departures.has('drops-task-id');
    return {
      id: task.id,
      ...(keepTaskId ? { task_id: task.id } : {}),
      object: 'video',
      model: task.model,
      status: OPENAI_STATUS[row.status],
      progress: row.progress,
      created_at: unix(task.submittedAt),
      completed_at: unix(row.updatedAt),
      metadata: { url: row.status === 'SUCCESS' ? task.resultUrl : '' },
      ...(failed && !this.#swept(task)
        ? { error: { message: task.failure!.message, code: task.failure!.code } }
        : {}),
    };
  }

  /** The wrapper's `data`: the row's fields, `properties` and the raw upstream body. */
  #wrapperData(task: Task, now: number): Record<string, unknown> {
    const row = this.#rowAt(task, now);
    const failReason = this.#failReason(task, row);
    const resultUrl =
      row.status === 'SUCCESS'
        ? task.resultUrl
        : row.status === 'FAILURE' && this.s.departures.has('result-url-fallback')
          ? failReason
          : undefined;
    return {
      id: task.row,
      created_at: unix(task.submittedAt),
      updated_at: unix(row.updatedAt),
      task_id: task.id,
      platform: task.platform,
      user_id: task.userId,
      group: task.owner.group ?? 'default',
      channel_id: task.platform === '61' ? 7 : 3,
      quota: task.seconds * 2500,
      action: task.action,
      status: row.status,
      fail_reason: failReason,
      ...(resultUrl === undefined ? {} : { result_url: resultUrl }),
      submit_time: unix(task.submittedAt),
      start_time: row.startTime === 0 ? 0 : unix(row.startTime),
      finish_time: row.finishTime === 0 ? 0 : unix(row.finishTime),
      progress: `${row.progress}%`,
      properties: { upstream_model_name: task.upstreamModel, origin_model_name: task.model },
      data: this.#upstreamBody(task, row),
    };
  }

  /** The upstream's own body as stored at submission or at the last poll; its ID kept private. */
  #upstreamBody(task: Task, row: Row): Record<string, unknown> {
    const id = this.s.departures.has('upstream-id-in-data') ? { id: task.upstreamId } : {};
    if (row.status === 'NOT_START') return id;
    const failed = row.status === 'FAILURE' && !this.#swept(task);
    return {
      ...id,
      model: task.upstreamModel,
      status:
        this.#swept(task) && row.status === 'FAILURE' ? 'running' : UPSTREAM_STATUS[row.status],
      ...(row.status === 'SUCCESS' ? { content: { video_url: task.resultUrl } } : {}),
      ...(row.status === 'SUCCESS'
        ? { usage: { completion_tokens: 108900, total_tokens: 108900 } }
        : {}),
      ...(failed ? { error: { code: task.failure!.code, message: task.failure!.message } } : {}),
      created_at: unix(task.submittedAt),
      updated_at: unix(row.updatedAt),
      seed: 42,
      resolution: task.resolution,
      ratio: task.ratio,
      duration: task.seconds,
      framespersecond: 24,
    };
  }

  /** The caller's own task; another user's is indistinguishable from a missing one (§5). */
  #own(caller: DeploymentKey, id: string): Task | undefined {
    const task = this.#tasks.get(id);
    return task?.owner.user === caller.user ? task : undefined;
  }

  // --- queries and content ---------------------------------------------------------------------

  #query(call: Call, caller: DeploymentKey, id: string, form: 'openai' | 'wrapper'): void {
    const task = this.#own(caller, id);
    if (task === undefined) return this.#wrapped(call, 400, 'task_not_exist', 'task_not_exist');
    const now = Date.now();
    if (form === 'openai') return this.#json(call, 200, this.#openAiForm(task, now));
    this.#json(call, 200, { code: 'success', message: '', data: this.#wrapperData(task, now) });
  }

  #content(call: Call, caller: DeploymentKey, id: string): void {
    const task = this.#own(caller, id);
    if (task === undefined)
      return this.#openAi(call, 404, { message: 'Task not found', code: 'task_not_found' });
    const now = Date.now();
    const row = this.#rowAt(task, now);
    if (row.status !== 'SUCCESS')
      return this.#openAi(call, 400, {
        message: `Task is not completed yet, current status: ${row.status}`,
        code: 'task_not_completed',
      });
    if (task.videoLost)
      return this.#openAi(call, 502, {
        message: 'failed to fetch the video from the upstream: HTTP 403',
        code: 'fetch_video_failed',
        type: 'server_error',
      });
    if (now > row.finishTime + RESULT_TTL_MS / this.s.speed)
      return this.#openAi(call, 410, {
        message: 'The video has expired upstream: submit a new task',
        code: 'artifact_gone',
      });
    const headers = {
      'content-type': 'video/mp4',
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    };
    sendVideo(call.request, call.response, headers, () => {
      call.response.setHeader('content-range', `bytes */${VIDEO.byteLength}`);
      this.#openAi(call, 416, {
        message: 'Requested range not satisfiable',
        code: 'range_not_satisfiable',
      });
    });
  }

  // --- the second family's native path (§4.5, the upstream's shapes) ----------------------------

  #pluginUnbound(call: Call): boolean {
    if (this.s.familyBound) return false;
    this.#native(
      call,
      503,
      'server_error',
      `task plugin ${this.s.plugin} 1.0.5 is enabled but bound to no channel`,
    );
    return true;
  }

  async #nativeSubmit(call: Call, caller: DeploymentKey): Promise<void> {
    const bytes = await readBody(call.request, BODY_LIMIT);
    if (bytes === 'too-large')
      return this.#native(call, 413, 'invalid_request', 'request body too large');
    if (this.#pluginUnbound(call)) return;
    const body = parseJson(bytes);
    if (!isObject(body))
      return this.#native(call, 400, 'invalid_request', 'the body must be a JSON object');
    const mixed = ['prompt', 'image', 'images', 'seconds', 'size', 'metadata'].filter(
      (f) => f in body,
    );
    if (mixed.length > 0)
      return this.#native(
        call,
        400,
        'invalid_request',
        `OpenAI-form fields are not accepted here: ${mixed.join(', ')}`,
      );
    const model = body['model'];
    if (typeof model !== 'string' || !SECOND_FAMILY.includes(model))
      return this.#native(
        call,
        400,
        'invalid_request',
        `model ${JSON.stringify(model)} is not served by this plugin`,
      );
    if (!caller.models.includes(model))
      return this.#native(
        call,
        403,
        'permission_denied',
        `This token has no access to model ${model}`,
      );
    const prompt = promptOf(body);
    if (prompt.trim() === '')
      return this.#native(
        call,
        400,
        'invalid_request',
        'content needs a text item with the prompt',
      );
    const task = this.#create(call.request, caller, model, { ...body, prompt });
    this.#json(call, 200, { id: task.id });
  }

  #nativeQuery(call: Call, caller: DeploymentKey, id: string): void {
    if (this.#pluginUnbound(call)) return;
    const task = this.#own(caller, id);
    if (task === undefined)
      return this.#native(call, 404, 'task_not_found', `task ${id} not found`);
    const row = this.#rowAt(task, Date.now());
    const failed = row.status === 'FAILURE';
    this.#json(call, 200, {
      id: task.id,
      model: task.model,
      status: UPSTREAM_STATUS[row.status],
      ...(row.status === 'SUCCESS' ? { content: { video_url: task.resultUrl } } : {}),
      ...(row.status === 'SUCCESS'
        ? { usage: { completion_tokens: 108900, total_tokens: 108900 } }
        : {}),
      ...(failed
        ? { error: { code: task.failure!.code, message: this.#failReason(task, row) } }
        : {}),
      created_at: unix(task.submittedAt),
      updated_at: unix(row.updatedAt),
    });
  }

  /** new-api's request IDs: the time to the second, then nine digits and eight letters. */
  #requestId(): string {
    return `${stamp(Date.now())}${randomText(this.s, '0123456789', 9)}${randomText(this.s, BASE62, 8)}`;
  }
}

/** `20261125130201`: the time, UTC, to the second. */
function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\D/g, '').slice(0, 14);
}

/** Clip seconds: `seconds` (a JSON string, as the gateway reads it) or `metadata.duration` / `duration`. */
function secondsOf(body: Record<string, unknown>): number | undefined {
  const metadata = isObject(body['metadata']) ? body['metadata'] : {};
  const value = body['seconds'] ?? metadata['duration'] ?? body['duration'] ?? 5;
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
}

/** The prompt of a native body: its `text` content items. */
function promptOf(body: Record<string, unknown>): string {
  const content = Array.isArray(body['content']) ? (body['content'] as unknown[]) : [];
  return content
    .map((item) =>
      isObject(item) && item['type'] === 'text' && typeof item['text'] === 'string'
        ? item['text']
        : '',
    )
    .join(' ')
    .trim();
}

/**
 * A `multipart/form-data` submission as the gateway reads it (what the openai SDK's `videos.create`
 * sends): `model`, `prompt`, `mode`, `image`, `size`, `seconds`, repeated `images`; any other field
 * goes into `metadata`, numbers parsed. A file part (§2.1: upload is not accepted) or a form it cannot
 * read is a refusal, returned as its message.
 */
function formSubmission(bytes: Buffer, contentType: string): Record<string, unknown> | string {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (boundary === null) return 'the multipart form has no boundary';
  const parts = bytes.toString('latin1').split(`--${boundary[1] ?? boundary[2]}`);
  if (parts.length < 3 || !parts.at(-1)!.startsWith('--'))
    return 'the multipart form is not complete';
  if (parts.length - 2 > MULTIPART_PARTS)
    return `the multipart form has more than ${MULTIPART_PARTS} parts`;
  const body: Record<string, unknown> = {};
  const metadata: Record<string, unknown> = {};
  for (const part of parts.slice(1, -1)) {
    const split = part.indexOf('\r\n\r\n');
    const head = part.slice(0, split);
    const name = /name="([^"]*)"/i.exec(head)?.[1];
    if (split < 0 || name === undefined) return 'a form part has no name';
    if (/filename=/i.test(head)) return `file upload is not accepted (part "${name}")`;
    const value = Buffer.from(part.slice(split + 4).replace(/\r\n$/, ''), 'latin1').toString(
      'utf8',
    );
    if (name === 'images')
      body['images'] = [...((body['images'] as string[] | undefined) ?? []), value];
    else if (['model', 'prompt', 'mode', 'image', 'size', 'seconds'].includes(name))
      body[name] = value;
    else metadata[name] = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  }
  if (Object.keys(metadata).length > 0) body['metadata'] = metadata;
  delete body['mode'];
  return body;
}

/** Starts the gateway deployment on a real port. */
export async function startGateway(options: DeploymentOptions = {}): Promise<RunningDeployment> {
  const s = settingsOf('gateway', options, GATEWAY_DEPARTURES);
  const gateway = new Gateway(s);
  return listen('gateway', s, () => gateway.handle);
}
