import type {
  FailureReading,
  LearnedContent,
  LearnedLifecycle,
  PhaseName,
  ProgressReading,
  TaskStatus,
  ValueFacts,
} from '../../src/profile/index.ts';
import {
  MAX_TEMPLATE_CHARS,
  PHASE_NAMES,
  servableContentType,
  templateWithin,
} from '../../src/profile/index.ts';
import { LIFECYCLE } from '../../src/generated/client-contract.ts';
import { fromWrapperStatus, type Lifecycle } from '../../src/spec/index.ts';
import type { Look, Observation, TaskTimeline } from './run-observer.ts';

type Range = readonly [number, number];
const NONE: Range = [0, 0];

/** The widest of two ranges; `undefined` stands for "nothing seen". */
export function widen(a: Range | undefined, b: Range | undefined): Range | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return [Math.min(a[0], b[0]), Math.max(a[1], b[1])];
}

const round = (r: Range): Range => [Math.max(0, Math.floor(r[0])), Math.max(0, Math.ceil(r[1]))];

/**
 * How long one task spent in each phase, as the looks bracket it: it certainly lasted from the first
 * to the last look that showed it, and at most from the last look before it to the first look after.
 * A phase never shown lasted between 0 and the gap it would have been in; `unknown` never shown is 0.
 * Which phases a look showed is said too: a gap is no reading of how long a phase lasts.
 */
function phasesOf(task: TaskTimeline): {
  unknown: Range;
  queued: Range | undefined;
  running: Range | undefined;
  /** The phases a look showed (the others' ranges are gaps, not durations: decisions/038). */
  shown: ReadonlySet<PhaseName>;
} {
  const { looks, submittedAt } = task;
  const shown = (status: string) => looks.filter((l) => l.status === status);
  const lastBefore = (at: number) => [...looks].reverse().find((l) => l.at < at)?.at ?? submittedAt;
  const phase = (
    seen: readonly Look[],
    start: number,
    next: Look | undefined,
  ): Range | undefined => {
    if (next === undefined && seen.length === 0) return undefined;
    if (seen.length === 0) return [0, next!.at - lastBefore(next!.at)];
    const upper = next === undefined ? Number.POSITIVE_INFINITY : next.at - start;
    return [seen.at(-1)!.at - seen[0]!.at, upper];
  };
  const unknown = shown('unknown');
  const queued = shown('queued');
  const running = shown('in_progress');
  const firstAfter = (status: TaskStatus) => {
    const values = LIFECYCLE.states;
    const later: readonly string[] = values.slice(values.indexOf(status) + 1);
    return looks.find((l) => later.includes(l.status));
  };
  const afterUnknown = firstAfter('unknown');
  const unknownRange: Range =
    unknown.length === 0
      ? NONE
      : [unknown.at(-1)!.at - submittedAt, (afterUnknown?.at ?? unknown.at(-1)!.at) - submittedAt];
  const queueStart = unknown.at(-1)?.at ?? submittedAt;
  const queuedRange = phase(queued, queueStart, firstAfter('queued'));
  const runStart = queued.at(-1)?.at ?? queueStart;
  const runningRange = phase(running, runStart, firstAfter('in_progress'));
  const finite = (r: Range | undefined) =>
    r !== undefined && Number.isFinite(r[1]) ? r : undefined;
  const shownPhases = new Set<PhaseName>();
  if (unknown.length > 0) shownPhases.add('unknown');
  if (queued.length > 0) shownPhases.add('queued');
  if (running.length > 0) shownPhases.add('running');
  return {
    unknown: unknownRange,
    queued: finite(queuedRange),
    running: finite(runningRange),
    shown: shownPhases,
  };
}

/**
 * Fixed steps when every task showed the same one or two values in a state (the gateway's 10 queued,
 * 50 running), each seen at least twice in all, or the one value of a state seen once (a short phase:
 * what was seen is what it shows); a curve when a task's progress moved in the state or tasks showed
 * different values (where a failed render stopped). Each reading counts the looks it rests on: one
 * look at a value is no evidence that progress stays there (decisions/035; drift weighs it).
 */
function progressOf(perTask: readonly (readonly number[])[]): ProgressReading | undefined {
  const values = perTask.flat();
  const looks = values.length;
  if (looks === 0) return undefined;
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const steps = [...counts].sort((a, b) => b[1] - a[1]).map(([v]) => v);
  const shared = perTask.every((task) => task.every((v) => perTask[0]!.includes(v)));
  if (looks === 1) return { steps, looks };
  if (shared && counts.size <= 2 && looks >= 2 * counts.size) return { steps, looks };
  return { curve: [Math.min(...values), Math.max(...values)], looks };
}

/** Whether a wrapper word is documented (x-lifecycle.mapping) for another state than the look's. */
function movedOn(lifecycle: Lifecycle, word: string, status: TaskStatus): boolean {
  const mapped = fromWrapperStatus(lifecycle, word);
  return mapped !== undefined && mapped !== status;
}

