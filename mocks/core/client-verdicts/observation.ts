import { MAX_JSON_DEPTH, nestsTooDeep } from '../../../src/text/json-depth.ts';
import type { VideoStatus } from '../../../src/spec/lifecycle.ts';
import { roleOf } from '../../../src/spec/route-roles.ts';
import type { RouteForm, RouteKind } from '../../../src/spec/routes.ts';
import type { SpecValidators } from '../../../src/spec/validators.ts';
import { SECOND_FAMILY_MODELS } from '../keys/catalog.ts';
import { toolNumber } from '../../../src/tool-mark.ts';
import { retryAfterOnClock, type Clock } from '../clock.ts';
import type { CoreRequest, CoreResponse } from '../http/http-types.ts';
import { parseForm } from '../http/multipart.ts';
import type { RouteDefinition } from '../http/router.ts';
import type { SharedState } from '../state/shared-state.ts';
import { submissionFingerprint } from './fingerprint.ts';
import { REFERENCE, referenceFlags } from './references.ts';

/** What a client's request was, as the verdicts tell them apart: its route's `x-role` kind. */
export type Kind = RouteKind;
/** The query forms (§2.2, §2.3, §4.5); for a submission, the native path or the OpenAI form. */
export type Form = RouteForm;

/**
 * One exchange between a client and the mock, reduced to what the client rules judge: no body, no
 * headers but the caller, nothing that grows with the request. A cluster worker sends these to its
 * primary, which judges every worker's (decisions/019). Every field is always present (one shape).
 */
export interface Observation {
  /**
   * Who called: the `Authorization` header as sent ('' when none). Never shown: reports mask it
   * (`maskKey`) and hide anything that is not a Bearer key.
   */
  caller: string;
  kind: Kind;
  form: Form | undefined;
  method: string;
  /** The path without its query string (a query string may carry secrets). */
  path: string;
  /** Mock time (ms): the clock the rules judge intervals on. */
  at: number;
  /** Arrival order, comparable across the processes of one machine (wall ms, or a counter). */
  order: number;
  /** The shared state's generation: a reset makes older observations void. */
  generation: number;
  status: number;
  /** The task the exchange is about: the one queried, or the one a submission created. */
  taskId: string | undefined;
  /** The status the answer showed (2xx queries; content and submission answers: the task's state). */
  told: VideoStatus | undefined;
  /** Request-only breaches (`RequestFlag`). */
  flags: number;
  /** Submissions: `submissionFingerprint` of the body and scenario. */
  fingerprint: number;
  /** Submissions: `X-Request-Id` or `Idempotency-Key`. */
  clientRequestId: string | undefined;
  /** The answer was lost on purpose (scenario `lost-answer`). */
  lost: boolean;
  /** A 429's `Retry-After` on the mock's clock (mock ms: `retryAfterOnClock`), -1 when none. */
  retryAfterMs: number;
  /**
   * The tool that marked the request (`X-Videotask-Tool`): its place in `TOOLS` plus one, 0 when none
   * (decisions/045).
   */
  tool: number;
  /** Whether the second family was bound when this was answered. */
  bound: boolean;
  /** Submissions: the model is of the second family. */
  secondFamily: boolean;
  /** Content: a redirect's target; artifacts: their own path and query (to match the two). */
  location: string | undefined;
}

/** Breaches a request shows by itself (bit flags of `Observation.flags`). */
export const RequestFlag = {
  /** §5: no `Authorization: Bearer <key>`. */
  noBearer: 1,
  /** §5: a body without `Content-Type: application/json` (nor multipart). */
  notJson: 2,
  /** A `multipart/form-data` submission. */
  multipart: 4,
  /** §2.1: an `asset://` reference in a second-family submission. */
  asset: 8,
  /** §4.5: OpenAI-form fields on the native path. */
  nativeMixed: 16,
  /** §4.1: a body labelled `application/json` that is not JSON. */
  notParsable: 32,
  /** §2.1: a JSON submission on the OpenAI form without a required field (`model`, `prompt`). */
  missingField: 64,
  /** §2.1: a second-family reference URL the upstream cannot read (a loopback or private host). */
  unreadableReference: REFERENCE.unreadable,
  /** §2.1: a second-family reference URL that carries a signed expiry (a short-lived preview). */
  previewReference: REFERENCE.preview,
  /** A second-family submission with a reference URL at all (the situation `second-family-references`). */
  references: REFERENCE.any,
} as const;

/** What a route is to the rules: its kind and the form of its task answer (its `x-role`). */
function knownRole(operationId: string): { kind: Kind; form: Form | undefined } | undefined {
  const role = roleOf(operationId);
  return role === undefined ? undefined : { kind: role.kind, form: role.form };
}

const SECOND_FAMILY = new Set(SECOND_FAMILY_MODELS);

