import {
  boundShape,
  mergeForms,
  mergeNodes,
  PHASE_NAMES,
  phaseShown,
  type BodyNode,
  type FailureReading,
  type LearnedAnswer,
  type LearnedContent,
  type LearnedLifecycle,
  type LearnedProfile,
  type ProgressReading,
  type ShapeNode,
} from '../../src/profile/index.ts';
import { widen } from './lifecycle-readings.ts';

/**
 * A profile refined by another run against the same deployment (`--learn` to an existing file): every
 * range widens to cover both (timing, sizes, response times), shapes merge (a field seen by one run only
 * becomes optional), readings add up. The newer run's date, its host's name and forms win where they
 * cannot merge.
 */
export function mergeProfiles(older: LearnedProfile, newer: LearnedProfile): LearnedProfile {
  const answers: Record<string, Partial<Record<string, LearnedAnswer>>> = {};
  for (const cell of new Set([...Object.keys(older.answers), ...Object.keys(newer.answers)])) {
    const a = older.answers[cell] ?? {};
    const b = newer.answers[cell] ?? {};
    const merged: Partial<Record<string, LearnedAnswer>> = {};
    for (const situation of new Set([...Object.keys(a), ...Object.keys(b)]).values()) {
      const x = a[situation as keyof typeof a];
      const y = b[situation as keyof typeof b];
      merged[situation] = x === undefined ? y : y === undefined ? x : mergeAnswers(x, y);
    }
    answers[cell] = merged;
  }
  return {
    ...(older.$schema === undefined ? {} : { $schema: older.$schema }),
    version: newer.version,
    name: older.name,
    learnedAt: newer.learnedAt,
    target: { ...newer.target, runs: older.target.runs + newer.target.runs },
    taskId: { form: mergeForms(older.taskId.form, newer.taskId.form) },
    requestId:
      older.requestId !== null &&
      newer.requestId !== null &&
      older.requestId.header === newer.requestId.header
        ? {
            header: newer.requestId.header,
            form: mergeForms(older.requestId.form, newer.requestId.form),
          }
        : (newer.requestId ?? older.requestId),
    submissions: { multipart: newer.submissions.multipart ?? older.submissions.multipart },
    errors: newer.errors.messageSuffix === undefined ? older.errors : newer.errors,
    models: [...new Set([...older.models, ...newer.models])],
    lifecycle: mergeLifecycles(older.lifecycle, newer.lifecycle),
    content: mergeContent(older.content, newer.content),
    answers,
  };
}

function mergeAnswers(a: LearnedAnswer, b: LearnedAnswer): LearnedAnswer {
  const statuses = new Set([a.status, b.status, ...(a.statuses ?? []), ...(b.statuses ?? [])]);
  const headers: Record<string, ShapeNode> = { ...a.headers };
  for (const [name, node] of Object.entries(b.headers))
    if (headers[name] !== undefined) headers[name] = mergeNodes(headers[name], node);
    else if (Object.keys(headers).length < 64) headers[name] = node; // the profile's bound
  const redirected = a.redirected === true || b.redirected === true;
  return {
    status: a.seen >= b.seen ? a.status : b.status,
    ...(statuses.size > 1 ? { statuses: [...statuses].sort().slice(0, 16) } : {}),
    contentType: a.seen >= b.seen ? a.contentType : b.contentType,
    headers,
    body: mergeBodies(a.body, b.body),
    ...(redirected ? { redirected } : {}),
    ms: widen(a.ms, b.ms)!,
    seen: a.seen + b.seen,
    steps: [...new Set([...a.steps, ...b.steps])].slice(0, 8),
  };
}

function mergeBodies(a: BodyNode, b: BodyNode): BodyNode {
  if ('binary' in a && 'binary' in b) return { binary: widen(a.binary, b.binary)! };
  if ('none' in a || 'binary' in a || 'none' in b || 'binary' in b) return b;
  // Within the profile's bounds, as each run's shape is (issue 33 item 8).
  return boundShape(mergeNodes(a, b));
}

function mergeLifecycles(a: LearnedLifecycle, b: LearnedLifecycle): LearnedLifecycle {
  if (a.tasks === 0) return b;
  if (b.tasks === 0) return a;
  const progress: Record<string, ProgressReading> = { ...a.progress };
  for (const [state, reading] of Object.entries(b.progress)) {
    const seen = progress[state];
    progress[state] = seen === undefined ? reading : mergeProgress(seen, reading);
  }
  const failures = new Map<string, FailureReading>();
  for (const f of [...a.failures, ...b.failures]) failures.set(JSON.stringify(f), f);
  return {
    tasks: a.tasks + b.tasks,
    phases: {
      unknown: widen(a.phases.unknown, b.phases.unknown)!,
      queued: widen(a.phases.queued, b.phases.queued)!,
      running: widen(a.phases.running, b.phases.running)!,
    },
    // A phase either run showed is shown (an older profile's is told as phaseShown reads it).
    unshownPhases: PHASE_NAMES.filter((phase) => !phaseShown(a, phase) && !phaseShown(b, phase)),
    progress,
    wrapperStatuses: { ...a.wrapperStatuses, ...b.wrapperStatuses },
    failures: [...failures.values()].slice(0, 16),
  };
}

/**
 * Steps stay steps while there are two at most, and, where both runs counted their looks, while the
 * looks give each step two on average (the learner's own rule: one look at 41 and one at 63 moved);
 * anything else moves. The looks add up; a reading of an older profile (no count) leaves the sum
 * unknown (decisions/035).
 */
function mergeProgress(a: ProgressReading, b: ProgressReading): ProgressReading {
  const looks = a.looks === undefined || b.looks === undefined ? undefined : a.looks + b.looks;
  const counted = looks === undefined ? {} : { looks };
  if ('steps' in a && 'steps' in b) {
    const steps = [...new Set([...a.steps, ...b.steps])];
    const enough = looks === undefined || looks >= 2 * steps.length;
    if (steps.length <= 2 && enough) return { steps, ...counted };
  }
  const range = (p: ProgressReading): readonly [number, number] =>
    'curve' in p ? p.curve : [Math.min(...p.steps), Math.max(...p.steps)];
  return { curve: widen(range(a), range(b))!, ...counted };
}

function mergeContent(a: LearnedContent | null, b: LearnedContent | null): LearnedContent | null {
  if (a === null || b === null) return b ?? a;
  return {
    delivery: b.delivery,
    contentType: b.contentType,
    bytes: widen(a.bytes, b.bytes)!,
    range: b.range ?? a.range,
    head: b.head ?? a.head,
  };
}
