import { LIFECYCLE } from '../../src/generated/client-contract.ts';
import { operationsWith } from '../../src/spec/route-roles.ts';
import {
  parseCellKey,
  parseForm,
  PHASE_NAMES,
  phaseShown,
  type LearnedAnswer,
  type LearnedLifecycle,
  type LearnedProfile,
  type ProgressReading,
  type ShapeNode,
} from '../../src/profile/index.ts';
import { compareShapes, wordsByPath, type ShapeContext } from './compare-shapes.ts';
import { lifecycleDifference, lifecycleWhere, type Aspect, type Difference } from './difference.ts';
import { setApartNeverLearned } from './never-learned.ts';

const mediaType = (type: string) => type.split(';')[0]!.trim().toLowerCase();

/** Time classes: what a client's timeouts and schedules notice, never a few milliseconds. */
const CLASSES: readonly [number, string][] = [
  [1_000, 'under 1 s'],
  [10_000, '1–10 s'],
  [60_000, '10–60 s'],
  [600_000, '1–10 min'],
  [Number.POSITIVE_INFINITY, 'over 10 min'],
];
export const timeClass = (ms: number): string => CLASSES.find(([limit]) => ms < limit)![1];

/**
 * A response time's class: what a client's request time limit notices (under 10 s, up to a minute,
 * longer), not a busy machine's second.
 */
const responseClass = (ms: number): string =>
  ms < 10_000 ? 'under 10 s' : ms < 60_000 ? '10–60 s' : 'over a minute';

/** Answers a response time class is compared on, at least, on each side. */
const RESPONSE_SAMPLES = 3;

/**
 * Two ranges differ in time when even the nearest of their durations fall in other classes, and far
 * apart: the higher range's shortest at least twice the lower's longest (decisions/038). A range's
 * bounds are looks a poll interval apart, so a phase of 1 s reads 0–0.99 s in one run and 1.0–2.4 s in
 * the next: one class boundary between them is the polls', not the deployment's. A phase that took
 * 0–0.5 s against one of 20–40 s differs.
 */
function timingDiffers(a: readonly [number, number], b: readonly [number, number]): boolean {
  if (a[0] <= b[1] && b[0] <= a[1]) return false;
  const [low, high] = a[1] < b[0] ? [a, b] : [b, a];
  return timeClass(low[1]) !== timeClass(high[0]) && high[0] >= TIMING_MARGIN * low[1];
}

/** How many times the lower range's longest the higher range's shortest must be to differ. */
const TIMING_MARGIN = 2;

const describeRange = (r: readonly [number, number]) =>
  r[0] === r[1] ? `${r[0]} ms` : `${r[0]}–${r[1]} ms`;

/**
 * Every difference between what two runs of the same sequence learned, cell by cell (status, content
 * type, body shape and value kinds, headers that matter, response time class, cells observed on one
 * side only), then the lifecycle (phase durations by class, progress, wrapper statuses), the content's
 * delivery and the identifiers' forms.
 */
export function compareProfiles(
  a: LearnedProfile,
  b: LearnedProfile,
  options: CompareOptions = {},
): { differences: Difference[]; notes: string[] } {
  const differences: Difference[] = [];
  const notes: string[] = [];
  const shownA = statesShown(a);
  const shownB = statesShown(b);
  const wordsA = routeWords(a);
  const wordsB = routeWords(b);
  const cells = [...new Set([...Object.keys(a.answers), ...Object.keys(b.answers)])].sort(
    byCellOrder,
  );
  for (const cell of cells) {
    const left = a.answers[cell] ?? {};
    const right = b.answers[cell] ?? {};
    for (const situation of new Set([...Object.keys(left), ...Object.keys(right)])) {
      const x = left[situation as keyof typeof left];
      const y = right[situation as keyof typeof right];
      if (x === undefined || y === undefined) {
        compareOneSided({ cell, situation, x, y }, shownA, shownB, { differences, notes });
        continue;
      }
      const route = cell.split(' ')[0]!;
      const context: ShapeContext = {
        wordsA: (path) => wordsA.get(route)?.get(path) ?? NO_WORDS,
        wordsB: (path) => wordsB.get(route)?.get(path) ?? NO_WORDS,
      };
      differences.push(...compareAnswers(cell, situation, x, y, context));
    }
  }
  const lifecycle = compareLifecycle(a, b);
  differences.push(...lifecycle.differences, ...compareContent(a, b), ...compareIds(a, b));
  notes.push(...lifecycle.notes, ...statesNotes(shownA, shownB, a, b));
  if (options.bReplays === undefined) return { differences, notes };
  const apart = setApartNeverLearned(differences, options.bReplays);
  return { differences: apart.differences, notes: [...notes, ...apart.notes] };
}

