import { LIFECYCLE } from '../../src/generated/client-contract.ts';
import type { VideoStatus } from '../../src/spec/index.ts';
import { fieldSituation, pruneJson, uploadsFile, type Situation } from '../../src/profile/index.ts';
import { UNKNOWN_TASK_ID } from '../checks/probes.ts';
import { publicIdOf } from '../checks/submission-outcome.ts';
import { kept, type Exchange, type SendInit } from '../http-recorder.ts';
import { MATRIX_ROUTES, type Caller, type CellState, type RouteId } from '../matrix/index.ts';

/** The statuses of `x-lifecycle` (generated: src/generated/client-contract.ts). */
const STATUSES: readonly string[] = LIFECYCLE.states;
const TERMINAL: readonly string[] = LIFECYCLE.terminal;

/** One exchange of a run, with what was sent and when it was kept (run clock, ms). */
export interface Seen {
  readonly exchange: Exchange;
  readonly sent: SendInit;
  readonly at: number;
}

/** An exchange read as an observation of one cell in one situation. */
export interface Observation extends Seen {
  readonly route: RouteId;
  readonly state: CellState;
  readonly caller: Caller;
  readonly situation: Situation;
  /** The task the request asked about or created, when there is one. */
  readonly taskId: string | undefined;
}

/** One look at a task's state by its owner (`GET /v1/videos/{id}`, or the wrapper right after it). */
export interface Look {
  readonly at: number;
  readonly status: VideoStatus;
  readonly exchange: Exchange;
  /** The generic wrapper's answer read with this look, when it was. */
  wrapper?: Exchange;
}

/** A task the run created: when its submission was answered and every look at it. */
export interface TaskTimeline {
  readonly taskId: string;
  readonly submittedAt: number;
  /** Submitted on the second family's native path (§4.5). */
  readonly native: boolean;
  readonly looks: Look[];
}

/**
 * Collects what a run sends and sees (the `onExchange` hook of `runContract` and the recorder), in
 * bounded memory (issue 33 item 8: every answer was kept whole, ~1 GB on a deployment answering
 * 4 MiB bodies): of each answer, what the recorder keeps for reports (`kept`: the first bytes) and the
 * part of its JSON a shape is learned from (`pruneJson`). Bodies are read within the contract's one
 * cap (contracts/http-body.ts) before they get here.
 */
export class RunObserver {
  readonly seen: Seen[] = [];
  readonly record = (exchange: Exchange, sent: SendInit, at: number): void => {
    const json = exchange.json === undefined ? undefined : pruneJson(exchange.json);
    this.seen.push({ exchange: { ...kept(exchange), json }, sent, at });
  };
}

interface MatchedPath {
  readonly route: RouteId;
  readonly taskId: string | undefined;
}

const PATTERNS = [...MATRIX_ROUTES]
  .sort((a, b) => b.template.length - a.template.length)
  .map((route) => ({
    route,
    pattern: new RegExp(
      `^${route.template.replace('{task_id}', '(?<task>[^/]+)').replace('{plugin_name}', '[^/]+')}$`,
    ),
  }));

/** The matrix route a request went to, and the task it named. */
export function matchPath(method: string, path: string): MatchedPath | undefined {
  const bare = path.split('?')[0]!;
  const wanted = method === 'HEAD' ? 'GET' : method;
  for (const { route, pattern } of PATTERNS) {
    if (route.method !== wanted) continue;
    const match = pattern.exec(bare);
    if (match === null) continue;
    const task = match.groups?.['task'];
    return { route: route.id, taskId: task === undefined ? undefined : decodeURIComponent(task) };
  }
  return undefined;
}

const CALLER: Readonly<Record<Exchange['as'], Caller>> = {
  primary: 'owner',
  other: 'other',
  none: 'none',
  invalid: 'invalid',
};

/** A well-formed answer the cell's reading can be learned from (no network failure, no rate limit). */
const answered = (e: Exchange) =>
  e.networkError === undefined &&
  e.notSent !== true &&
  e.bodyError === undefined &&
  e.status !== 429;

/** Marks a learning probe's model: no deployment has it. */
export const UNKNOWN_MODEL = 'videotask-learn-no-such-model';

/** What the run was told besides its exchanges: the model its key may not use (`--forbidden-model`). */
export interface RunInputs {
  readonly forbiddenModel?: string | undefined;
}

/**
 * What a submission was, by what it sent (never by how it was answered, so that a deployment that
 * accepts a probe is learned accepting it): the probes by what they send wrong, everything else `ok`.
 * A multipart form is a file upload when it uploads one; refused with 415, any other form is refused
 * as a media type the deployment does not read.
 */
function submissionSituation(seen: Seen, route: RouteId, inputs: RunInputs): Situation {
  const { sent, exchange } = seen;
  if (exchange.as === 'none' || exchange.as === 'invalid') return 'refused';
  if (sent.rawBody !== undefined && sent.contentType?.startsWith('multipart/') === true) {
    if (uploadsFile(sent.contentType, sent.rawBody)) return 'file-upload';
    return exchange.status === 415 ? 'unsupported-media-type' : 'empty-prompt';
  }
  if (sent.rawBody !== undefined) return 'invalid-json';
  return jsonSituation((sent.json ?? {}) as Record<string, unknown>, route, inputs);
}

