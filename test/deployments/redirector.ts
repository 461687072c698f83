// A held-out test deployment that conforms to the service document in ways of its own where the
// document is silent: it delivers the video by a 302 to a signed, expiring address on the same server
// (§4.4: clients follow redirects), refuses with 404/409/415/422 (§7 names only the classes), answers
// errors as a JSON:API-style `{errors: [...], meta}` body, names its request IDs `X-Request-ID` (echoing
// a client's own), sends `X-RateLimit-*` on every keyed answer and 429s past a per-key request budget,
// shows wrapper statuses PENDING/RUNNING/SUCCESS/FAILURE (§3 gives its listing as examples; FAILURE is
// §7's), uses UUIDs as task IDs, and replays a submission that repeats an `Idempotency-Key`.
//
// Timing (speed 1): a task waits 8–20 s, then renders 20–40 s with progress rising from 5% to 95%;
// a failing task stops 40–70% of the way through its render.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  callerOf,
  contentProblems,
  duration,
  header,
  isObject,
  listen,
  mediaType,
  NOT_JSON,
  parseJson,
  PRIMARY_MODELS,
  randomText,
  readBody,
  SECOND_FAMILY,
  send,
  sendVideo,
  settingsOf,
  submissionProblems,
  unix,
  VIDEO,
  wantsFailure,
  type DeploymentKey,
  type DeploymentOptions,
  type FieldProblem,
  type RunningDeployment,
  type Settings,
} from './support.ts';

/** The redirector breaks no documented rule on purpose: it has no departures. */
export const REDIRECTOR_DEPARTURES = {} as const;

const HEX = '0123456789abcdef';
const QUEUE_MS = [8_000, 20_000] as const;
const RUN_MS = [20_000, 40_000] as const;
/** How long the result address (metadata.url) lives after completion, and a /content redirect's. */
const RESULT_TTL_MS = 3_600_000;
const REDIRECT_TTL_MS = 600_000;
const BODY_LIMIT = 256 << 10;
const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
const DEFAULT_RATE = { requests: 1200, windowMs: 60_000 } as const;
const JSON_TYPE = 'application/json; charset=utf-8';

type Phase = 'PENDING' | 'RUNNING' | 'SUCCESS' | 'FAILURE';
const OPENAI_STATUS: Record<Phase, string> = {
  PENDING: 'queued',
  RUNNING: 'in_progress',
  SUCCESS: 'completed',
  FAILURE: 'failed',
};
const NATIVE_STATUS: Record<Phase, string> = {
  PENDING: 'queued',
  RUNNING: 'running',
  SUCCESS: 'succeeded',
  FAILURE: 'failed',
};

interface Task {
  readonly id: string;
  readonly owner: DeploymentKey;
  readonly model: string;
  readonly createdAt: number;
  readonly queueMs: number;
  readonly runMs: number;
  /** The share of its render after which a failing task fails. */
  readonly failsAt: number | undefined;
  readonly seconds: number;
}

interface View {
  readonly phase: Phase;
  readonly progress: number;
  readonly updatedAt: number;
  readonly startedAt: number | undefined;
  readonly finishedAt: number | undefined;
}

interface OwnError {
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  /** Fields at fault: one error each, with a JSON pointer to the field. */
  readonly problems?: readonly FieldProblem[];
}

const TOO_LARGE: OwnError = {
  code: 'payload_too_large',
  title: 'Payload too large',
  detail: `At most ${BODY_LIMIT} bytes`,
};
const invalid = (problems: readonly FieldProblem[]): OwnError => ({
  code: 'invalid_field',
  title: 'Validation failed',
  detail: 'The task is not valid',
  problems,
});
const forbidden = (model: string): OwnError => ({
  code: 'model_forbidden',
  title: 'Model not allowed',
  detail: `This key may not use ${model}`,
});

interface Call {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly requestId: string;
}

class Redirector {
  readonly #tasks = new Map<string, Task>();
  readonly #replays = new Map<string, { task: Task; at: number }>();
  readonly #windows = new Map<string, { start: number; count: number }>();
  /** Signs the video addresses; a new server, new signatures. */
  readonly #secret: string;
  readonly #rate: { readonly requests: number; readonly windowMs: number };

