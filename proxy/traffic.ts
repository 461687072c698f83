import { createHash, randomBytes } from 'node:crypto';
import type { Exchange } from '../contracts/http-recorder.ts';
import { publicIdOf } from '../contracts/checks/submission-outcome.ts';
import type { TrafficJudge } from '../contracts/traffic/traffic-judge.ts';
import type { CoreRequest } from '../mocks/core/http/http-types.ts';
import type { VideoStatus } from '../src/spec/index.ts';
import type { ClientRequest, Reply } from './client-exchange.ts';
import type { ClientSide } from './client-side.ts';
import { asUnknown, documented, header, jsonObject, toldBy } from './answers.ts';
import { TappedExchange, type Recorded } from './exchange-tap.ts';
import { FAULT_NAMES, FAULTS, tagOf, type FaultName, type FaultPicker } from './faults.ts';
import { forward, release, type Answer, type Forwarded } from './forward.ts';
import { sendError } from './gateway-errors.ts';
import type { InjectionLog } from './injection-log.ts';
import { readStart } from './read-start.ts';
import { apiRoute, type ApiRoute } from './routes.ts';
import { faultBit, SeenOnce, type TaskFacts, type TaskFactsTable } from './task-facts.ts';
import type { Upstream } from './upstream.ts';

/** Where the temporary addresses of injected content redirects live. */
export const REDIRECTED = '/__proxy/redirected/';
/** A submission's body is read up to this before it is forwarded (its prompt may ask for a fault). */
const SUBMISSION_READ = 1 << 20;
/** `Retry-After` of an injected 429, seconds. */
const RETRY_AFTER_S = 1;
/** Injected content redirects kept for their follow-up, and for how long. */
const MAX_REDIRECTS = 256;
const REDIRECT_TTL_MS = 5 * 60_000;

export interface TrafficOptions {
  readonly upstream: Upstream;
  readonly judge: TrafficJudge;
  readonly clients: ClientSide;
  readonly faults: FaultPicker;
  readonly log: InjectionLog;
  readonly tasks: TaskFactsTable;
  /** How long an `unknown` fault lasts for its task, ms. */
  readonly unknownForMs: number;
}

/** One request of the API on its way through: what the judges and the faults need of it. */
interface Call {
  readonly req: ClientRequest;
  readonly res: Reply;
  readonly route: ApiRoute;
  readonly path: string;
  readonly query: string;
  /** `http://host:port` as the client addressed the proxy. */
  readonly origin: string;
  readonly key: string;
  readonly at: number;
}

interface PendingRedirect {
  readonly pathAndQuery: string;
  readonly rawHeaders: readonly string[];
  readonly route: ApiRoute;
  readonly key: string;
  readonly expires: number;
}

/**
 * The traffic between the clients and the deployment: each request of the API forwarded (or answered
 * by an injected fault), its exchange judged on both sides, the deployment's by the contract suite's
 * checks (`TrafficJudge`), the client's by the client rules (`ClientSide`).
 */
export class Traffic {
  readonly #o: TrafficOptions;
  readonly #once = new SeenOnce(10_000);
  readonly #redirects = new Map<string, PendingRedirect>();
  #index = 0;
  /** Requests forwarded, and answered by the proxy itself (faults, gateway errors). */
  forwarded = 0;
  answeredHere = 0;
  /** Exchanges the proxy's own code failed on (answered all the same), and the first failure. */
  failures = 0;
  firstFailure: string | undefined;

  constructor(options: TrafficOptions) {
    this.#o = options;
  }

  /**
   * Whether a request without a body is only forwarded, whatever happens: no fault asked for applies to
   * its route (a status query, the content); the front door reads such requests itself.
   */
  plain(request: ClientRequest): boolean {
    const { faults } = this.#o;
    if (!faults.any) return true;
    const q = request.url.indexOf('?');
    const route = apiRoute(request.method, q < 0 ? request.url : request.url.slice(0, q));
    return !FAULT_NAMES.some((fault) => FAULTS[fault].on === route?.kind && faults.has(fault));
  }

  /** A request of the API (`route`), or of any other path (`undefined`: forwarded, not judged). */
  handle(req: ClientRequest, res: Reply, route: ApiRoute | undefined, origin: string): void {
    const url = req.url;
    if (route === undefined) return this.#plain(req, res, url);
    const q = url.indexOf('?');
    const call: Call = {
      req,
      res,
      route,
      path: q < 0 ? url : url.slice(0, q),
      query: q < 0 ? '' : url.slice(q + 1),
      origin,
      key: keyOf(req.headers.authorization),
      at: Date.now(),
    };
    try {
      if (route.kind === 'submit')
        this.#submission(call).catch((error: unknown) => this.#broke(call, error));
      else if (route.kind === 'query') this.#query(call);
      else if (route.kind === 'content') this.#content(call);
      else this.#pass(call, undefined);
    } catch (error) {
      this.#broke(call, error);
    }
  }