/** What a JSON submission sent wrong, if anything: mixed formats, the model, a field. */
function jsonSituation(
  body: Record<string, unknown>,
  route: RouteId,
  inputs: RunInputs,
): Situation {
  if (route === 'createPluginTask')
    return 'prompt' in body || 'metadata' in body ? 'mixed-formats' : 'ok';
  if (body['model'] === UNKNOWN_MODEL) return 'unknown-model';
  if (inputs.forbiddenModel !== undefined && body['model'] === inputs.forbiddenModel)
    return 'forbidden-model';
  return fieldSituation(body) ?? 'ok';
}

/** What a request about a task was, in the state the task was in. */
function taskSituation(seen: Seen, route: RouteId, state: CellState): Situation {
  const { exchange, sent } = seen;
  if (exchange.as !== 'primary' || state === 'missing') return 'refused';
  if (route !== 'getVideoContent') return 'ok';
  if (state !== 'completed') return 'refused';
  if (exchange.method === 'HEAD') return 'head';
  const range = Object.keys(sent.headers ?? {}).some((h) => h.toLowerCase() === 'range');
  return range ? 'range' : 'ok';
}

/**
 * Reads a run's exchanges as observations: each request's cell (route, the state of its task then,
 * caller) and situation, and each created task's timeline. A probe's state is the state the looks
 * before and after it agree on (the contract suite's own rule); one sent while the task moved is left
 * out, as is anything unanswered or rate limited.
 */
export function readRun(
  seen: readonly Seen[],
  inputs: RunInputs = {},
): {
  observations: Observation[];
  tasks: Map<string, TaskTimeline>;
} {
  const tasks = timelines(seen);
  const positions = new Map(seen.map((s, i) => [s.exchange, i]));
  const observations: Observation[] = [];
  seen.forEach((item, index) => {
    const { exchange } = item;
    if (!answered(exchange)) return;
    const matched = matchPath(exchange.method, exchange.path);
    if (matched === undefined) return;
    const { route, taskId } = matched;
    const caller = CALLER[exchange.as];
    if (taskId === undefined) {
      const created = route.startsWith('create') ? publicIdOf(exchange) : undefined;
      // The catalog is any key's to read (the other user's too); no key or an invalid one is refused.
      const situation =
        route === 'listModels'
          ? caller === 'owner' || caller === 'other'
            ? 'ok'
            : 'refused'
          : submissionSituation(item, route, inputs);
      observations.push({ ...item, route, state: 'n/a', caller, situation, taskId: created });
      return;
    }
    const timeline = tasks.get(taskId);
    const state =
      timeline === undefined
        ? taskId === UNKNOWN_TASK_ID
          ? 'missing'
          : undefined
        : stateAt(timeline, item, index, positions);
    if (state === undefined) return;
    observations.push({
      ...item,
      route,
      state,
      caller,
      situation: taskSituation(item, route, state),
      taskId,
    });
  });
  return { observations, tasks };
}

/** Every task the run created, with the owner's looks at it in the order they were answered. */
function timelines(seen: readonly Seen[]): Map<string, TaskTimeline> {
  const tasks = new Map<string, TaskTimeline>();
  // The look each task's next wrapper read belongs to (the suite reads the wrapper right after it).
  const pending = new Map<string, Look | undefined>();
  for (const { exchange, at } of seen) {
    const matched = matchPath(exchange.method, exchange.path);
    if (matched === undefined || !answered(exchange)) continue;
    if (matched.route.startsWith('create') && exchange.as === 'primary') {
      const id = publicIdOf(exchange);
      const native = matched.route === 'createPluginTask';
      if (id !== undefined && exchange.status < 300)
        tasks.set(id, { taskId: id, submittedAt: at, native, looks: [] });
      continue;
    }
    const taskId = matched.taskId;
    const timeline = taskId === undefined ? undefined : tasks.get(taskId);
    if (timeline === undefined || exchange.as !== 'primary') continue;
    if (exchange.label === 'poll' && matched.route === 'getVideo')
      addLook(timeline, { exchange, at }, pending);
    else if (exchange.label === 'poll wrapper') {
      const look = pending.get(timeline.taskId);
      if (look !== undefined) look.wrapper = exchange;
      pending.delete(timeline.taskId);
    }
  }
  return tasks;
}

/** An owner's poll: a look when it answered a documented status; the next wrapper read is its. */
function addLook(
  timeline: TaskTimeline,
  { exchange, at }: Pick<Seen, 'exchange' | 'at'>,
  pending: Map<string, Look | undefined>,
): void {
  const status = (exchange.json as { status?: unknown } | undefined)?.status;
  const valid = exchange.status < 300 && STATUSES.includes(status as string);
  const look = valid ? { at, status: status as VideoStatus, exchange } : undefined;
  if (look !== undefined) timeline.looks.push(look);
  pending.set(timeline.taskId, look);
}

/**
 * The state of a task when the exchange at `index` was answered: a look's own; otherwise the state the
 * looks before and after agree on (a terminal state never changes, so one look before suffices).
 */
function stateAt(
  timeline: TaskTimeline,
  item: Seen,
  index: number,
  positions: ReadonlyMap<Exchange, number>,
): VideoStatus | undefined {
  let before: Look | undefined;
  let after: Look | undefined;
  for (const look of timeline.looks) {
    if (look.exchange === item.exchange || look.wrapper === item.exchange) return look.status;
    if (positions.get(look.exchange)! < index) before = look;
    else {
      after = look;
      break;
    }
  }
  if (before === undefined) return undefined;
  const terminal = TERMINAL.includes(before.status);
  return terminal || after?.status === before.status ? before.status : undefined;
}
