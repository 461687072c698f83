/**
 * A learned profile (decisions/018): how one deployment reads, cell by cell of the contract matrix
 * (route × task state × caller), learned from a contract run and replayed by the mock on top of the
 * documented behaviour. Plain JSON, readable and diffable; its JSON Schema is
 * `spec/learned-profile.schema.json`. It never holds an API key, a prompt, a signed URL or a real task
 * ID: values are described by their kind (`task-id`, `unix-seconds`, an ID form, …) and replayed by
 * generators of the same form.
 */

import { LIFECYCLE } from '../generated/client-contract.ts';
import { operationsWith, SERVICE_KINDS } from '../spec/route-roles.ts';

/** The format's version: a reader refuses another. */
export const PROFILE_VERSION = 1;

/**
 * The largest profile file read or written, in bytes (issue 33 item 8): a learned one is ~150 KB; the
 * learner keeps what it writes within this (contracts/learn/learn-profile.ts).
 */
export const MAX_PROFILE_BYTES = 16 * 2 ** 20;

/**
 * The service's routes the contract matrix observes, in the spec's order: every operation with an
 * `x-role` but the temporary result addresses (src/spec/route-roles.ts).
 */
export const PROFILE_ROUTES = operationsWith({ kind: SERVICE_KINDS });
export type ProfileRoute = (typeof PROFILE_ROUTES)[number];

/**
 * The task states (§3) in the order a task passes them (`x-lifecycle.states`), then a task that does
 * not exist: the one list of them (the contract matrix's columns, the mock's answer table).
 */
export const TASK_STATES = [...LIFECYCLE.states, 'missing'] as const;

/** Task states (§3), a task that does not exist, and `n/a` for routes without a task in their path. */
export const PROFILE_STATES = [...TASK_STATES, 'n/a'] as const;
export type ProfileState = (typeof PROFILE_STATES)[number];

/** The task's owner, another user, no key, an invalid key (the matrix's callers). */
export const PROFILE_CALLERS = ['owner', 'other', 'none', 'invalid'] as const;
export type ProfileCaller = (typeof PROFILE_CALLERS)[number];

/**
 * What a request of a cell was, as the run sent it: `ok` a well-formed request the caller may make;
 * `refused` the refusal the cell itself implies (no or an invalid key, another user's or a missing task,
 * content before completion); the submission probes by what they send wrong (§2.1's required fields
 * left out or of another type, an empty or blank prompt, a model the key may not use or no deployment
 * has, a file uploaded, a body that is not JSON or not of a media type the deployment reads, a native
 * body mixing in the OpenAI form); `range` and `head` on content.
 */
export const SITUATIONS = [
  'ok',
  'refused',
  'missing-model',
  'model-not-string',
  'missing-prompt',
  'prompt-not-string',
  'empty-prompt',
  'forbidden-model',
  'unknown-model',
  'file-upload',
  'mixed-formats',
  'invalid-json',
  'unsupported-media-type',
  'range',
  'head',
] as const;
export type Situation = (typeof SITUATIONS)[number];

/** `getVideo queued owner`: a cell of the matrix, as the profile's `answers` names it. */
export type CellKey = `${ProfileRoute} ${ProfileState} ${ProfileCaller}`;

export const cellKey = (route: ProfileRoute, state: ProfileState, caller: ProfileCaller): CellKey =>
  `${route} ${state} ${caller}`;

/** The three parts of a cell key, or undefined when it names no cell. */
export function parseCellKey(
  key: string,
): { route: ProfileRoute; state: ProfileState; caller: ProfileCaller } | undefined {
  const [route, state, caller, extra] = key.split(' ');
  if (extra !== undefined) return undefined;
  if (!(PROFILE_ROUTES as readonly string[]).includes(route ?? '')) return undefined;
  if (!(PROFILE_STATES as readonly string[]).includes(state ?? '')) return undefined;
  if (!(PROFILE_CALLERS as readonly string[]).includes(caller ?? '')) return undefined;
  return {
    route: route as ProfileRoute,
    state: state as ProfileState,
    caller: caller as ProfileCaller,
  };
}

