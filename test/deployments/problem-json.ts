// A held-out test deployment that conforms to the service document in ways of its own where the
// document is silent: errors as `application/problem+json` (RFC 9457) with a 404 for content not
// ready yet and a 410 for a failed task's; task IDs `vt-` + ULID; extra fields in every object; no
// request-ID header; a catalog `{models: [{name, …}]}`; the video as `application/octet-stream`,
// chunked, without Content-Length (Range ignored); ETag and Cache-Control of its own (a matching
// If-None-Match gets 304); tasks that may start at once; and a 429 with Retry-After on a submission
// past the key's task budget.
//
// Timing (speed 1): half the tasks start at once, the others wait 2–6 s; rendering takes 15–40 s,
// progress in quarter steps; a failing task fails 60% of the way through.
import { createHash } from 'node:crypto';
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

/** problem-json breaks no documented rule on purpose: it has no departures. */
export const PROBLEM_JSON_DEPARTURES = {} as const;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const HEX = '0123456789abcdef';
const QUEUE_MS = [2_000, 6_000] as const;
const RUN_MS = [15_000, 40_000] as const;
const FAILS_AT = 0.6;
const BODY_LIMIT = 64 << 10;
const CHUNK = 1024;
const DEFAULT_BUDGET = { tasks: 10, windowMs: 60_000 } as const;
const PROBLEMS = 'https://problems.videotask.example/';
const API_VERSION = '2026-10-01';

type Phase = 'QUEUED' | 'IN_PROGRESS' | 'SUCCESS' | 'FAILURE';
const OPENAI_STATUS: Record<Phase, string> = {
  QUEUED: 'queued',
  IN_PROGRESS: 'in_progress',
  SUCCESS: 'completed',
  FAILURE: 'failed',
};
const NATIVE_STATUS: Record<Phase, string> = {
  QUEUED: 'queued',
  IN_PROGRESS: 'running',
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
  readonly fails: boolean;
  readonly seconds: number;
  readonly mediaToken: string;
}

interface View {
  readonly phase: Phase;
  readonly progress: number;
  readonly updatedAt: number;
  readonly startedAt: number | undefined;
  readonly finishedAt: number | undefined;
}

interface Call {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly path: string;
}

interface Problem {
  readonly status: number;
  /** The slug of the problem type URI. */
  readonly type: string;
  readonly title: string;
  readonly detail: string;
  readonly extra?: Record<string, unknown>;
}

class ProblemJson {
  readonly #tasks = new Map<string, Task>();
  readonly #spent = new Map<string, number[]>();
  readonly #budget: { readonly tasks: number; readonly windowMs: number };

  constructor(readonly s: Settings) {
    this.#budget = s.options.submissionBudget ?? DEFAULT_BUDGET;
  }