export function emptyObservation(): Observation {
  return {
    caller: '',
    kind: 'catalog',
    form: undefined,
    method: '',
    path: '',
    at: 0,
    order: 0,
    generation: 0,
    status: 0,
    taskId: undefined,
    told: undefined,
    flags: 0,
    fingerprint: 0,
    clientRequestId: undefined,
    lost: false,
    retryAfterMs: -1,
    tool: 0,
    bound: false,
    secondFamily: false,
    location: undefined,
  };
}

/**
 * What the observer reads of the service it watches (decisions/033): its clock, the shared state's
 * generation and family binding, and the spec's native-only fields. `ServiceState` is one: the service
 * holds its verdicts, and the verdicts know the service only through this view.
 */
export interface ObservedService {
  readonly clock: Pick<Clock, 'now' | 'speed'>;
  readonly shared: Readonly<Pick<SharedState, 'generation' | 'familyBound'>>;
  readonly validators: Pick<SpecValidators, 'document'>;
}

/** What the observer reads of the route a request matched: which operation it serves. */
export type ObservedRoute = Pick<RouteDefinition<never>, 'operationId'>;

/**
 * What the route that answered an exchange notes for the client verdicts (a `RouteContext` carries
 * them): what the answer told about a task, and when (mock ms), and a submission's body as read.
 */
export interface ExchangeNotes {
  taskId: string | undefined;
  at: number | undefined;
  taskStatus: VideoStatus | undefined;
  /** A submission's body as the route read it (JSON, or multipart fields). */
  body: Record<string, unknown> | undefined;
}

/**
 * Reduces exchanges to observations, into one reused object (the hot path allocates nothing for a
 * status query). Control routes and unknown paths are not a client's traffic: `undefined`.
 */
export class ExchangeObserver {
  readonly #state: ObservedService;
  /**
   * Arrival order across processes (wall ms), or `undefined`: one process judging its own exchanges
   * counts them (a field, not a closure called on every request).
   */
  readonly #order: (() => number) | undefined;
  #count = 0;
  readonly #scratch = emptyObservation();
  readonly #nativeOnly: ReadonlySet<string>;
  /** §2.1's required fields of a submission (`SubmitRequest.required`). */
  readonly #required: readonly string[];
  /** The route of the last exchange and what it is: a polling loop asks the same route again. */
  #route: ObservedRoute | undefined;
  #known: { kind: Kind; form: Form | undefined } | undefined;
  /**
   * The caller of the last exchange and whether it sent a Bearer key. A polling loop sends the same
   * header again, as a fresh string: one comparison instead of a `startsWith`, and the judge, handed
   * the string it was handed before, finds its caller by identity instead of comparing the text again.
   */
  #caller = '';
  #bearer = false;

  constructor(state: ObservedService, order: (() => number) | undefined) {
    this.#state = state;
    this.#order = order;
    const schema = state.validators.document.components?.schemas?.['NativeFormatOnly'];
    this.#nativeOnly = new Set(Object.keys(schema?.['properties'] ?? {}));
    const submit = state.validators.document.components?.schemas?.['SubmitRequest'];
    this.#required = (submit?.['required'] as string[] | undefined) ?? [];
  }

  observe(
    request: CoreRequest,
    response: CoreResponse,
    route: ObservedRoute | undefined,
    context: Readonly<ExchangeNotes> | undefined,
  ): Observation | undefined {
    if (route !== this.#route) {
      this.#route = route;
      this.#known = route === undefined ? undefined : knownRole(route.operationId);
    }
    const known = this.#known;
    if (known === undefined) return undefined;
    const o = this.#scratch;
    const state = this.#state;
    const caller = request.headers['authorization'] ?? '';
    if (caller !== this.#caller) {
      this.#caller = caller;
      this.#bearer = caller.startsWith('Bearer ');
    }
    o.caller = this.#caller;
    o.kind = known.kind;
    o.form = known.form;
    o.method = request.method;
    o.path = request.path;
    o.at = context?.at ?? state.clock.now();
    o.order = this.#arrival();
    o.generation = state.shared.generation;
    o.status = response.status;
    o.taskId = context?.taskId;
    o.told = context?.taskStatus;
    o.flags = known.kind === 'artifact' || this.#bearer ? 0 : RequestFlag.noBearer;
    o.lost = response.lost !== undefined;
    o.retryAfterMs =
      response.status === 429
        ? retryAfterOnClock(state.clock, response.headers['retry-after'], response.headers['date'])
        : -1;
    o.tool = toolNumber(request.headers['x-videotask-tool']);
    o.location = locationOf(known.kind, request, response);
    if (request.method !== 'GET' && request.method !== 'HEAD') this.#body(o, request, context);
    else {
      o.fingerprint = 0;
      o.clientRequestId = undefined;
      o.secondFamily = false;
      o.bound = false;
    }
    return o;
  }

