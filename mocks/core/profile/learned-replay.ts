import {
  fieldSituation,
  generateId,
  parseForm,
  uploadsFile,
  type FormPart,
  PROFILE_ROUTES,
  type LearnedProfile,
  type ProfileCaller,
  type ProfileRoute,
  type ProfileState,
  type Situation,
  type TaskStatus,
} from '../../../src/profile/index.ts';
import type { LIFECYCLE } from '../../../src/generated/client-contract.ts';
import { operationsWith } from '../../../src/spec/route-roles.ts';
import type { VideoStatus } from '../../../src/spec/lifecycle.ts';
import type { ErrorKind } from '../http/errors.ts';
import { JSON_TYPE, type CoreRequest, type CoreResponse } from '../http/http-types.ts';
import { withParam, type RouteMatch } from '../http/router.ts';
import { UPSTREAM_FAILURES, type Timing } from '../plan/plan.ts';
import { createRandom } from '../plan/random.ts';
import type { TaskRecord } from '../task/task-record.ts';
import type { TaskView } from '../task/task-view.ts';
import type { MockToken } from '../keys/tokens.ts';
import { answerTable, tableKey } from './answer-table.ts';
import { PublicIds } from './public-ids.ts';
import type { CompiledAnswer } from './render-answer.ts';
import { renderAnswer } from './render-answer.ts';
import { compileTemplate, type RenderFacts } from './render-node.ts';

/** What the replay reads of the service when it renders an answer. */
export interface ReplayContext {
  /** The route the request matched: its operation and access. */
  readonly route: { readonly operationId: string; readonly access: string } | undefined;
  /** The route's parameters as the router read them from the path (decoded). */
  readonly params: Readonly<Record<string, string>> | undefined;
  /**
   * The task a task route's path names, whoever owns it, and its state: the one the route looked up
   * when it did (issue 23: not looked up again).
   */
  task(): TaskView | undefined;
  /** The caller the request's key names: the core's token when it authenticated the request. */
  caller(): MockToken | undefined;
  /** The wrapper's word for each state (the learned ones in place). */
  readonly wrapperStatuses: Readonly<Record<VideoStatus, string>>;
  /** The models a caller may use, as the catalog lists them. */
  models(token: MockToken | undefined): readonly string[];
  /** Whether the service has a model at all (for some key): refused, it is forbidden, not unknown. */
  knowsModel(model: string): boolean;
  /** A submission's body as the route read it (JSON, or a form's fields), once it was read. */
  readonly submitted: Record<string, unknown> | undefined;
  /** The route's 200 JSON body as the object it rendered, when it kept it: not parsed back from text. */
  readonly rendered: unknown;
  now(): number;
}

/** The refusal each error kind of the core is, in the words of the run that learned the profile. */
const SITUATION_OF: Partial<Record<ErrorKind, Situation>> = {
  missing_api_key: 'refused',
  invalid_api_key: 'refused',
  gateway_invalid_token: 'refused',
  task_not_found: 'refused',
  status_task_not_found: 'refused',
  task_not_exist: 'refused',
  plugin_task_not_found: 'refused',
  task_not_completed: 'refused',
  plugin_invalid_request: 'mixed-formats',
  invalid_json: 'invalid-json',
  unsupported_media_type: 'unsupported-media-type',
};

/** Refusals of a documented submission whose situation is what the request sent (`submissionRefusal`). */
const FIELD_KINDS: ReadonlySet<ErrorKind> = new Set([
  'model_required',
  'prompt_required',
  'invalid_request',
]);
const MODEL_KINDS: ReadonlySet<ErrorKind> = new Set(['model_not_allowed', 'model_not_found']);
const FORM_KINDS: ReadonlySet<ErrorKind> = new Set(['unsupported_media_type', 'invalid_form_data']);
const SUBMIT_ROUTES = new Set<ProfileRoute>(operationsWith({ kind: 'submit', form: 'openai' }));