  constructor(
    readonly s: Settings,
    readonly origin: string,
  ) {
    this.#secret = randomText(s, HEX, 64);
    this.#rate = s.options.rateLimit ?? DEFAULT_RATE;
  }

  readonly handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const own = header(request, 'x-request-id');
    const requestId =
      own !== undefined && /^[\w.:-]{1,128}$/.test(own)
        ? own
        : `req_${randomText(this.s, HEX, 24)}`;
    const call: Call = { request, response, requestId };
    response.setHeader('X-Request-ID', requestId);
    const url = new URL(request.url ?? '/', this.origin);
    const method = request.method ?? 'GET';
    // The signed address needs no key: its signature is the permission.
    const file = /^\/files\/([^/]+)\.mp4$/.exec(url.pathname);
    if (file !== null && (method === 'GET' || method === 'HEAD'))
      return this.#file(call, decodeURIComponent(file[1]!), url);
    const route = this.#route(method, url.pathname);
    if (route === undefined)
      return this.#error(call, 404, {
        code: 'route_not_found',
        title: 'Not found',
        detail: `No route for ${url.pathname}`,
      });
    if (typeof route === 'string') {
      call.response.setHeader('allow', route);
      return this.#error(call, 405, {
        code: 'method_not_allowed',
        title: 'Method not allowed',
        detail: `Use ${route}`,
      });
    }
    const caller = callerOf(this.s, request);
    if (caller === undefined) {
      response.setHeader('www-authenticate', 'Bearer realm="videotask", error="invalid_token"');
      const detail =
        header(request, 'authorization') === undefined
          ? 'No API key was sent'
          : 'The API key is not valid';
      return this.#error(call, 401, {
        code: 'unauthenticated',
        title: 'Authentication required',
        detail: detail,
      });
    }
    if (!this.#withinRate(call, caller)) return;
    await route(call, caller);
  };

  /** The handler of a path, or the methods it allows (`GET, HEAD`), or `undefined` for no route. */
  #route(
    method: string,
    path: string,
  ): ((call: Call, caller: DeploymentKey) => unknown) | string | undefined {
    const get = (handler: (c: Call, k: DeploymentKey) => unknown) =>
      method === 'GET' || method === 'HEAD' ? handler : 'GET, HEAD';
    const post = (handler: (c: Call, k: DeploymentKey) => unknown) =>
      method === 'POST' ? handler : 'POST';
    if (path === '/v1/models') return get((c, k) => this.#catalog(c, k));
    if (path === '/v1/video/generations' || path === '/v1/videos')
      return post((c, k) => this.#submit(c, k));
    let m = /^\/v1\/videos\/([^/]+)\/content$/.exec(path);
    if (m !== null) return get((c, k) => this.#content(c, k, decodeURIComponent(m![1]!)));
    m = /^\/v1\/videos\/([^/]+)$/.exec(path);
    if (m !== null) return get((c, k) => this.#openAi(c, k, decodeURIComponent(m![1]!)));
    m = /^\/v1\/video\/generations\/([^/]+)$/.exec(path);
    if (m !== null) return get((c, k) => this.#wrapper(c, k, decodeURIComponent(m![1]!)));
    m = /^\/([^/]+)\/api\/v3\/contents\/generations\/tasks(?:\/([^/]+))?$/.exec(path);
    // The plugin's path exists only once it is bound to the channel (§9 step 1).
    if (m === null || !this.s.familyBound || decodeURIComponent(m[1]!) !== this.s.plugin)
      return undefined;
    const id = m[2];
    if (id === undefined) return post((c, k) => this.#nativeSubmit(c, k));
    return get((c, k) => this.#nativeQuery(c, k, decodeURIComponent(id)));
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

  /** Its own error body: a list of errors (one per field at fault), and the request ID in `meta`. */
  #error(call: Call, status: number, error: OwnError): void {
    const { code, title, detail, problems = [] } = error;
    const one = { status: String(status), code, title };
    const errors =
      problems.length === 0
        ? [{ ...one, detail }]
        : problems.map((p) => ({
            ...one,
            detail: `${p.field} ${p.problem}`,
            source: { pointer: `/${p.field.replace(/\./g, '/')}` },
          }));
    const body = { errors, meta: { request_id: call.requestId } };
    this.#json(call, status, body, { 'cache-control': 'no-store' });
  }

  /** A fixed window per key; every keyed answer says where the key stands. */
  #withinRate(call: Call, caller: DeploymentKey): boolean {
    const now = Date.now();
    const { requests, windowMs } = this.#rate;
    let window = this.#windows.get(caller.key);
    if (window === undefined || now - window.start >= windowMs)
      this.#windows.set(caller.key, (window = { start: now, count: 0 }));
    window.count++;
    const resetMs = window.start + windowMs - now;
    call.response.setHeader('X-RateLimit-Limit', requests);
    call.response.setHeader('X-RateLimit-Remaining', Math.max(0, requests - window.count));
    call.response.setHeader('X-RateLimit-Reset', unix(window.start + windowMs));
    if (window.count <= requests) return true;
    call.response.setHeader('retry-after', Math.max(1, Math.ceil(resetMs / 1000)));
    this.#error(call, 429, {
      code: 'rate_limited',
      title: 'Too many requests',
      detail: `At most ${requests} requests per ${windowMs / 1000} s`,
    });
    return false;
  }

  // --- the catalog -------------------------------------------------------------------------------

  #catalog(call: Call, caller: DeploymentKey): void {
    const listed = caller.models.filter(
      (m) => PRIMARY_MODELS.includes(m) || (this.s.familyBound && SECOND_FAMILY.includes(m)),
    );
    const data = listed.map((id) => ({
      id,
      object: 'model',
      created: 1767225600,
      owned_by: 'videotask',
    }));
    this.#json(call, 200, { object: 'list', data }, { 'cache-control': 'private, max-age=60' });
  }

  // --- submission ------------------------------------------------------------------------------

  async #submit(call: Call, caller: DeploymentKey): Promise<void> {
    if (mediaType(header(call.request, 'content-type')) !== 'application/json')
      return this.#error(call, 415, {
        code: 'unsupported_media_type',
        title: 'Unsupported media type',
        detail: 'Send the task as application/json',
      });
    const bytes = await readBody(call.request, BODY_LIMIT);
    if (bytes === 'too-large') {
      call.response.setHeader('connection', 'close');
      return this.#error(call, 413, TOO_LARGE);
    }
    const body = parseJson(bytes);
    if (body === NOT_JSON)
      return this.#error(call, 400, {
        code: 'malformed_json',
        title: 'Malformed JSON',
        detail: 'The body is not valid JSON',
      });
    const problems = submissionProblems(body);
    if (problems.length > 0 || !isObject(body)) return this.#error(call, 422, invalid(problems));
    const model = body['model'] as string;
    if (this.#modelRefusal(call, caller, model, body) || this.#quotaRefusal(call, caller)) return;
    const key = header(call.request, 'idempotency-key');
    const replay = key === undefined ? undefined : this.#replays.get(`${caller.user}\n${key}`);
    if (replay !== undefined && Date.now() - replay.at < IDEMPOTENCY_TTL_MS)
      return this.#json(call, 200, this.#submitted(replay.task), { 'idempotent-replayed': 'true' });
    const task = this.#create(call.request, caller, model, body['prompt'] as string, body);
    if (key !== undefined)
      this.#replays.set(`${caller.user}\n${key}`, { task, at: task.createdAt });
    this.#json(call, 200, this.#submitted(task), { location: `/v1/videos/${task.id}` });
  }

  /** Answers a model this key may not use, or cannot use yet; true when it did. */
  #modelRefusal(
    call: Call,
    caller: DeploymentKey,
    model: string,
    body: Record<string, unknown>,
  ): boolean {
    const known = PRIMARY_MODELS.includes(model) || SECOND_FAMILY.includes(model);
    if (!known) {
      this.#error(call, 422, {
        code: 'unknown_model',
        title: 'Unknown model',
        detail: `No model ${model}`,
        problems: [{ field: 'model', problem: 'is not a model of this service' }],
      });
      return true;
    }
    if (!caller.models.includes(model)) {
      this.#error(call, 403, forbidden(model));
      return true;
    }
    if (!SECOND_FAMILY.includes(model)) return false;
    if (!this.s.familyBound) {
      // §1: configured, but its task plugin is not bound to its channel yet.
      this.#error(call, 422, {
        code: 'model_unavailable',
        title: 'Model not available',
        detail: `${model} is configured but not served yet (its task plugin is not bound)`,
      });
      return true;
    }
    const content = contentProblems(body);
    if (content.length === 0) return false;
    this.#error(call, 422, invalid(content));
    return true;
  }

  /** A user whose quota is used up: 402 (answered; true). */
  #quotaRefusal(call: Call, caller: DeploymentKey): boolean {
    if (caller.quotaExhausted !== true) return false;
    const detail = 'The quota of this account is used up: top it up to create tasks';
    this.#error(call, 402, { code: 'quota_exhausted', title: 'Payment required', detail });
    return true;
  }

  #create(
    request: IncomingMessage,
    owner: DeploymentKey,
    model: string,
    prompt: string,
    body: Record<string, unknown>,
  ): Task {
    const { s } = this;
    const fails = wantsFailure(prompt, request);
    const metadata = isObject(body['metadata']) ? body['metadata'] : {};
    const seconds =
      typeof metadata['duration'] === 'number'
        ? metadata['duration']
        : Number(body['seconds'] ?? body['duration'] ?? 5);
    const task: Task = {
      id: uuid(s),
      owner,
      model,
      createdAt: Date.now(),
      queueMs: duration(s, QUEUE_MS),
      runMs: duration(s, RUN_MS),
      failsAt: fails ? 0.4 + s.random() * 0.3 : undefined,
      seconds: Number.isFinite(seconds) ? seconds : 5,
    };
    this.#tasks.set(task.id, task);
    return task;
  }

  #submitted(task: Task): Record<string, unknown> {
    return { ...this.#openAiForm(task, task.createdAt), status: 'queued', progress: 0 };
  }

  // --- the task's state --------------------------------------------------------------------------

  #viewAt(task: Task, now: number): View {
    const started = task.createdAt + task.queueMs;
    if (now < started)
      return {
        phase: 'PENDING',
        progress: 0,
        updatedAt: task.createdAt,
        startedAt: undefined,
        finishedAt: undefined,
      };
    const ends = started + task.runMs * (task.failsAt ?? 1);
    const render = (t: number) => 5 + Math.floor((90 * (t - started)) / task.runMs);
    if (now < ends)
      return {
        phase: 'RUNNING',
        progress: render(now),
        updatedAt: now,
        startedAt: started,
        finishedAt: undefined,
      };
    if (task.failsAt !== undefined)
      return {
        phase: 'FAILURE',
        progress: render(ends),
        updatedAt: ends,
        startedAt: started,
        finishedAt: ends,
      };
    return {
      phase: 'SUCCESS',
      progress: 100,
      updatedAt: ends,
      startedAt: started,
      finishedAt: ends,
    };
  }

  /** The result address: signed, stable for the task, expiring an hour (of its timing) after completion. */
  #resultUrl(task: Task, view: View): string {
    return this.#signed(task.id, view.finishedAt! + RESULT_TTL_MS / this.s.speed);
  }

  #signed(id: string, expiresMs: number): string {
    const expires = unix(expiresMs);
    return `${this.origin}/files/${encodeURIComponent(id)}.mp4?expires=${expires}&sig=${this.#signature(id, expires)}`;
  }

  #signature(id: string, expires: number): string {
    return createHmac('sha256', this.#secret).update(`${id}\n${expires}`).digest('base64url');
  }

  #openAiForm(task: Task, now: number): Record<string, unknown> {
    const view = this.#viewAt(task, now);
    const done = view.phase === 'SUCCESS';
    return {
      id: task.id,
      task_id: task.id,
      object: 'video',
      model: task.model,
      status: OPENAI_STATUS[view.phase],
      progress: view.progress,
      created_at: unix(task.createdAt),
      ...(view.startedAt === undefined ? {} : { started_at: unix(view.startedAt) }),
      ...(done ? { completed_at: unix(view.finishedAt!) } : {}),
      ...(done
        ? {
            metadata: {
              url: this.#resultUrl(task, view),
              expires_at: unix(view.finishedAt! + RESULT_TTL_MS / this.s.speed),
            },
          }
        : {}),
      ...(view.phase === 'FAILURE' ? { error: failure(task) } : {}),
    };
  }

  #own(caller: DeploymentKey, id: string): Task | undefined {
    const task = this.#tasks.get(id);
    return task?.owner.user === caller.user ? task : undefined;
  }

  /** Missing and foreign tasks read alike: 404 (§5: a task is visible only to its owner). */
  #notFound(call: Call, id: string): void {
    this.#error(call, 404, {
      code: 'task_not_found',
      title: 'Task not found',
      detail: `No task ${id.slice(0, 64)} for this key`,
    });
  }

  // --- queries and content ---------------------------------------------------------------------

  #openAi(call: Call, caller: DeploymentKey, id: string): void {
    const task = this.#own(caller, id);
    if (task === undefined) return this.#notFound(call, id);
    this.#json(call, 200, this.#openAiForm(task, Date.now()), { 'cache-control': 'no-store' });
  }

  #wrapper(call: Call, caller: DeploymentKey, id: string): void {
    const task = this.#own(caller, id);
    if (task === undefined) return this.#notFound(call, id);
    const view = this.#viewAt(task, Date.now());
    const data = {
      task_id: task.id,
      platform: 'ark',
      status: view.phase,
      progress: `${view.progress}%`,
      result_url: view.phase === 'SUCCESS' ? this.#resultUrl(task, view) : '',
      fail_reason: view.phase === 'FAILURE' ? failure(task).message : '',
      created_at: unix(task.createdAt),
      updated_at: unix(view.updatedAt),
    };
    this.#json(call, 200, { code: 'success', message: '', data }, { 'cache-control': 'no-store' });
  }

  /** A completed task's video: a 302 to a fresh signed address on this server. */
  #content(call: Call, caller: DeploymentKey, id: string): void {
    const task = this.#own(caller, id);
    if (task === undefined) return this.#notFound(call, id);
    const now = Date.now();
    const view = this.#viewAt(task, now);
    if (view.phase === 'FAILURE')
      return this.#error(call, 409, {
        code: 'task_failed',
        title: 'Task failed',
        detail: 'A failed task has no video',
      });
    if (view.phase !== 'SUCCESS')
      return this.#error(call, 409, {
        code: 'task_not_ready',
        title: 'Task not finished',
        detail: `The task is ${OPENAI_STATUS[view.phase]}: poll it`,
      });
    const location = this.#signed(task.id, now + REDIRECT_TTL_MS / this.s.speed);
    send(call.request, call.response, 302, { location, 'cache-control': 'no-store' });
  }

  /** The signed address: the video, with Range, for as long as its signature holds. */
  #file(call: Call, id: string, url: URL): void {
    const expires = Number(url.searchParams.get('expires'));
    const given = Buffer.from(url.searchParams.get('sig') ?? '');
    const wanted = Buffer.from(this.#signature(id, expires));
    if (
      !Number.isInteger(expires) ||
      given.length !== wanted.length ||
      !timingSafeEqual(given, wanted)
    )
      return this.#error(call, 403, {
        code: 'signature_invalid',
        title: 'Forbidden',
        detail: 'The address is not signed by this service',
      });
    if (unix(Date.now()) > expires)
      return this.#error(call, 403, {
        code: 'url_expired',
        title: 'Forbidden',
        detail: 'This address has expired: ask /content again',
      });
    const headers = {
      'content-type': 'video/mp4',
      'cache-control': `private, max-age=${Math.max(0, expires - unix(Date.now()))}`,
      etag: `"${createHmac('sha256', 'etag').update(VIDEO).digest('hex').slice(0, 16)}"`,
    };
    sendVideo(call.request, call.response, headers, () => {
      call.response.setHeader('content-range', `bytes */${VIDEO.byteLength}`);
      this.#error(call, 416, {
        code: 'range_not_satisfiable',
        title: 'Range not satisfiable',
        detail: `The video has ${VIDEO.byteLength} bytes`,
      });
    });
  }

  // --- the second family's native path (§4.5), once bound ---------------------------------------

  async #nativeSubmit(call: Call, caller: DeploymentKey): Promise<void> {
    const bytes = await readBody(call.request, BODY_LIMIT);
    if (bytes === 'too-large') return this.#error(call, 413, TOO_LARGE);
    const body = parseJson(bytes);
    if (!isObject(body))
      return this.#error(call, 400, {
        code: 'malformed_json',
        title: 'Malformed JSON',
        detail: 'The body must be a JSON object',
      });
    const mixed = ['prompt', 'image', 'images', 'seconds', 'size', 'metadata'].filter(
      (f) => f in body,
    );
    if (mixed.length > 0)
      return this.#error(call, 422, {
        code: 'mixed_formats',
        title: 'Validation failed',
        detail: 'The native format does not take OpenAI-form fields',
        problems: mixed.map((field) => ({ field, problem: 'is an OpenAI-form field' })),
      });
    const model = body['model'];
    const text = nativePrompt(body);
    if (typeof model !== 'string' || !SECOND_FAMILY.includes(model) || text === '')
      return this.#error(
        call,
        422,
        invalid([
          ...(typeof model === 'string' && SECOND_FAMILY.includes(model)
            ? []
            : [{ field: 'model', problem: 'must be a model of this plugin' }]),
          ...(text === '' ? [{ field: 'content', problem: 'needs a text item' }] : []),
        ]),
      );
    if (!caller.models.includes(model)) return this.#error(call, 403, forbidden(model));
    if (this.#quotaRefusal(call, caller)) return;
    const task = this.#create(call.request, caller, model, text, body);
    this.#json(call, 200, { id: task.id });
  }

  #nativeQuery(call: Call, caller: DeploymentKey, id: string): void {
    const task = this.#own(caller, id);
    if (task === undefined) return this.#notFound(call, id);
    const view = this.#viewAt(task, Date.now());
    this.#json(call, 200, {
      id: task.id,
      model: task.model,
      status: NATIVE_STATUS[view.phase],
      ...(view.phase === 'SUCCESS' ? { content: { video_url: this.#resultUrl(task, view) } } : {}),
      ...(view.phase === 'FAILURE' ? { error: failure(task) } : {}),
      created_at: unix(task.createdAt),
      updated_at: unix(view.updatedAt),
    });
  }
}

function failure(task: Task): { code: string; message: string } {
  return {
    code: 'generation_failed',
    message: `The renderer stopped after ${Math.round((task.failsAt ?? 0) * 100)}% of the clip`,
  };
}

function nativePrompt(body: Record<string, unknown>): string {
  const content = Array.isArray(body['content']) ? (body['content'] as unknown[]) : [];
  const texts = content.map((i) =>
    isObject(i) && i['type'] === 'text' && typeof i['text'] === 'string' ? i['text'] : '',
  );
  return texts.join(' ').trim();
}

/** A version-4 UUID from the deployment's random source. */
function uuid(s: Settings): string {
  const hex = randomText(s, HEX, 32).split('');
  hex[12] = '4';
  hex[16] = HEX[8 + Math.floor(s.random() * 4)]!;
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Starts the redirector deployment on a real port. */
export async function startRedirector(options: DeploymentOptions = {}): Promise<RunningDeployment> {
  const s = settingsOf('redirector', options, REDIRECTOR_DEPARTURES);
  return listen('redirector', s, (origin) => new Redirector(s, origin).handle);
}