  readonly handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = new URL(request.url ?? '/', 'http://problem-json').pathname;
    const call: Call = { request, response, path };
    const method = request.method ?? 'GET';
    const route = this.#route(method, path);
    if (route === undefined)
      return this.#problem(call, {
        status: 404,
        type: 'not-found',
        title: 'Not Found',
        detail: `Nothing at ${path}`,
      });
    if (typeof route === 'string') {
      response.setHeader('allow', route);
      return this.#problem(call, {
        status: 405,
        type: 'method-not-allowed',
        title: 'Method Not Allowed',
        detail: `Allowed: ${route}`,
      });
    }
    const caller = callerOf(this.s, request);
    if (caller === undefined) {
      response.setHeader('www-authenticate', 'Bearer error="invalid_token"');
      return this.#problem(call, {
        status: 401,
        type: 'unauthorized',
        title: 'Unauthorized',
        detail: 'A valid API key is required',
      });
    }
    await route(call, caller);
  };

  #route(
    method: string,
    path: string,
  ): ((call: Call, caller: DeploymentKey) => unknown) | string | undefined {
    const get = (h: (c: Call, k: DeploymentKey) => unknown) =>
      method === 'GET' || method === 'HEAD' ? h : 'GET, HEAD';
    const post = (h: (c: Call, k: DeploymentKey) => unknown) => (method === 'POST' ? h : 'POST');
    if (path === '/v1/models') return get((c, k) => this.#catalog(c, k));
    if (path === '/v1/video/generations' || path === '/v1/videos')
      return post((c, k) => this.#submit(c, k));
    let m = /^\/v1\/videos\/([^/]+)\/content$/.exec(path);
    if (m !== null) return get((c, k) => this.#content(c, k, decodeURIComponent(m![1]!)));
    m = /^\/v1\/videos\/([^/]+)$/.exec(path);
    if (m !== null) return get((c, k) => this.#query(c, k, decodeURIComponent(m![1]!), 'openai'));
    m = /^\/v1\/video\/generations\/([^/]+)$/.exec(path);
    if (m !== null) return get((c, k) => this.#query(c, k, decodeURIComponent(m![1]!), 'wrapper'));
    m = /^\/([^/]+)\/api\/v3\/contents\/generations\/tasks(?:\/([^/]+))?$/.exec(path);
    if (m === null || !this.s.familyBound || decodeURIComponent(m[1]!) !== this.s.plugin)
      return undefined;
    const id = m[2];
    if (id === undefined) return post((c, k) => this.#nativeSubmit(c, k));
    return get((c, k) => this.#query(c, k, decodeURIComponent(id), 'native'));
  }

  // --- answers ---------------------------------------------------------------------------------

  /** A JSON answer; with an ETag, a request whose If-None-Match matches gets 304. */
  #json(call: Call, status: number, body: unknown, cache: string, etag = false): void {
    const text = JSON.stringify(body);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'cache-control': cache,
    };
    if (etag) {
      headers['etag'] = `W/"${createHash('sha256').update(text).digest('base64url').slice(0, 22)}"`;
      if (header(call.request, 'if-none-match') === headers['etag']) {
        call.response.writeHead(304, { etag: headers['etag'], 'cache-control': cache });
        return void call.response.end();
      }
    }
    send(call.request, call.response, status, headers, text);
  }

  /** RFC 9457: type, title, status, detail, instance, and extension members. */
  #problem(call: Call, p: Problem): void {
    const body = {
      type: `${PROBLEMS}${p.type}`,
      title: p.title,
      status: p.status,
      detail: p.detail,
      instance: call.path,
      ...p.extra,
    };
    send(
      call.request,
      call.response,
      p.status,
      { 'content-type': 'application/problem+json', 'cache-control': 'no-store' },
      JSON.stringify(body),
    );
  }

  #invalid(
    call: Call,
    problems: readonly FieldProblem[],
    detail = 'The request has invalid fields',
  ): void {
    const errors = problems.map((p) => ({
      pointer: `/${p.field.replace(/\./g, '/')}`,
      detail: p.problem,
    }));
    this.#problem(call, {
      status: 400,
      type: 'validation',
      title: 'Invalid request',
      detail,
      extra: { errors },
    });
  }

  // --- the catalog -------------------------------------------------------------------------------

  #catalog(call: Call, caller: DeploymentKey): void {
    const listed = caller.models.filter(
      (m) => PRIMARY_MODELS.includes(m) || (this.s.familyBound && SECOND_FAMILY.includes(m)),
    );
    const models = listed.map((name) => ({
      name,
      family: SECOND_FAMILY.includes(name) ? 'alt' : 'core',
      max_seconds: SECOND_FAMILY.includes(name) ? 12 : 60,
    }));
    this.#json(call, 200, { models, api_version: API_VERSION }, 'private, max-age=300', true);
  }

  // --- submission ------------------------------------------------------------------------------

  async #submit(call: Call, caller: DeploymentKey): Promise<void> {
    const type = mediaType(header(call.request, 'content-type'));
    if (type !== 'application/json' && !/^application\/[\w.-]+\+json$/.test(type))
      return this.#problem(call, {
        status: 415,
        type: 'unsupported-media-type',
        title: 'Unsupported Media Type',
        detail: 'Send application/json',
      });
    const bytes = await readBody(call.request, BODY_LIMIT);
    if (bytes === 'too-large') {
      call.response.setHeader('connection', 'close');
      return this.#problem(call, {
        status: 413,
        type: 'too-large',
        title: 'Content Too Large',
        detail: `At most ${BODY_LIMIT} bytes`,
      });
    }
    const body = parseJson(bytes);
    if (body === NOT_JSON)
      return this.#invalid(
        call,
        [{ field: '', problem: 'is not valid JSON' }],
        'The body is not JSON',
      );
    const problems = submissionProblems(body);
    if (problems.length > 0 || !isObject(body)) return this.#invalid(call, problems);
    const model = body['model'] as string;
    if (!this.#usable(call, caller, model)) return;
    const content = SECOND_FAMILY.includes(model) ? contentProblems(body) : [];
    if (content.length > 0) return this.#invalid(call, content);
    if (!this.#withinQuota(call, caller) || !this.#withinBudget(call, caller)) return;
    const task = this.#create(call.request, caller, model, body['prompt'] as string, body);
    this.#json(call, 200, this.#openAiForm(task, task.createdAt, true), 'no-store');
  }

  /** A model this key may use now: unknown 400, not allowed 403, the unbound family 403 (§1). */
  #usable(call: Call, caller: DeploymentKey, model: string): boolean {
    if (!PRIMARY_MODELS.includes(model) && !SECOND_FAMILY.includes(model)) {
      this.#invalid(call, [{ field: 'model', problem: `${model} is not a model of this service` }]);
      return false;
    }
    if (!caller.models.includes(model)) {
      this.#problem(call, {
        status: 403,
        type: 'model-not-permitted',
        title: 'Forbidden',
        detail: `This key may not use ${model}`,
      });
      return false;
    }
    if (SECOND_FAMILY.includes(model) && !this.s.familyBound) {
      const detail = `${model} is configured but not enabled: its task plugin is not bound yet`;
      this.#problem(call, { status: 403, type: 'model-not-enabled', title: 'Forbidden', detail });
      return false;
    }
    return true;
  }

  /** A user whose quota is used up gets 403 `quota-exhausted`. */
  #withinQuota(call: Call, caller: DeploymentKey): boolean {
    if (caller.quotaExhausted !== true) return true;
    const detail = 'The quota of this account is used up';
    this.#problem(call, { status: 403, type: 'quota-exhausted', title: 'Forbidden', detail });
    return false;
  }

  /** At most `tasks` new tasks per key per window; past it, 429 with Retry-After (real seconds). */
  #withinBudget(call: Call, caller: DeploymentKey): boolean {
    const now = Date.now();
    const { tasks, windowMs } = this.#budget;
    const recent = (this.#spent.get(caller.key) ?? []).filter((t) => now - t < windowMs);
    this.#spent.set(caller.key, recent);
    if (recent.length < tasks) {
      recent.push(now);
      return true;
    }
    const retry = Math.max(1, Math.ceil((recent[0]! + windowMs - now) / 1000));
    call.response.setHeader('retry-after', retry);
    const detail = `This key may create ${tasks} tasks per ${windowMs / 1000} s`;
    this.#problem(call, {
      status: 429,
      type: 'task-budget',
      title: 'Too Many Requests',
      detail,
      extra: { retry_after: retry },
    });
    return false;
  }

  #create(
    request: IncomingMessage,
    owner: DeploymentKey,
    model: string,
    prompt: string,
    body: Record<string, unknown>,
  ): Task {
    const { s } = this;
    const metadata = isObject(body['metadata']) ? body['metadata'] : {};
    const seconds = Number(metadata['duration'] ?? body['seconds'] ?? body['duration'] ?? 5);
    const task: Task = {
      id: `vt-${ulid(s)}`,
      owner,
      model,
      createdAt: Date.now(),
      // Half the tasks start at once.
      queueMs: s.random() < 0.5 ? 0 : duration(s, QUEUE_MS),
      runMs: duration(s, RUN_MS),
      fails: wantsFailure(prompt, request),
      seconds: Number.isFinite(seconds) ? seconds : 5,
      mediaToken: randomText(s, HEX, 40),
    };
    this.#tasks.set(task.id, task);
    return task;
  }

  // --- the task's state --------------------------------------------------------------------------

  #viewAt(task: Task, now: number): View {
    const started = task.createdAt + task.queueMs;
    if (now < started)
      return {
        phase: 'QUEUED',
        progress: 0,
        updatedAt: task.createdAt,
        startedAt: undefined,
        finishedAt: undefined,
      };
    const ends = started + task.runMs * (task.fails ? FAILS_AT : 1);
    const quarter = (t: number) => 25 * Math.floor((4 * (t - started)) / task.runMs);
    if (now < ends) {
      const progress = quarter(now);
      // Its update time is when the progress last moved.
      const updatedAt = started + (progress / 100) * task.runMs;
      return {
        phase: 'IN_PROGRESS',
        progress,
        updatedAt,
        startedAt: started,
        finishedAt: undefined,
      };
    }
    if (task.fails)
      return {
        phase: 'FAILURE',
        progress: quarter(ends),
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

  #links(task: Task): Record<string, string> {
    const self = `/v1/videos/${task.id}`;
    return { self, content: `${self}/content`, wrapper: `/v1/video/generations/${task.id}` };
  }

  /** The OpenAI form with extras; a submission answer says `queued` even for a task that starts at once. */
  #openAiForm(task: Task, now: number, submission = false): Record<string, unknown> {
    const view = submission ? undefined : this.#viewAt(task, now);
    const phase = view?.phase ?? 'QUEUED';
    return {
      id: task.id,
      task_id: task.id,
      object: 'video',
      kind: 'video.task',
      model: task.model,
      status: OPENAI_STATUS[phase],
      progress: view?.progress ?? 0,
      created_at: unix(task.createdAt),
      updated_at: unix(view?.updatedAt ?? task.createdAt),
      started_at: view?.startedAt === undefined ? null : unix(view.startedAt),
      ...(phase === 'SUCCESS' ? { completed_at: unix(view!.finishedAt!) } : {}),
      ...(phase === 'SUCCESS' ? { metadata: this.#resultMetadata(task) } : {}),
      ...(phase === 'FAILURE' ? { error: failure() } : {}),
      seconds: String(task.seconds),
      eta_seconds: view === undefined || view.finishedAt === undefined ? this.#eta(task, now) : 0,
      links: this.#links(task),
    };
  }

  #eta(task: Task, now: number): number {
    return Math.max(0, Math.ceil((task.createdAt + task.queueMs + task.runMs - now) / 1000));
  }

  #resultMetadata(task: Task): Record<string, unknown> {
    return {
      url: `https://media.videotask.example/v/${task.mediaToken}.mp4?exp=${unix(task.createdAt) + 7200}`,
      media_type: 'application/octet-stream',
      bytes: VIDEO.byteLength,
    };
  }

  #wrapperForm(task: Task, view: View): Record<string, unknown> {
    return {
      code: 'success',
      message: '',
      data: {
        task_id: task.id,
        platform: 'vt-render',
        status: view.phase,
        progress: `${view.progress}%`,
        ...(view.phase === 'SUCCESS'
          ? { result_url: (this.#resultMetadata(task) as { url: string }).url }
          : {}),
        fail_reason: view.phase === 'FAILURE' ? failure().message : '',
        created_at: unix(task.createdAt),
        updated_at: unix(view.updatedAt),
        attempt: 1,
        region: 'eu-central-1',
      },
      meta: { api_version: API_VERSION },
    };
  }

  #nativeForm(task: Task, view: View): Record<string, unknown> {
    return {
      id: task.id,
      model: task.model,
      status: NATIVE_STATUS[view.phase],
      ...(view.phase === 'SUCCESS'
        ? { content: { video_url: (this.#resultMetadata(task) as { url: string }).url } }
        : {}),
      ...(view.phase === 'FAILURE' ? { error: failure() } : {}),
      created_at: unix(task.createdAt),
      updated_at: unix(view.updatedAt),
      api_version: API_VERSION,
    };
  }

  /** The caller's own task; another user's reads as missing (§5). */
  #own(call: Call, caller: DeploymentKey, id: string): Task | undefined {
    const task = this.#tasks.get(id);
    if (task?.owner.user === caller.user) return task;
    this.#problem(call, {
      status: 404,
      type: 'task-not-found',
      title: 'Not Found',
      detail: 'No such task for this key',
    });
    return undefined;
  }

  // --- queries and content ---------------------------------------------------------------------

  #query(
    call: Call,
    caller: DeploymentKey,
    id: string,
    form: 'openai' | 'wrapper' | 'native',
  ): void {
    const task = this.#own(call, caller, id);
    if (task === undefined) return;
    const now = Date.now();
    const view = this.#viewAt(task, now);
    const body =
      form === 'openai'
        ? this.#openAiForm(task, now)
        : form === 'wrapper'
          ? this.#wrapperForm(task, view)
          : this.#nativeForm(task, view);
    this.#json(call, 200, body, 'no-cache', true);
  }

  /** The video as an octet stream, chunked, no Content-Length; HEAD sends the same headers. */
  #content(call: Call, caller: DeploymentKey, id: string): void {
    const task = this.#own(call, caller, id);
    if (task === undefined) return;
    const view = this.#viewAt(task, Date.now());
    if (view.phase === 'FAILURE')
      return this.#problem(call, {
        status: 410,
        type: 'task-failed',
        title: 'Gone',
        detail: 'The task failed: it has no video',
      });
    if (view.phase !== 'SUCCESS') {
      const detail = `The video is not ready: the task is ${OPENAI_STATUS[view.phase]}`;
      return this.#problem(call, {
        status: 404,
        type: 'content-not-ready',
        title: 'Not Found',
        detail,
        extra: { status_now: OPENAI_STATUS[view.phase] },
      });
    }
    call.response.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-disposition': `attachment; filename="${task.id}.mp4"`,
      'cache-control': 'private, max-age=86400, immutable',
      'accept-ranges': 'none',
    });
    if (call.request.method === 'HEAD') return void call.response.end();
    for (let at = 0; at < VIDEO.byteLength; at += CHUNK)
      call.response.write(VIDEO.subarray(at, at + CHUNK));
    call.response.end();
  }

  // --- the second family's native path (§4.5), once bound ---------------------------------------

  async #nativeSubmit(call: Call, caller: DeploymentKey): Promise<void> {
    const bytes = await readBody(call.request, BODY_LIMIT);
    if (bytes === 'too-large')
      return this.#problem(call, {
        status: 413,
        type: 'too-large',
        title: 'Content Too Large',
        detail: `At most ${BODY_LIMIT} bytes`,
      });
    const body = parseJson(bytes);
    if (!isObject(body))
      return this.#invalid(call, [{ field: '', problem: 'must be a JSON object' }]);
    const mixed = ['prompt', 'image', 'images', 'seconds', 'size', 'metadata'].filter(
      (f) => f in body,
    );
    if (mixed.length > 0)
      return this.#invalid(
        call,
        mixed.map((field) => ({
          field,
          problem: 'belongs to the OpenAI form, not the native one',
        })),
        'The two formats are not mixed',
      );
    const model = body['model'];
    const content = Array.isArray(body['content']) ? (body['content'] as unknown[]) : [];
    const text = content
      .map((i) =>
        isObject(i) && i['type'] === 'text' && typeof i['text'] === 'string' ? i['text'] : '',
      )
      .join(' ')
      .trim();
    if (typeof model !== 'string' || !SECOND_FAMILY.includes(model))
      return this.#invalid(call, [{ field: 'model', problem: 'must be a model of this plugin' }]);
    if (text === '')
      return this.#invalid(call, [{ field: 'content', problem: 'needs a text item' }]);
    if (!this.#usable(call, caller, model) || !this.#withinQuota(call, caller)) return;
    if (!this.#withinBudget(call, caller)) return;
    const task = this.#create(call.request, caller, model, text, body);
    this.#json(
      call,
      200,
      { id: task.id, status: 'queued', created_at: unix(task.createdAt) },
      'no-store',
    );
  }
}

function failure(): { code: string; message: string } {
  return { code: 'E_RENDER_ABORTED', message: 'Rendering was aborted by the upstream renderer' };
}

/** A ULID: 48 bits of milliseconds and 80 random bits, in Crockford's base 32. */
function ulid(s: Settings): string {
  let time = Date.now();
  let stamp = '';
  for (let i = 0; i < 10; i++) {
    stamp = CROCKFORD[time % 32]! + stamp;
    time = Math.floor(time / 32);
  }
  return stamp + randomText(s, CROCKFORD, 16);
}

/** Starts the problem-json deployment on a real port. */
export async function startProblemJson(
  options: DeploymentOptions = {},
): Promise<RunningDeployment> {
  const s = settingsOf('problem-json', options, PROBLEM_JSON_DEPARTURES);
  const deployment = new ProblemJson(s);
  return listen('problem-json', s, () => deployment.handle);
}