const TASK_ROUTES = new Set<string>(operationsWith({ kind: ['query', 'content'] }));
const SERVICE_ROUTES: ReadonlySet<string> = new Set(PROFILE_ROUTES);
const UPSTREAM_CODES = new Set(UPSTREAM_FAILURES.map((f) => f.code));
/** The operations that serve bytes a `Range` may ask part of: the content and its temporary address. */
const RANGED_ROUTES: ReadonlySet<string> = new Set(
  operationsWith({ kind: ['content', 'artifact'] }),
);

/** A request and the route it matched, as the core is asked them (`LearnedReplay.before`). */
export interface Asked<Context> {
  readonly request: CoreRequest;
  readonly match: RouteMatch<Context>;
}

/**
 * A learned profile as the mock plays it (decisions/018), compiled once at load: every answer's
 * renderer, the task IDs' and request IDs' forms, the lifecycle. The core still decides what happens
 * (the task's state, ownership, which refusal); this decides how it reads.
 */
export class LearnedReplay {
  readonly ids: PublicIds;
  readonly timing: Timing | undefined;
  readonly wrapperStatuses: Readonly<Partial<Record<TaskStatus, string>>>;
  readonly serviceRequestIdHeader: string | undefined;
  readonly #table: Map<string, CompiledAnswer>;
  /** The content is delivered by a redirect: the learned download reads at the address it leads to. */
  readonly #redirects: boolean;
  readonly #kinds = new WeakMap<CoreResponse, ErrorKind>();
  readonly #requestIdForm: readonly FormPart[] | undefined;
  /** One source for request IDs, seeded once per process (each worker draws its own). */
  readonly #draw: () => number;
  readonly #failures: readonly { code?: Template; message?: Template; reason?: Template }[];
  readonly #suffix: Template | undefined;
  readonly #ignoresRange: boolean;