export interface CompareOptions {
  /**
   * The profile B is the mock replaying (`drift --against-profile P`): a difference whose B side rests
   * on what P never learned is a note, not a difference (decisions/038).
   */
  readonly bReplays?: LearnedProfile;
}

/**
 * A situation observed on one side only. A task state is the lifecycle's to compare; a probe batch the
 * task outran on the other side is coverage (a note); anything else is a difference.
 */
function compareOneSided(
  seenOn: {
    cell: string;
    situation: string;
    x: LearnedAnswer | undefined;
    y: LearnedAnswer | undefined;
  },
  shownA: Set<string>,
  shownB: Set<string>,
  out: { differences: Difference[]; notes: string[] },
): void {
  const { cell, situation, x, y } = seenOn;
  const seen = (x ?? y)!;
  const state = parseCellKey(cell)?.state ?? 'n/a';
  // A task state is the lifecycle's to compare (below); a probe batch the task outran is coverage.
  if (state !== 'n/a' && state !== 'missing') {
    if (shownA.has(state) && shownB.has(state))
      out.notes.push(
        `${cell} ${situation}: observed on ${x === undefined ? 'B' : 'A'} only ` +
          '(the task outran its probes on the other side)',
      );
    return;
  }
  out.differences.push({
    aspect: 'observed',
    cell,
    situation,
    where: '',
    a: x === undefined ? 'not observed' : `HTTP ${x.status}`,
    b: y === undefined ? 'not observed' : `HTTP ${y.status}`,
    steps: seen.steps,
  });
}

const NO_WORDS: ReadonlySet<string> = new Set();

/** The words a profile's answers use, by route and body path. */
function routeWords(profile: LearnedProfile): Map<string, Map<string, Set<string>>> {
  const byRoute = new Map<string, Map<string, Set<string>>>();
  for (const [cell, situations] of Object.entries(profile.answers)) {
    const route = cell.split(' ')[0]!;
    const words = byRoute.get(route) ?? new Map<string, Set<string>>();
    byRoute.set(route, words);
    for (const answer of Object.values(situations))
      if (answer !== undefined && !('binary' in answer.body) && !('none' in answer.body))
        wordsByPath(answer.body, words);
  }
  return byRoute;
}

/** The task states the owner's polls showed (the lifecycle's readings). */
function statesShown(profile: LearnedProfile): Set<string> {
  return new Set([
    ...Object.keys(profile.lifecycle.progress),
    ...Object.keys(profile.lifecycle.wrapperStatuses),
  ]);
}

/**
 * A state one side's polls never showed: a difference of timing when the phase's durations differ by
 * class (compareLifecycle reports it), otherwise chance (a phase short enough to fall between polls).
 */
function statesNotes(
  shownA: ReadonlySet<string>,
  shownB: ReadonlySet<string>,
  a: LearnedProfile,
  b: LearnedProfile,
): string[] {
  if (a.lifecycle.tasks === 0 || b.lifecycle.tasks === 0) return [];
  return [...new Set([...shownA, ...shownB])]
    .filter((s) => shownA.has(s) !== shownB.has(s))
    .map(
      (s) =>
        `no poll on ${shownA.has(s) ? 'B' : 'A'} showed ${s} (its probes are compared only where both showed it)`,
    );
}