/** The most frequent value. */
function mostCommon(values: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

interface VideoBody {
  progress?: unknown;
  error?: { code?: unknown; message?: unknown };
}

/** A task's lifecycle as the run's looks showed it: phases, progress, wrapper statuses, failures. */
export function lifecycleOf(
  timelines: readonly TaskTimeline[],
  facts: ValueFacts,
  lifecycle: Lifecycle,
): LearnedLifecycle {
  let unknown: Range | undefined;
  let queued: Range | undefined;
  let running: Range | undefined;
  const shownPhases = new Set<PhaseName>();
  const progress = new Map<TaskStatus, number[][]>();
  const wrapper = new Map<TaskStatus, string[]>();
  const failures = new Map<string, FailureReading>();
  for (const task of timelines.filter((t) => t.looks.length > 0)) {
    const phases = phasesOf(task);
    unknown = widen(unknown, phases.unknown);
    queued = widen(queued, phases.queued);
    running = widen(running, phases.running);
    for (const phase of phases.shown) shownPhases.add(phase);
    const shown = new Map<TaskStatus, number[]>();
    for (const look of task.looks) readLook(look, { shown, wrapper, failures }, facts, lifecycle);
    for (const [state, values] of shown)
      progress.set(state, [...(progress.get(state) ?? []), values]);
  }
  const progressReadings: Partial<Record<TaskStatus, ProgressReading>> = {};
  for (const [state, values] of progress) {
    const reading = progressOf(values);
    if (reading !== undefined) progressReadings[state] = reading;
  }
  return {
    tasks: timelines.length,
    phases: {
      unknown: round(unknown ?? NONE),
      queued: round(queued ?? NONE),
      running: round(running ?? NONE),
    },
    unshownPhases: PHASE_NAMES.filter((phase) => !shownPhases.has(phase)),
    progress: progressReadings,
    wrapperStatuses: wrapperWords(wrapper),
    failures: [...failures.values()].slice(0, 16),
  };
}

/** §2.2: an integer 0 to 100; anything else is no reading (and would not fit the profile). */
const isProgress = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 100;

/** What one look shows: its progress, the wrapper's word for its state, a failure's wording. */
function readLook(
  look: TaskTimeline['looks'][number],
  into: {
    shown: Map<TaskStatus, number[]>;
    wrapper: Map<TaskStatus, string[]>;
    failures: Map<string, FailureReading>;
  },
  facts: ValueFacts,
  lifecycle: Lifecycle,
): void {
  const { shown, wrapper, failures } = into;
  const body = look.exchange.json as VideoBody;
  if (isProgress(body.progress))
    shown.set(look.status, [...(shown.get(look.status) ?? []), body.progress]);
  const data = (look.wrapper?.json as { data?: { status?: unknown; fail_reason?: unknown } })?.data;
  // A documented word of another state: the task moved between the look and the wrapper's answer.
  const moved = typeof data?.status === 'string' && movedOn(lifecycle, data.status, look.status);
  if (typeof data?.status === 'string' && !moved && /^.{1,64}$/.test(data.status))
    wrapper.set(look.status, [...(wrapper.get(look.status) ?? []), data.status]);
  if (look.status === 'failed') {
    const reading = failureOf(body, data?.fail_reason, facts);
    failures.set(JSON.stringify(reading), reading);
  }
}

/**
 * The wrapper's word for each state: the one most often read with it, leaving out a word another
 * state owns (read more often there: the task moved between the look and the wrapper's answer).
 */
function wrapperWords(
  seen: ReadonlyMap<TaskStatus, readonly string[]>,
): Partial<Record<TaskStatus, string>> {
  const count = (state: TaskStatus, word: string) =>
    seen.get(state)?.filter((w) => w === word).length ?? 0;
  const words: Partial<Record<TaskStatus, string>> = {};
  for (const [state, values] of seen) {
    const own = values.filter(
      (word) =>
        ![...seen.keys()].some(
          (other) => other !== state && count(other, word) > count(state, word),
        ),
    );
    const word = mostCommon(own);
    if (word !== undefined) words[state] = word;
  }
  return words;
}

function failureOf(body: VideoBody, reason: unknown, facts: ValueFacts): FailureReading {
  // Within the profile's bounds: a longer wording is no reading of how failures read.
  const text = (v: unknown, max = MAX_TEMPLATE_CHARS) =>
    typeof v === 'string' ? templateWithin(v, facts, max) : undefined;
  const reading: { code?: string; message?: string; reason?: string } = {};
  const code = text(body.error?.code, 200);
  const message = text(body.error?.message);
  const why = text(reason);
  if (code !== undefined) reading.code = code;
  if (message !== undefined) reading.message = message;
  if (why !== undefined) reading.reason = why;
  return reading;
}

/** How the finished video is delivered: stream or redirect, its type, size, Range and HEAD. */
export function contentOf(observations: readonly Observation[]): LearnedContent | null {
  const content = observations.filter(
    (o) => o.route === 'getVideoContent' && o.state === 'completed' && o.caller === 'owner',
  );
  const whole = content.filter((o) => o.situation === 'ok' && o.exchange.status < 300);
  if (whole.length === 0) return null;
  const ranges = content.filter((o) => o.situation === 'range');
  const heads = content.filter((o) => o.situation === 'head');
  const sizes = whole.map((o) => o.exchange.bytes);
  return {
    delivery: whole.some((o) => o.exchange.redirected) ? 'redirect' : 'stream',
    contentType: servableContentType(mostCommon(whole.map((o) => o.exchange.contentType)) ?? ''),
    bytes: [Math.min(...sizes), Math.max(...sizes)],
    range: ranges.length === 0 ? null : ranges.some((o) => o.exchange.status === 206),
    head: heads.length === 0 ? null : heads.some((o) => o.exchange.status < 300),
  };
}