  constructor(readonly profile: LearnedProfile) {
    this.ids = new PublicIds(profile.taskId.form);
    this.serviceRequestIdHeader = profile.requestId?.header;
    this.#table = answerTable(profile, this.serviceRequestIdHeader);
    this.#redirects = profile.content?.delivery === 'redirect';
    const { tasks } = profile.lifecycle;
    this.timing =
      tasks === 0
        ? undefined
        : { queueMs: learnedPhase(profile, 'queued'), runMs: learnedPhase(profile, 'in_progress') };
    this.wrapperStatuses = profile.lifecycle.wrapperStatuses;
    this.#requestIdForm =
      profile.requestId === null ? undefined : parseForm(profile.requestId.form);
    const ids = createRandom(`request-id/${profile.name}/${Math.random()}`);
    this.#draw = () => ids.next();
    this.#failures = profile.lifecycle.failures.map((f) => ({
      ...(f.code === undefined ? {} : { code: compileTemplate(f.code) }),
      ...(f.message === undefined ? {} : { message: compileTemplate(f.message) }),
      ...(f.reason === undefined ? {} : { reason: compileTemplate(f.reason) }),
    }));
    const suffix = profile.errors.messageSuffix;
    this.#suffix = suffix === undefined ? undefined : compileTemplate(suffix);
    this.#ignoresRange = profile.content?.range === false;
  }

  /**
   * What the deployment ends an error message with for the request `serviceRequestId` names (its ` (request
   * id: …)`, learned as `errors.messageSuffix`), or nothing: the core builds it into the messages it
   * writes for the service's routes (decisions/031).
   */
  messageEnding(serviceRequestId: string): string {
    return this.#suffix === undefined ? '' : this.#suffix({ serviceRequestId } as RenderFacts, '');
  }

  /** Remembers which error kind the core answered (the service's `error` calls it). */
  noteError(response: CoreResponse, kind: ErrorKind): CoreResponse {
    this.#kinds.set(response, kind);
    return response;
  }

  /**
   * The request ID in the deployment's form (the same in the header and in messages), drawn fresh for
   * each request (a form of 20 characters or more makes a repeat unthinkable), so it reads like the
   * deployment's.
   */
  serviceRequestId(coreId: string): string {
    if (this.#requestIdForm === undefined) return coreId;
    return generateId(this.#requestIdForm, this.#draw);
  }

  /**
   * The request as the core reads it, with the route the router matched: the task its `{task_id}`
   * names back in the mock's form (in the path and the parameters), `Range` dropped if not honoured.
   */
  before<Context>(request: CoreRequest, match: RouteMatch<Context>): Asked<Context> {
    if (match.kind !== 'found') return { request, match };
    const { route, params } = match;
    const publicId = params['task_id'];
    const core =
      this.ids.identity || publicId === undefined ? undefined : this.ids.toCore(publicId);
    const dropRange =
      this.#ignoresRange &&
      request.headers['range'] !== undefined &&
      RANGED_ROUTES.has(route.operationId);
    if (core === undefined && !dropRange) return { request, match };
    const path =
      core === undefined ? request.path : withParam(route.template, request.path, 'task_id', core);
    const { range: _range, ...rest } = request.headers;
    return {
      request: { ...request, path, headers: dropRange ? rest : request.headers },
      match:
        core === undefined
          ? match
          : { kind: 'found', route, params: Object.freeze({ ...params, task_id: core }) },
    };
  }

  /** The core's answer as the learned deployment reads it. */
  after(
    request: CoreRequest,
    response: CoreResponse,
    serviceRequestId: string,
    context: ReplayContext,
  ): CoreResponse {
    const route = context.route;
    if (route?.operationId === 'getMockArtifact' && this.#redirects && response.status < 300)
      return this.#download(request, response, serviceRequestId, context);
    if (route?.access !== 'service' || !SERVICE_ROUTES.has(route.operationId))
      return this.#habits(response);
    const operation = route.operationId as ProfileRoute;
    const view = taskOf(operation, context);
    const caller = this.#caller(request, context.caller(), view);
    const state = this.#state(operation, view);
    const situation = this.#situation(request, response, operation, context);
    const compiled =
      situation === undefined
        ? undefined
        : this.#table.get(tableKey(operation, state, caller, situation));
    if (compiled === undefined || (response.status >= 300 && response.status < 400))
      return this.#habits(response);
    const answering = situation === 'ok' || situation === 'range' || situation === 'head';
    const source = answering ? this.#source(response, view, context.rendered) : undefined;
    const facts = this.#facts(
      request,
      serviceRequestId,
      view,
      createdIdOf(operation, source),
      context,
    );
    return renderAnswer(compiled, response, source, withState(facts, state, context));
  }

  /** A temporary address of a deployment that redirects downloads: answered as its download was. */
  #download(
    request: CoreRequest,
    response: CoreResponse,
    serviceRequestId: string,
    context: ReplayContext,
  ): CoreResponse {
    const situation = this.#situation(request, response, 'getVideoContent', context)!;
    const download = this.#table.get(tableKey('getVideoContent', 'completed', 'owner', situation));
    const facts = this.#facts(request, serviceRequestId, undefined, undefined, context);
    return download === undefined ? response : renderAnswer(download, response, undefined, facts);
  }

  /** Sets the learned request-ID header (or none, when the deployment sends none). */
  stamp(response: CoreResponse, serviceRequestId: string): void {
    if (this.serviceRequestIdHeader !== undefined)
      response.headers[this.serviceRequestIdHeader] = serviceRequestId;
  }

  #caller(
    request: CoreRequest,
    token: MockToken | undefined,
    view: TaskView | undefined,
  ): ProfileCaller {
    if (request.headers['authorization'] === undefined) return 'none';
    if (token === undefined) return 'invalid';
    return view === undefined || view.task.owner === token.user ? 'owner' : 'other';
  }

  #state(operation: ProfileRoute, view: TaskView | undefined): ProfileState {
    if (!TASK_ROUTES.has(operation)) return 'n/a';
    return view === undefined ? 'missing' : view.snap.status;
  }

  #situation(
    request: CoreRequest,
    response: CoreResponse,
    operation: ProfileRoute,
    context: ReplayContext,
  ): Situation | undefined {
    if (response.status < 400) {
      if (operation !== 'getVideoContent') return 'ok';
      if (request.method === 'HEAD') return 'head';
      return request.headers['range'] !== undefined || response.status === 206 ? 'range' : 'ok';
    }
    const kind = this.#kinds.get(response);
    if (kind !== undefined && SUBMIT_ROUTES.has(operation) && SITUATION_OF[kind] !== 'refused')
      return submissionRefusal(request, kind, context);
    const situation = kind === undefined ? undefined : SITUATION_OF[kind];
    // The native path refuses several things alike: only a mixed body is the probe's situation.
    if (
      situation === 'mixed-formats' &&
      !/"(prompt|metadata)"/.test(new TextDecoder().decode(request.body ?? new Uint8Array()))
    )
      return undefined;
    return situation;
  }

  /**
   * The core's JSON answer (the object the route rendered when it kept it, else its text parsed), with
   * a failure read as the learned deployment's failures read.
   */
  #source(response: CoreResponse, view: TaskView | undefined, rendered: unknown): unknown {
    if (typeof response.body !== 'string' || response.headers['content-type'] !== JSON_TYPE)
      return undefined;
    const source = rendered ?? (JSON.parse(response.body) as unknown);
    const plan = view?.task.plan;
    if (view === undefined || plan === undefined || this.#failures.length === 0) return source;
    if (!UPSTREAM_CODES.has(plan.errorCode ?? '') || view.snap.status !== 'failed') return source;
    return this.#learnedFailure(source, view.task);
  }

  /** The failure in the learned words, on a copy: the rendered body is the route's, read-only here. */
  #learnedFailure(source: unknown, task: TaskRecord): unknown {
    const reading = this.#failures[task.row % this.#failures.length]!;
    const facts = { taskId: this.ids.toPublic(task.id) } as RenderFacts;
    const body = { ...(source as Record<string, unknown>) };
    const error = body['error'] as Record<string, unknown> | undefined;
    if (error !== undefined) {
      const worded = { ...error };
      if (reading.code !== undefined) worded['code'] = reading.code(facts, '');
      if (reading.message !== undefined) worded['message'] = reading.message(facts, '');
      body['error'] = worded;
    }
    const why = reading.reason ?? reading.message;
    const data = body['data'] as Record<string, unknown> | undefined;
    if (data !== undefined && typeof data['fail_reason'] === 'string' && why !== undefined)
      body['data'] = { ...data, fail_reason: why(facts, '') };
    return body;
  }

  #facts(
    request: CoreRequest,
    serviceRequestId: string,
    view: TaskView | undefined,
    createdId: string | undefined,
    context: ReplayContext,
  ): RenderFacts {
    const task = view?.task;
    const coreId = task?.id ?? createdId;
    return {
      taskId:
        coreId === undefined ? publicOfParams(context.params, this.ids) : this.ids.toPublic(coreId),
      model: task?.model ?? requestedModel(request),
      serviceRequestId,
      origin: request.origin,
      nowMs: context.now(),
      createdMs: task?.createdAt,
      seed: coreId ?? serviceRequestId,
      publicId: (id) => this.ids.toPublic(id),
      catalog: () => context.models(context.caller()),
    };
  }

  /**
   * An answer the profile has no reading for: the core's, with the deployment's IDs. (Its error
   * messages already end as the deployment's do: `messageEnding`, built in where the core made them.)
   */
  #habits(response: CoreResponse): CoreResponse {
    if (typeof response.body !== 'string') return response;
    const body = this.ids.inText(response.body);
    return body === response.body ? response : { ...response, body };
  }
}