  #arrival(): number {
    return this.#order === undefined ? ++this.#count : this.#order();
  }

  /** What a request with a body shows: its media type, and for a submission what makes it itself. */
  #body(o: Observation, request: CoreRequest, context: Readonly<ExchangeNotes> | undefined): void {
    const headers = request.headers;
    const media = mediaType(headers['content-type']);
    const hasBody = request.body !== undefined && request.body.byteLength > 0;
    if (hasBody && o.kind !== 'artifact' && media !== 'application/json')
      o.flags |= media === 'multipart/form-data' ? RequestFlag.multipart : RequestFlag.notJson;
    if (o.kind !== 'submit') return;
    const body = context?.body ?? formFields(request, media) ?? unreadJson(o, request, media);
    this.#submission(o, request, body);
    if (media === 'application/json' && body !== undefined && this.#lacks(o, body))
      o.flags |= RequestFlag.missingField;
  }

  /** §2.1: an OpenAI-form JSON submission without a required field (the native path has its own). */
  #lacks(o: Observation, body: Record<string, unknown>): boolean {
    if (o.form !== 'openai') return false;
    for (const field of this.#required) if (body[field] === undefined) return true;
    return false;
  }

  /** What makes a submission itself: its fingerprint, request ID, family, asset and mixed forms. */
  #submission(
    o: Observation,
    request: CoreRequest,
    body: Record<string, unknown> | undefined,
  ): void {
    const headers = request.headers;
    o.fingerprint = submissionFingerprint(body, request.body, headers['x-mock-scenario']);
    o.clientRequestId = headers['x-request-id'] ?? headers['idempotency-key'];
    o.bound = this.#state.shared.familyBound;
    const model = body?.['model'];
    o.secondFamily = typeof model === 'string' && SECOND_FAMILY.has(model);
    if (o.secondFamily && body !== undefined) {
      if (holdsAssetReference(body)) o.flags |= RequestFlag.asset;
      o.flags |= referenceFlags(body);
    }
    if (o.form === 'native' && body !== undefined && this.#mixes(body))
      o.flags |= RequestFlag.nativeMixed;
  }

  #mixes(body: Record<string, unknown>): boolean {
    for (const key of Object.keys(body)) if (this.#nativeOnly.has(key)) return true;
    return false;
  }
}

function mediaType(contentType: string | undefined): string {
  return contentType === undefined ? '' : contentType.split(';')[0]!.trim().toLowerCase();
}

/** A multipart body the route did not read (a profile that refuses multipart): its text fields. */
function formFields(request: CoreRequest, media: string): Record<string, unknown> | undefined {
  if (media !== 'multipart/form-data' || request.body === undefined) return undefined;
  const parsed = parseForm(request.body, request.headers['content-type']!);
  if ('problem' in parsed) return undefined;
  const fields: Record<string, unknown> = {};
  for (const part of parsed.parts) fields[part.name] ??= part.value;
  return fields;
}

/** §2.1: any string anywhere in the body that starts with `asset://`. */
function holdsAssetReference(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.trimStart().toLowerCase().startsWith('asset://');
  if (value === null || typeof value !== 'object' || depth >= MAX_JSON_DEPTH) return false;
  for (const item of Object.values(value)) if (holdsAssetReference(item, depth + 1)) return true;
  return false;
}

/**
 * A JSON body the route did not read (refused first, or not JSON), read here, on this rare path only:
 * its object, or the flags of what it is instead. An empty body labelled JSON is no JSON either; one cut
 * short past the size limit says nothing.
 */
function unreadJson(
  o: Observation,
  request: CoreRequest,
  media: string,
): Record<string, unknown> | undefined {
  if (media !== 'application/json' || request.bodyTooLarge === true) return undefined;
  const read = jsonObject(request.body ?? new Uint8Array());
  if (read === NOT_JSON) o.flags |= RequestFlag.notParsable;
  else if (read === NOT_OBJECT) o.flags |= o.form === 'openai' ? RequestFlag.missingField : 0;
  else return read;
  return undefined;
}

const NOT_JSON = Symbol('not JSON');
const NOT_OBJECT = Symbol('not an object');
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A body labelled JSON, read as the routes read it: its object, `NOT_OBJECT` when it is JSON of
 * another kind (no field of §2.1 in it), `NOT_JSON` when it is no JSON at all (nor UTF-8 text), and
 * `undefined` when it nests too deep to walk (the route refused it for that).
 */
function jsonObject(
  bytes: Uint8Array,
): Record<string, unknown> | undefined | typeof NOT_JSON | typeof NOT_OBJECT {
  if (nestsTooDeep(bytes)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(bytes));
  } catch {
    return NOT_JSON;
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : NOT_OBJECT;
}

/** Where a content redirect sends the client, or where an artifact request went (path and query). */
function locationOf(kind: Kind, request: CoreRequest, response: CoreResponse): string | undefined {
  if (kind === 'artifact') return `${request.path}?${request.query}`;
  if (kind !== 'content' || response.status < 300 || response.status > 399) return undefined;
  const target = response.headers['location'];
  if (target === undefined) return undefined;
  // A Location no URL can be made of (or an origin no URL can hold) sends the client nowhere.
  const url = URL.parse(target, request.origin);
  return url === null ? undefined : `${url.pathname}?${url.search.slice(1)}`;
}