/** The catalog first, then the routes in the spec's order; no task, a missing one, then the states. */
const ROUTE_ORDER: readonly string[] = [
  ...operationsWith({ kind: 'catalog' }),
  ...operationsWith({ kind: ['submit', 'query', 'content'] }),
];
const STATE_ORDER: readonly string[] = ['n/a', 'missing', ...LIFECYCLE.states];

function byCellOrder(x: string, y: string): number {
  const a = parseCellKey(x);
  const b = parseCellKey(y);
  if (a === undefined || b === undefined) return x.localeCompare(y);
  return (
    ROUTE_ORDER.indexOf(a.route) - ROUTE_ORDER.indexOf(b.route) ||
    STATE_ORDER.indexOf(a.state) - STATE_ORDER.indexOf(b.state) ||
    x.localeCompare(y)
  );
}

function compareAnswers(
  cell: string,
  situation: string,
  x: LearnedAnswer,
  y: LearnedAnswer,
  context: ShapeContext,
): Difference[] {
  const steps = [...new Set([...x.steps, ...y.steps])];
  const diff = (aspect: Aspect, where: string, a: string, b: string): Difference => ({
    aspect,
    cell,
    situation,
    where,
    a,
    b,
    steps,
  });
  const found: Difference[] = [];
  if (x.status !== y.status) found.push(diff('status', '', `HTTP ${x.status}`, `HTTP ${y.status}`));
  if (mediaType(x.contentType) !== mediaType(y.contentType))
    found.push(diff('content-type', '', x.contentType || 'none', y.contentType || 'none'));
  if (Boolean(x.redirected) !== Boolean(y.redirected))
    found.push(
      diff(
        'content',
        'delivery',
        x.redirected ? 'redirect' : 'direct',
        y.redirected ? 'redirect' : 'direct',
      ),
    );
  found.push(...compareBodies(x, y, context).map((d) => diff('body', d.path, d.a, d.b)));
  found.push(...compareHeaders(x.headers, y.headers).map((d) => diff('headers', d.path, d.a, d.b)));
  // The fastest of a few answers: one slow answer on a busy machine says nothing of a deployment.
  const fastest = (r: readonly [number, number]) => responseClass(r[0]);
  const sampled = x.seen >= RESPONSE_SAMPLES && y.seen >= RESPONSE_SAMPLES;
  if (sampled && fastest(x.ms) !== fastest(y.ms))
    found.push(diff('timing', 'response time', describeRange(x.ms), describeRange(y.ms)));
  return found;
}

function compareBodies(x: LearnedAnswer, y: LearnedAnswer, context: ShapeContext) {
  const kind = (a: LearnedAnswer) =>
    'binary' in a.body ? 'bytes' : 'none' in a.body ? 'no body' : 'JSON';
  if (kind(x) !== kind(y)) return [{ path: '(body)', a: kind(x), b: kind(y) }];
  if (kind(x) !== 'JSON') return [];
  return compareShapes(x.body as ShapeNode, y.body as ShapeNode, context);
}

/** Header names on one side only; a constant's value (`Cache-Control`) that reads otherwise. */
function compareHeaders(
  a: LearnedAnswer['headers'],
  b: LearnedAnswer['headers'],
): { path: string; a: string; b: string }[] {
  const found: { path: string; a: string; b: string }[] = [];
  for (const name of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    const x = a[name];
    const y = b[name];
    if (x === undefined || y === undefined) {
      found.push({
        path: name,
        a: x === undefined ? 'absent' : 'sent',
        b: y === undefined ? 'absent' : 'sent',
      });
      continue;
    }
    if ('const' in x && 'const' in y && x.const !== y.const && typeof x.const === 'string')
      found.push({ path: name, a: JSON.stringify(x.const), b: JSON.stringify(y.const) });
  }
  return found;
}

