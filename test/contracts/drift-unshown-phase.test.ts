import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../contracts/http-recorder.ts';
import { compareProfiles } from '../../contracts/drift/index.ts';
import { mergeProfiles } from '../../contracts/learn/index.ts';
import { lifecycleOf } from '../../contracts/learn/lifecycle-readings.ts';
import type { TaskTimeline } from '../../contracts/learn/run-observer.ts';
import { serviceContract } from '../../src/spec/index.ts';
import { describeProfile } from '../../cli/profile-file.ts';
import { learnedPhase } from '../../mocks/core/profile/learned-replay.ts';
import {
  phaseShown,
  readProfile,
  type LearnedLifecycle,
  type LearnedProfile,
  type TaskStatus,
} from '../../src/profile/index.ts';

/**
 * A `drift` false alarm QA found (1 in 25 pairs of learn runs of one mock at --speed 10): a run whose
 * task went from queued to completed between two polls never showed in_progress; the learner recorded
 * the gap the phase fit in, `[0, 993]`, and drift read it as a duration "under 1 s" against the other
 * run's `1001–2419 ms` (`timing running phase`). A phase no look showed is now no reading
 * (`unshownPhases`, decisions/038): compared only where both sides showed it, else a note; a class
 * difference needs the ranges far apart (the higher's shortest twice the lower's longest), not one
 * poll interval; and the replay draws a phase the deployment was never seen in from its gap, not 0.
 */

const OBSERVED = readProfile(
  JSON.parse(readFileSync(new URL('../../mocks/profiles/observed.json', import.meta.url), 'utf8')),
);

const FACTS = { taskIds: new Set<string>(), models: new Set<string>(), prompts: [] };

/** One task's timeline as the learner records it: looks at these times (ms after submission). */
function task(looks: readonly (readonly [number, TaskStatus])[]): TaskTimeline {
  return {
    taskId: 'task_1',
    submittedAt: 0,
    native: false,
    looks: looks.map(([at, status]) => ({
      at,
      status,
      exchange: { json: { id: 'task_1', status } } as unknown as Exchange,
    })),
  };
}

/** A learn run's profile whose tasks showed these looks (the rest as the observed profile). */
function learned(...tasks: TaskTimeline[]): LearnedProfile {
  return readProfile({
    ...OBSERVED,
    lifecycle: { ...lifecycleOf(tasks, FACTS, serviceContract().lifecycle), failures: [] },
  });
}

/** A profile with these phases (as a saved file may hold them, `unshownPhases` or not). */
function withLifecycle(lifecycle: Partial<LearnedLifecycle>): LearnedProfile {
  return readProfile({ ...OBSERVED, lifecycle: { ...OBSERVED.lifecycle, ...lifecycle } });
}

/** A profile whose every phase was shown, running for this range. */
const running = (range: readonly [number, number]) =>
  withLifecycle({ unshownPhases: [], phases: { ...OBSERVED.lifecycle.phases, running: range } });

const timing = (a: LearnedProfile, b: LearnedProfile) =>
  compareProfiles(a, b).differences.filter((d) => d.aspect === 'timing');

// The same deployment (about 1 s in_progress), polled every ~0.5–1 s: one run saw in_progress three
// times, the other went from queued straight to completed.
const SHOWN = task([
  [500, 'queued'],
  [1_000, 'in_progress'],
  [1_500, 'in_progress'],
  [2_001, 'in_progress'],
  [2_419, 'completed'],
]);
const JUMPED = task([
  [500, 'queued'],
  [1_007, 'queued'],
  [2_000, 'completed'],
]);

describe('drift on a phase one side never showed', () => {
  it('the learner records which phases no look showed', () => {
    expect(learned(SHOWN).lifecycle.unshownPhases).toEqual(['unknown']);
    const jumped = learned(JUMPED).lifecycle;
    expect(jumped.unshownPhases).toEqual(['unknown', 'running']);
    expect(jumped.phases.running).toEqual([0, 993]);
    // Two runs refined into one: a phase either showed is shown.
    const merged = mergeProfiles(learned(JUMPED), learned(SHOWN));
    expect(merged.lifecycle.unshownPhases).toEqual(['unknown']);
  });

  it('describes it as not shown, with the gap it fit in, where `learn` and `drift` say what a profile holds', () => {
    const line = describeProfile(learned(JUMPED));
    expect(line).toContain('running not shown (at most 1.0 s)');
    expect(line).toContain('queued 0.5–2.0 s');
    expect(line).toContain('unknown not shown,');
  });

  it('compares no duration for it, and says why', () => {
    const a = learned(SHOWN);
    const b = learned(JUMPED);
    expect(timing(a, b)).toEqual([]);
    expect(timing(b, a)).toEqual([]);
    expect(compareProfiles(a, b).notes).toContain(
      'running phase: no look on B showed it (a task went past it between two polls): ' +
        'its duration is not compared',
    );
  });

  it('reads a profile saved before unshownPhases by what it read of the state', () => {
    const { unshownPhases: _, ...old } = learned(JUMPED).lifecycle;
    const oldProfile = withLifecycle({ ...old });
    expect(phaseShown(oldProfile.lifecycle, 'queued')).toBe(true);
    // No progress, no wrapper word, a range from 0: a gap, not a reading.
    expect(phaseShown(oldProfile.lifecycle, 'running')).toBe(false);
    expect(timing(learned(SHOWN), oldProfile)).toEqual([]);
  });

  it('needs the ranges far apart, not one poll interval across a class boundary', () => {
    expect(timing(running([1_001, 2_419]), running([0, 993]))).toEqual([]);
  });

  it('still finds a phase that lasts otherwise by class and far apart', () => {
    expect(timing(running([0, 500]), running([20_000, 40_000]))).toMatchObject([
      { where: 'running phase', a: '0–500 ms', b: '20000–40000 ms' },
    ]);
  });

  it('the replay draws a phase the deployment was never seen in from its gap, not 0', () => {
    expect(learnedPhase(learned(JUMPED), 'in_progress')).toEqual([0, 993]);
    expect(learnedPhase(learned(JUMPED), 'unknown')).toEqual([0, 0]);
  });
});