type Template = (facts: RenderFacts, path: string) => string;

/**
 * A phase's learned durations, by the state it is in, shown by a look or not. A phase no look of the
 * run showed (a task that went past it between two polls) lasts as long as the gap it fit in,
 * `[0, gap]` as learned (decisions/038): the replay may show it as briefly as the deployment may have,
 * rather than never — a learn run of the replay then reads it as a run of the deployment could have.
 */
export function learnedPhase(
  profile: LearnedProfile,
  state: (typeof LIFECYCLE.pollAgain)[number],
): readonly [number, number] {
  const { phases } = profile.lifecycle;
  return state === 'in_progress' ? phases.running : phases[state];
}

/**
 * The situation of a refused documented submission, by what it sent, as the learner named the probe
 * that taught it (contracts/learn/run-observer.ts): a file uploaded, a required field left out or of
 * another type, an empty prompt, a model the key may not use (one the service has) or one it does not
 * have at all; a body that is not JSON or not of a media type read. Any other refusal (a duration out of
 * range, a quota) has no learned situation: the core's answer goes out with the deployment's habits.
 */
function submissionRefusal(
  request: CoreRequest,
  kind: ErrorKind,
  context: ReplayContext,
): Situation | undefined {
  if (FORM_KINDS.has(kind)) {
    const text = new TextDecoder().decode(request.body ?? new Uint8Array());
    if (uploadsFile(request.headers['content-type'], text)) return 'file-upload';
  }
  if (FIELD_KINDS.has(kind)) return fieldSituation(context.submitted);
  if (MODEL_KINDS.has(kind)) {
    const model = context.submitted?.['model'];
    return typeof model === 'string' && context.knowsModel(model)
      ? 'forbidden-model'
      : 'unknown-model';
  }
  return SITUATION_OF[kind];
}