function compareLifecycle(
  a: LearnedProfile,
  b: LearnedProfile,
): { differences: Difference[]; notes: string[] } {
  const found: Difference[] = [];
  if (a.lifecycle.tasks === 0 || b.lifecycle.tasks === 0) return { differences: found, notes: [] };
  const phases = comparePhases(a.lifecycle, b.lifecycle);
  const progress = compareProgressByState(a.lifecycle, b.lifecycle);
  found.push(...phases.differences, ...progress.differences);
  for (const state of new Set([
    ...Object.keys(a.lifecycle.wrapperStatuses),
    ...Object.keys(b.lifecycle.wrapperStatuses),
  ]) as Set<keyof LearnedProfile['lifecycle']['wrapperStatuses']>) {
    const x = a.lifecycle.wrapperStatuses[state];
    const y = b.lifecycle.wrapperStatuses[state];
    if (x !== undefined && y !== undefined && x !== y)
      found.push(lifecycleDifference({ of: 'wrapper', state }, { a: x, b: y }));
  }
  return { differences: found, notes: [...phases.notes, ...progress.notes] };
}

/**
 * Each phase's durations, by class, where both sides showed it (decisions/038): a phase no look showed
 * has the gap it fit in for a range, no reading of how long it lasts — a note, not a difference.
 */
function comparePhases(
  a: LearnedLifecycle,
  b: LearnedLifecycle,
): { differences: Difference[]; notes: string[] } {
  const differences: Difference[] = [];
  const notes: string[] = [];
  for (const phase of PHASE_NAMES) {
    const x = a.phases[phase];
    const y = b.phases[phase];
    const shown = [phaseShown(a, phase), phaseShown(b, phase)] as const;
    if (!shown[0] && !shown[1]) continue;
    if (!shown[0] || !shown[1]) {
      notes.push(
        `${phase} phase: no look on ${shown[0] ? 'B' : 'A'} showed it (a task went past it between ` +
          'two polls): its duration is not compared',
      );
      continue;
    }
    if (timingDiffers(x, y))
      differences.push(
        lifecycleDifference(
          { of: 'phase', phase },
          { a: describeRange(x), b: describeRange(y) },
          'timing',
        ),
      );
  }
  return { differences, notes };
}

/** Progress per state both sides showed; a comparison one look cannot settle is a note. */
function compareProgressByState(
  a: LearnedLifecycle,
  b: LearnedLifecycle,
): { differences: Difference[]; notes: string[] } {
  const differences: Difference[] = [];
  const notes: string[] = [];
  const states = new Set([...Object.keys(a.progress), ...Object.keys(b.progress)]) as Set<
    keyof LearnedLifecycle['progress']
  >;
  for (const state of states) {
    const x = a.progress[state];
    const y = b.progress[state];
    // Where a task ended says little of the next one (a failed render stops anywhere).
    if ((LIFECYCLE.terminal as readonly string[]).includes(state)) continue;
    if (x === undefined || y === undefined) continue;
    const reading = { of: 'progress', state } as const;
    const verdict = compareProgress(x, y);
    if (verdict === 'differs')
      differences.push(
        lifecycleDifference(reading, { a: describeProgress(x), b: describeProgress(y) }),
      );
    if (verdict === 'too few looks')
      notes.push(
        `${lifecycleWhere(reading)}: A ${describeProgress(x)} · B ${describeProgress(y)} ` +
          '(one look does not show whether progress stays: not compared)',
      );
  }
  return { differences, notes };
}

/** `fixed 50`, `moving`; a fixed value seen in one look says so: `fixed 41 (1 look)`. */
const describeProgress = (p: ProgressReading) =>
  'curve' in p ? 'moving' : `fixed ${p.steps[0]}${oneLook(p) ? ' (1 look)' : ''}`;

type FixedReading = Extract<ProgressReading, { steps: readonly number[] }>;
type MovingReading = Extract<ProgressReading, { curve: readonly [number, number] }>;