  /** A path outside the API: forwarded as is, judged by nobody. */
  #plain(req: ClientRequest, res: Reply, url: string): void {
    this.forwarded++;
    const request = { req, res, pathAndQuery: url, body: undefined, bodyContinues: false };
    forward(this.#o.upstream, { ...request, hold: false, judged: false }, (f) => {
      if (f.kind === 'failed') sendError(res, f.error);
    });
  }

  async #submission(call: Call): Promise<void> {
    const start = await readStart(call.req.body, SUBMISSION_READ);
    if (start.aborted) return; // the client went away before asking: nothing is forwarded
    const text = start.body.toString('utf8');
    const body = start.complete ? jsonObject(text) : undefined;
    const digest = createHash('sha256').update(text).digest('base64');
    const tagged = (fault: FaultName) =>
      text.includes(tagOf(fault)) && this.#once.first(`${fault} ${digest}`);
    const observed = { body: start.body, json: body };
    if (this.#o.faults.pick('rate-limit', tagged('rate-limit')))
      return this.#rateLimited(call, observed);
    const lose = this.#o.faults.pick('lost-answer', tagged('lost-answer'));
    this.#send(call, { body: start.body, continues: !start.complete, hold: lose }, (f) => {
      if (f.kind === 'failed') return this.#failed(call, f, observed);
      const { answer } = f;
      const judged = this.#judgeDeployment(call, answer, observed);
      const json = judged.seen.exchange.json;
      const taskId = answer.status < 300 ? publicIdOf(judged.seen.exchange as Exchange) : undefined;
      const told = documented((json as { status?: unknown } | undefined)?.status);
      if (taskId !== undefined) this.#remember(taskId, told, text);
      const lost = lose && answer.held !== undefined;
      if (lost) {
        call.res.destroy();
        this.#inject(call, 'lost-answer', taskId);
      } else if (answer.held !== undefined) release(call.res, answer, answer.held);
      this.#observe(call, { status: answer.status, taskId, told, lost, body: observed });
    });
  }

  /** The facts of a task its submission named, with the faults its prompt asked for. */
  #remember(taskId: string, told: VideoStatus | undefined, text: string): void {
    const facts = this.#o.tasks.touch(taskId);
    facts.status = told;
    for (const fault of ['query-5xx', 'unknown', 'content-redirect'] as const)
      if (text.includes(tagOf(fault))) facts.tags |= faultBit(fault);
  }

  #rateLimited(call: Call, observed: Submitted): void {
    this.answeredHere++;
    const retryAfter = String(RETRY_AFTER_S);
    sendError(call.res, {
      status: 429,
      code: 'rate_limit_exceeded',
      type: 'rate_limit_error',
      message:
        'Rate limited by videotask proxy (--inject rate-limit): retry after the Retry-After seconds',
      headers: { 'retry-after': retryAfter },
    });
    this.#inject(call, 'rate-limit', undefined);
    this.#observe(call, { status: 429, retryAfter, body: observed });
  }

  #query(call: Call): void {
    const taskId = call.route.taskId!;
    const facts = this.#o.tasks.touch(taskId);
    const { faults } = this.#o;
    const tagged = (fault: FaultName) => (facts.tags & faultBit(fault)) !== 0;
    if (facts.unknownUntil > 0 && facts.unknownUntil <= call.at) facts.unknownUntil = -1;
    const unknownNow =
      facts.unknownUntil > call.at ||
      (facts.unknownUntil === 0 &&
        faults.has('unknown') &&
        faults.pick('unknown', tagged('unknown')));
    if (
      !unknownNow &&
      !facts.last5xx &&
      faults.has('query-5xx') &&
      faults.pick('query-5xx', tagged('query-5xx'))
    ) {
      facts.last5xx = true;
      return this.#unavailable(call, taskId);
    }
    facts.last5xx = false;
    if (unknownNow && facts.unknownUntil === 0) facts.unknownUntil = call.at + this.#o.unknownForMs;
    this.#pass(call, facts, unknownNow);
  }

  #unavailable(call: Call, taskId: string): void {
    this.answeredHere++;
    sendError(call.res, {
      status: 503,
      code: 'temporarily_unavailable',
      message: 'Temporarily unavailable (videotask proxy, --inject query-5xx): retry the query',
      headers: { 'retry-after': '1' },
    });
    this.#inject(call, 'query-5xx', taskId);
    this.#observe(call, { status: 503, taskId });
  }

  #content(call: Call): void {
    const taskId = call.route.taskId!;
    const facts = this.#o.tasks.touch(taskId);
    const redirect =
      call.req.method === 'GET' &&
      facts.status === 'completed' &&
      this.#o.faults.has('content-redirect') &&
      this.#o.faults.pick('content-redirect', (facts.tags & faultBit('content-redirect')) !== 0);
    if (redirect) return this.#redirect(call, taskId);
    this.#pass(call, facts);
  }

  /** §4.4: the content by a redirect to a temporary address of the proxy, served when followed. */
  #redirect(call: Call, taskId: string): void {
    this.answeredHere++;
    const token = randomBytes(16).toString('hex');
    const now = Date.now();
    for (const [t, r] of this.#redirects)
      if (r.expires < now || this.#redirects.size >= MAX_REDIRECTS) this.#redirects.delete(t);
    this.#redirects.set(token, {
      pathAndQuery: call.req.url,
      rawHeaders: [...call.req.rawHeaders],
      route: call.route,
      key: call.key,
      expires: now + REDIRECT_TTL_MS,
    });
    const location = `${call.origin}${REDIRECTED}${token}`;
    call.res.writeHead(302, '', [
      'location',
      location,
      'cache-control',
      'private, no-store',
      'content-length',
      '0',
    ]);
    call.res.end();
    this.#inject(call, 'content-redirect', taskId);
    const facts = this.#o.tasks.get(taskId);
    this.#observe(call, { status: 302, taskId, told: facts?.status, location });
  }

  /** The follow-up of an injected redirect: the content request it stands for, forwarded now. */
  followRedirect(req: ClientRequest, res: Reply, origin: string): void {
    const [path = '', query = ''] = req.url.split('?');
    const pending = this.#redirects.get(path.slice(REDIRECTED.length));
    const at = Date.now();
    const headers = req.headers as CoreRequest['headers'];
    const request: CoreRequest = { method: req.method, path, query, headers, origin };
    if (pending === undefined || pending.expires < at) {
      sendError(res, {
        status: 404,
        code: 'not_found',
        message: 'This temporary address is unknown or expired: ask for the content again',
      });
      return this.#followed(request, 404, undefined, at);
    }
    const [contentPath = '', contentQuery = ''] = pending.pathAndQuery.split('?');
    const call: Call = {
      req,
      res,
      route: pending.route,
      path: contentPath,
      query: contentQuery,
      origin,
      key: pending.key,
      at,
    };
    const { pathAndQuery, rawHeaders } = pending;
    const body = { body: undefined, continues: false, hold: false, pathAndQuery, rawHeaders };
    this.#send(call, body, (f) => {
      if (f.kind === 'failed') sendError(res, f.error);
      else if (!f.answer.abandoned) this.#judgeDeployment(call, f.answer, undefined);
      const status = f.kind === 'failed' ? f.error.status : f.answer.status;
      this.#followed(request, status, pending.route.taskId, at);
    });
  }

  /** A temporary address asked for, as the client rules see it (the mock's artifacts). */
  #followed(request: CoreRequest, status: number, taskId: string | undefined, at: number): void {
    this.#o.clients.observe({
      request,
      operationId: 'getMockArtifact',
      status,
      lost: false,
      taskId,
      told: undefined,
      body: undefined,
      at,
    });
  }

  /** A query, the content or the catalog, forwarded; `unknown`: answered as an unknown task. */
  #pass(call: Call, facts: TaskFacts | undefined, unknown = false): void {
    this.#send(call, { body: undefined, continues: false, hold: unknown }, (f) => {
      if (f.kind === 'failed') return this.#failed(call, f, undefined);
      const { answer } = f;
      // A download the client broke off was cut short by the proxy: nothing to judge of the deployment.
      if (answer.abandoned) return;
      const judged = this.#judgeDeployment(call, answer, undefined);
      const ok = answer.status >= 200 && answer.status < 300;
      // The judge's reading of the owner's look, else the answer's own (another caller's, the native form).
      const shown = ok
        ? (judged.state ?? toldBy(call.route, judged.seen.exchange.json))
        : undefined;
      if (facts !== undefined && shown !== undefined) facts.status = shown;
      let told = call.route.kind === 'content' ? facts?.status : shown;
      if (answer.held !== undefined) {
        const changed = unknown
          ? asUnknown(call.route, answer, judged.seen.exchange.json)
          : undefined;
        release(call.res, answer, changed ?? answer.held);
        if (changed !== undefined) {
          told = 'unknown';
          this.#inject(call, 'unknown', call.route.taskId);
        }
      }
      const taskId = taskIdShown(call, answer.status, facts);
      this.#observe(call, {
        status: answer.status,
        taskId,
        told,
        retryAfter: answer.fields.get('retry-after'),
      });
    });
  }

  #send(
    call: Call,
    body: {
      body: Buffer | undefined;
      continues: boolean;
      hold: boolean;
      pathAndQuery?: string;
      rawHeaders?: readonly string[];
    },
    done: (f: Forwarded) => void,
  ): void {
    this.forwarded++;
    const request = {
      req: call.req,
      res: call.res,
      pathAndQuery: body.pathAndQuery ?? call.req.url,
      rawHeaders: body.rawHeaders,
      body: body.body,
      bodyContinues: body.continues,
      hold: body.hold,
      judged: true,
    };
    forward(this.#o.upstream, request, (f) => {
      try {
        done(f);
      } catch (error) {
        this.#broke(call, error, f);
      }
    });
  }

  /**
   * The proxy's own code failed on an exchange (a bug): the client still gets its answer (the held
   * one as it came, or a 502), the failure is counted, and the proxy goes on serving.
   */
  #broke(call: Call, error: unknown, f?: Forwarded): void {
    this.failures++;
    this.firstFailure ??=
      error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    if (call.res.headersSent || call.res.destroyed) return;
    if (f?.kind === 'answered' && f.answer.held !== undefined)
      return release(call.res, f.answer, f.answer.held);
    sendError(call.res, {
      status: 502,
      code: 'proxy_error',
      type: 'proxy_error',
      message: 'videotask proxy failed on this exchange; it was counted (GET /__proxy/status)',
    });
  }

  /** The upstream failed: the client gets the gateway's 502/504, judged as what it got. */
  #failed(
    call: Call,
    f: Extract<Forwarded, { kind: 'failed' }>,
    body: Submitted | undefined,
  ): void {
    this.answeredHere++;
    sendError(call.res, f.error);
    const taskId = call.route.kind === 'submit' ? undefined : call.route.taskId;
    this.#observe(call, { status: f.error.status, taskId, body });
  }

  /**
   * The deployment's answer, judged by the contract suite's checks: the exchange (made and its JSON
   * parsed when read), and the state the answer showed the task's owner, when the judge read one.
   */
  #judgeDeployment(
    call: Call,
    answer: Answer,
    submitted: Submitted | undefined,
  ): { seen: TappedExchange; state: VideoStatus | undefined } {
    const recorded: Recorded = {
      index: this.#index++,
      method: call.req.method,
      path:
        this.#o.upstream.basePath + (call.query === '' ? call.path : `${call.path}?${call.query}`),
      rawHeaders: call.req.rawHeaders,
      body: submitted?.body,
      clientRequestId: header({ headers: call.req.headers }, 'x-request-id'),
      startedAt: call.at,
      waitMs: answer.waitMs,
      ms: answer.ms,
      status: answer.status,
      fields: answer.fields,
      tap: answer.tap,
      bodyError: answer.bodyError,
    };
    const seen = new TappedExchange(recorded, {
      route: call.route.id,
      taskId: call.route.taskId,
      key: call.key,
      body: submitted?.json,
      ranged: call.req.headers.range !== undefined,
    });
    const shown = this.#o.judge.judge(seen);
    return { seen, state: shown === 'missing' ? undefined : shown };
  }

  #inject(call: Call, fault: FaultName, taskId: string | undefined): void {
    this.#o.log.record({
      fault,
      atMs: call.at,
      method: call.req.method,
      path: call.path,
      taskId,
      key: call.key,
    });
  }

  #observe(
    call: Call,
    what: {
      status: number;
      taskId?: string | undefined;
      told?: VideoStatus | undefined;
      lost?: boolean;
      retryAfter?: string | undefined;
      location?: string | undefined;
      body?: Submitted | undefined;
    },
  ): void {
    const request: CoreRequest = {
      method: call.req.method,
      path: call.path,
      query: call.query,
      headers: call.req.headers as CoreRequest['headers'],
      body: what.body?.body,
      origin: call.origin,
    };
    this.#o.clients.observe({
      request,
      operationId: call.route.id,
      status: what.status,
      retryAfter: what.retryAfter,
      location: what.location,
      lost: what.lost ?? false,
      taskId: what.taskId,
      told: what.told,
      body: what.body?.json,
      at: call.at,
    });
  }
}

/** A submission's body: its bytes as sent, and its JSON object when it is one. */
interface Submitted {
  readonly body: Buffer;
  readonly json: Record<string, unknown> | undefined;
}

/** The caller's key as the judges tell callers apart: the bearer token, else the header, else ''. */
export function keyOf(authorization: string | undefined): string {
  if (authorization === undefined) return '';
  return authorization.startsWith('Bearer ') ? authorization.slice(7).trim() : authorization;
}

/** The task a query or download was about, as the client rules read it: not when it was refused. */
function taskIdShown(call: Call, status: number, facts: TaskFacts | undefined): string | undefined {
  if (call.route.kind === 'catalog') return undefined;
  if (status === 401 || status === 403 || status === 404) return undefined;
  if (
    status >= 400 &&
    status < 500 &&
    (call.route.kind !== 'content' || facts?.status === undefined)
  )
    return undefined;
  return call.route.taskId;
}