/**
 * The kind of a value (a leaf of a shape). Bound kinds name a fact of the task or request:
 * `task-id` the public task ID, `model` a model ID, `request-id` the answer's own request ID, `status`
 * and `wrapper-status` the task's state in the OpenAI form's and the wrapper's words. The rest
 * describe a form: `unix-seconds`/`unix-ms` timestamps, `iso-time` a date text, `percent` `"50%"`,
 * `url` an absolute http(s) address, `empty` `""`, `word` a short token that varies, `text` free text
 * (with a `template` when its wording is stable), `id` an opaque identifier of a `form`.
 */
export type LeafKind =
  | 'task-id'
  | 'model'
  | 'request-id'
  | 'status'
  | 'wrapper-status'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'unix-seconds'
  | 'unix-ms'
  | 'iso-time'
  | 'percent'
  | 'url'
  | 'empty'
  | 'word'
  | 'text'
  | 'id';

/** One node of a JSON shape. */
export type ShapeNode =
  ObjectNode | ArrayNode | ConstNode | LeafNode | { readonly oneOf: readonly ShapeNode[] };

export interface ObjectNode {
  readonly object: Readonly<Record<string, ShapeNode>>;
  /** Fields seen in some answers of the cell, not all. */
  readonly optional?: readonly string[];
}

export interface ArrayNode {
  /** The items' shape (merged over every item); null when only empty arrays were seen. */
  readonly array: ShapeNode | null;
  readonly length: readonly [number, number];
}

/** A fixed value: the same in every answer seen (`"object": "video"`, `"platform": "54"`). */
export interface ConstNode {
  readonly const: string | number | boolean | null;
}

export interface LeafNode {
  readonly kind: LeafKind;
  /** `integer`, `number`: the values seen. */
  readonly range?: readonly [number, number];
  /** `id`: its form, e.g. `task_{alnum:32}` (see id-form.ts). */
  readonly form?: string;
  /**
   * `text`: its wording, with slots `{task-id}`, `{request-id}`, `{model}`, `{status}`,
   * `{wrapper-status}`, `{prompt}`, `{url}`, `{id}` (and `{{`, `}}` for braces).
   */
  readonly template?: string;
  /**
   * `text` longer than a template is kept for (`MAX_TEMPLATE_CHARS`): the lengths seen, never its
   * wording (issue 33 item 5).
   */
  readonly length?: readonly [number, number];
  /** `word`: a few of the values seen. */
  readonly values?: readonly string[];
}

/** A body: JSON (a shape), bytes that are not JSON, or nothing. */
export type BodyNode = ShapeNode | { readonly binary: readonly [number, number] } | { none: true };

/** One learned answer: what a cell answered in a situation. */
export interface LearnedAnswer {
  /** The status code seen most. */
  readonly status: number;
  /** Every status code seen, when more than one. */
  readonly statuses?: readonly number[];
  /** `Content-Type` as sent ('' for none). */
  readonly contentType: string;
  /** Headers that matter (lower-case names), each a shape leaf or a constant. */
  readonly headers: Readonly<Record<string, ShapeNode>>;
  readonly body: BodyNode;
  /** Reached after a redirect (a content download). */
  readonly redirected?: boolean;
  /** Response time range, ms. */
  readonly ms: readonly [number, number];
  /** How many answers this was learned from. */
  readonly seen: number;
  /** The run's steps that asked it ("poll", "queued probe", …). */
  readonly steps: readonly string[];
}

/** A task's phases, ms ranges: reads `unknown`, waits `queued`, runs `in_progress`. */
export interface LearnedPhases {
  readonly unknown: readonly [number, number];
  readonly queued: readonly [number, number];
  readonly running: readonly [number, number];
}

export type PhaseName = keyof LearnedPhases;
export const PHASE_NAMES: readonly PhaseName[] = ['unknown', 'queued', 'running'];

/**
 * Progress shown in a state (§2.2: an integer 0 to 100): fixed `steps` (the gateway's 10 queued, 50
 * running), or a `curve` (the lowest and highest value seen) when it moved. `looks` counts the polls
 * it rests on (decisions/035): a fixed value seen in one look is no evidence that progress stays
 * there. Absent in profiles learned before it was recorded; a reader then takes the reading as is.
 */
export type ProgressReading =
  | { readonly steps: readonly number[]; readonly looks?: number }
  | { readonly curve: readonly [number, number]; readonly looks?: number };

export interface FailureReading {
  readonly code?: string;
  readonly message?: string;
  readonly reason?: string;
}

/** A task's status (§3, `x-lifecycle.states`). */
export type TaskStatus = (typeof LIFECYCLE.states)[number];