/**
 * A fixed value the run saw in one look only (decisions/035): what one poll showed, no evidence that
 * progress stays there (§2.2 says only 0 to 100; a loaded machine or a short phase polls a moving
 * progress once). A reading of an older profile, without a count, is taken as it reads.
 */
const oneLook = (p: FixedReading) => p.looks === 1;

/**
 * Whether two runs' progress in a state differs: fixed steps that differ, or a fixed step against a
 * progress that moves — unless it barely moved around that step (a look that caught the task as it
 * left the state: 0 then 5). A value seen in one look is weighed as one reading of a progress that
 * may move: against a moving one it differs only outside the values that one showed, against another
 * single look never (`too few looks`: a note), against a fixed value seen in many looks when it is
 * another value (a fixed progress shows one value).
 */
function compareProgress(
  x: ProgressReading,
  y: ProgressReading,
): 'same' | 'differs' | 'too few looks' {
  if ('curve' in x && 'curve' in y) return 'same';
  if ('steps' in x && 'steps' in y) {
    if (x.steps[0] === y.steps[0]) return 'same';
    return oneLook(x) && oneLook(y) ? 'too few looks' : 'differs';
  }
  const [fixed, moving] = ('steps' in x ? [x, y] : [y, x]) as [FixedReading, MovingReading];
  const [low, high] = moving.curve;
  if (fixed.steps.some((v) => v < low || v > high)) return 'differs';
  if (high - low <= BARELY_MOVED) return 'same';
  return oneLook(fixed) ? 'too few looks' : 'differs';
}

/** Points of progress within which a moving reading may still be one step caught mid-change. */
const BARELY_MOVED = 10;

function compareContent(a: LearnedProfile, b: LearnedProfile): Difference[] {
  const x = a.content;
  const y = b.content;
  if (x === null || y === null) return [];
  const found: Difference[] = [];
  const diff = (where: string, p: string, q: string): Difference => ({
    aspect: 'content',
    cell: 'getVideoContent completed owner',
    situation: 'ok',
    where,
    a: p,
    b: q,
    steps: ['content, hashed'],
  });
  // How it is delivered (stream or redirect) is each download's own difference (compareAnswers).
  if (mediaType(x.contentType) !== mediaType(y.contentType))
    found.push(diff('content type', x.contentType, y.contentType));
  const flag = (v: boolean | null) => (v === null ? 'not asked' : v ? 'yes' : 'no');
  if (x.range !== null && y.range !== null && x.range !== y.range)
    found.push(diff('Range honoured', flag(x.range), flag(y.range)));
  if (x.head !== null && y.head !== null && x.head !== y.head)
    found.push(diff('HEAD answered', flag(x.head), flag(y.head)));
  return found;
}

function compareIds(a: LearnedProfile, b: LearnedProfile): Difference[] {
  const found: Difference[] = [];
  const diff = (where: string, x: string, y: string): Difference => ({
    aspect: 'identifiers',
    cell: 'identifiers',
    situation: '',
    where,
    a: x,
    b: y,
    steps: [],
  });
  const outline = (form: string) =>
    parseForm(form)
      .map((p) => ('literal' in p ? p.literal : `{${p.min}}`))
      .join('');
  if (
    a.lifecycle.tasks > 0 &&
    b.lifecycle.tasks > 0 &&
    outline(a.taskId.form) !== outline(b.taskId.form)
  )
    found.push(diff('task ID form', a.taskId.form, b.taskId.form));
  const header = (p: LearnedProfile) => p.requestId?.header ?? 'none';
  if (header(a) !== header(b)) found.push(diff('request ID header', header(a), header(b)));
  else if (
    a.requestId !== null &&
    b.requestId !== null &&
    outline(a.requestId.form) !== outline(b.requestId.form)
  )
    found.push(diff('request ID form', a.requestId.form, b.requestId.form));
  return found;
}