/**
 * The task a route's parameters name, as the client named it (a missing task's ID is echoed as sent;
 * a known one is in the mock's form once `before` read it back).
 */
function publicOfParams(
  params: Readonly<Record<string, string>> | undefined,
  ids: PublicIds,
): string | undefined {
  const id = params?.['task_id'];
  return id === undefined ? undefined : ids.toPublic(id);
}

function requestedModel(request: CoreRequest): string | undefined {
  if (request.body === undefined || request.body.byteLength > 65_536) return undefined;
  const text = new TextDecoder().decode(request.body);
  const model = /"model"\s*:\s*"([^"\\]{1,200})"/.exec(text)?.[1];
  return model;
}

/** The core's wrapper status per state with the learned ones in their place. */
export function learnedWrapperStatuses(
  documented: Readonly<Record<VideoStatus, string>>,
  replay: LearnedReplay,
): Readonly<Record<VideoStatus, string>> {
  return { ...documented, ...replay.wrapperStatuses };
}

/** The task a task route names, whoever owns it, and its state (as the route found it, if it did). */
function taskOf(operation: ProfileRoute, context: ReplayContext): TaskView | undefined {
  return TASK_ROUTES.has(operation) ? context.task() : undefined;
}

/** The ID a submission's answer gives its new task. */
function createdIdOf(operation: ProfileRoute, source: unknown): string | undefined {
  const created = operation.startsWith('create')
    ? (source as { id?: unknown } | undefined)?.id
    : undefined;
  return typeof created === 'string' ? created : undefined;
}

/** The facts with the task's state and its wrapper word, when the answer is about a task's state. */
function withState(facts: RenderFacts, state: ProfileState, context: ReplayContext): RenderFacts {
  const known = state === 'n/a' || state === 'missing' ? undefined : state;
  return known === undefined
    ? facts
    : { ...facts, status: known, wrapperStatus: context.wrapperStatuses[known] };
}