export interface LearnedLifecycle {
  /** Tasks followed to learn it. */
  readonly tasks: number;
  readonly phases: LearnedPhases;
  /**
   * Phases no look of the run showed (a task that jumped past the state between two polls): their
   * range is then the gap they fit in, `[0, gap]`, no reading of how long they last, and drift compares
   * a phase only where both sides showed it (decisions/038). Absent in profiles learned before it was
   * recorded; a reader then takes a phase as shown when its state has a reading or its range starts
   * above 0 (`phaseShown`).
   */
  readonly unshownPhases?: readonly PhaseName[];
  /** Progress shown per state: fixed steps (the gateway's 10 / 50) or a moving curve. */
  readonly progress: Readonly<Partial<Record<TaskStatus, ProgressReading>>>;
  /** The generic wrapper's status per state (§2.3: uppercase internal values, given as examples). */
  readonly wrapperStatuses: Readonly<Partial<Record<TaskStatus, string>>>;
  /** How failed tasks read: error code, message, the wrapper's fail_reason. */
  readonly failures: readonly FailureReading[];
}

/** The task state each phase is named after. */
export const PHASE_STATES: Readonly<Record<PhaseName, TaskStatus>> = {
  unknown: 'unknown',
  queued: 'queued',
  running: 'in_progress',
};

/**
 * Whether a look of the run showed a phase's state, so its range is a reading of how long it lasts
 * (decisions/038). A profile learned before `unshownPhases` was recorded tells by what it read of the
 * state (a progress, a wrapper word) or a range that starts above 0.
 */
export function phaseShown(lifecycle: LearnedLifecycle, phase: PhaseName): boolean {
  if (lifecycle.tasks === 0) return false;
  if (lifecycle.unshownPhases !== undefined) return !lifecycle.unshownPhases.includes(phase);
  const state = PHASE_STATES[phase];
  return (
    lifecycle.progress[state] !== undefined ||
    lifecycle.wrapperStatuses[state] !== undefined ||
    lifecycle.phases[phase][0] > 0
  );
}

export interface LearnedContent {
  /** Streamed by the route itself, or by a redirect to another address (§4.4: clients follow). */
  readonly delivery: 'stream' | 'redirect';
  readonly contentType: string;
  /** Sizes seen, bytes. */
  readonly bytes: readonly [number, number];
  /** `Range` honoured (206); null when not asked. */
  readonly range: boolean | null;
  /** `HEAD` answered 2xx; null when not asked. */
  readonly head: boolean | null;
}

export interface LearnedProfile {
  readonly $schema?: string;
  readonly version: typeof PROFILE_VERSION;
  /** A name for people and `/__mock/health` (default: the target's host). */
  readonly name: string;
  /** When it was last learned (ISO 8601). */
  readonly learnedAt: string;
  /** Where it was learned: the host (never credentials or a path), and how many runs. */
  readonly target: { readonly host: string; readonly basePath?: string; readonly runs: number };
  /** The public task ID's form (§1), e.g. `task_{alnum:32}`. */
  readonly taskId: { readonly form: string };
  /** The request-ID header each answer carries, and its value's form; null when none. */
  readonly requestId: { readonly header: string; readonly form: string } | null;
  /** Submissions: whether a `multipart/form-data` body is read (null: not asked). */
  readonly submissions: { readonly multipart: boolean | null };
  /** Error habits: an ending every OpenAI-style error message has (`" (request id: {request-id})"`). */
  readonly errors: { readonly messageSuffix?: string };
  /** Model IDs the catalog listed to the run's key. */
  readonly models: readonly string[];
  readonly lifecycle: LearnedLifecycle;
  readonly content: LearnedContent | null;
  /** By cell, then situation. */
  readonly answers: Readonly<Record<string, Readonly<Partial<Record<Situation, LearnedAnswer>>>>>;
}

/** The profile with each answer (every cell, every situation) replaced by what `change` makes of it. */
export function mapAnswers(
  profile: LearnedProfile,
  change: (answer: LearnedAnswer) => LearnedAnswer,
): LearnedProfile {
  const answers = Object.fromEntries(
    Object.entries(profile.answers).map(([cell, situations]) => [
      cell,
      Object.fromEntries(
        Object.entries(situations).map(([situation, answer]) => [situation, change(answer)]),
      ),
    ]),
  );
  return { ...profile, answers };
}
