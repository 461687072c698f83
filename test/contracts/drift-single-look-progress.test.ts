import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../contracts/http-recorder.ts';
import { compareProfiles } from '../../contracts/drift/index.ts';
import { mergeProfiles } from '../../contracts/learn/index.ts';
import { lifecycleOf } from '../../contracts/learn/lifecycle-readings.ts';
import type { TaskTimeline } from '../../contracts/learn/run-observer.ts';
import { serviceContract } from '../../src/spec/index.ts';
import {
  readProfile,
  type LearnedLifecycle,
  type LearnedProfile,
  type ProgressReading,
  type TaskStatus,
} from '../../src/profile/index.ts';

/**
 * A `drift` false alarm reported by users: the learner recorded a state's progress as fixed when a run
 * saw it in one look (`steps: [v]`), so a learn run that polled a moving `in_progress` once (a loaded
 * machine, a fast mock) read "fixed 41", the next run of the same deployment read "moving", and drift
 * reported `progress while in_progress: A fixed 41 · B moving`. §2.2 says only that progress is an
 * integer 0 to 100; whether it moves is learned, and one look cannot tell. A reading now counts its
 * looks (decisions/035); drift weighs a single look as one reading of a progress that may move, while a
 * fixed value seen in many looks (the gateway's 50) still differs from a moving one.
 */

const OBSERVED = readProfile(
  JSON.parse(readFileSync(new URL('../../mocks/profiles/observed.json', import.meta.url), 'utf8')),
);

const FACTS = { taskIds: new Set<string>(), models: new Set<string>(), prompts: [] };

/** One task's timeline as the learner records it: a poll every second, each showing a progress. */
function task(looks: readonly (readonly [TaskStatus, number])[]): TaskTimeline {
  return {
    taskId: 'task_1',
    submittedAt: 0,
    native: false,
    looks: looks.map(([status, progress], i) => ({
      at: (i + 1) * 1_000,
      status,
      exchange: { json: { id: 'task_1', status, progress } } as unknown as Exchange,
    })),
  };
}

/** A learn run's profile whose tasks showed these looks (the rest as the observed profile). */
function learned(...tasks: TaskTimeline[]): LearnedProfile {
  const lifecycle = lifecycleOf(tasks, FACTS, serviceContract().lifecycle);
  return readProfile({ ...OBSERVED, lifecycle: { ...lifecycle, failures: [] } });
}

/** A profile whose lifecycle shows these progress readings (as a saved file may hold them). */
function withProgress(progress: LearnedLifecycle['progress']): LearnedProfile {
  return readProfile({ ...OBSERVED, lifecycle: { ...OBSERVED.lifecycle, progress } });
}

const progressDifference = (a: LearnedProfile, b: LearnedProfile) =>
  compareProfiles(a, b).differences.find((d) => d.where === 'progress while in_progress');

// The same deployment, moving while in_progress: a loaded run polls in_progress once, a quiet one four times.
const LOADED = task([
  ['queued', 0],
  ['in_progress', 41],
  ['completed', 100],
]);
const QUIET = task([
  ['queued', 0],
  ['in_progress', 20],
  ['in_progress', 41],
  ['in_progress', 63],
  ['in_progress', 85],
  ['completed', 100],
]);

describe('drift on progress seen in a single look', () => {
  it('the learner counts the looks a reading rests on', () => {
    expect(learned(LOADED).lifecycle.progress.in_progress).toEqual({ steps: [41], looks: 1 });
    expect(learned(QUIET).lifecycle.progress.in_progress).toEqual({ curve: [20, 85], looks: 4 });
    const fixed = task([
      ['in_progress', 50],
      ['in_progress', 50],
      ['in_progress', 50],
    ]);
    expect(learned(fixed).lifecycle.progress.in_progress).toEqual({ steps: [50], looks: 3 });
  });

  it('finds no difference between two runs of one moving deployment, one of which looked once', () => {
    const a = learned(LOADED);
    const b = learned(QUIET);
    expect(progressDifference(a, b)).toBeUndefined();
    expect(progressDifference(b, a)).toBeUndefined();
    // The user sees why it was not compared.
    expect(compareProfiles(a, b).notes).toContain(
      'progress while in_progress: A fixed 41 (1 look) · B moving ' +
        '(one look does not show whether progress stays: not compared)',
    );
  });

  it('still finds a progress fixed over many looks against one that moves (the gateway’s 50)', () => {
    const fixed = learned(
      task([
        ['in_progress', 50],
        ['in_progress', 50],
      ]),
      task([
        ['in_progress', 50],
        ['in_progress', 50],
      ]),
    );
    expect(progressDifference(learned(QUIET), fixed)).toMatchObject({ a: 'moving', b: 'fixed 50' });
  });

  it('finds a single look outside the values the moving side showed', () => {
    const late = learned(task([['in_progress', 97]]));
    expect(progressDifference(late, learned(QUIET))).toMatchObject({
      a: 'fixed 97 (1 look)',
      b: 'moving',
    });
  });

  it('finds a single look at another value than a progress fixed over many looks', () => {
    const fixed = learned(
      task([
        ['in_progress', 50],
        ['in_progress', 50],
        ['in_progress', 50],
      ]),
    );
    expect(progressDifference(learned(LOADED), fixed)).toMatchObject({
      a: 'fixed 41 (1 look)',
      b: 'fixed 50',
    });
    const same = learned(task([['in_progress', 50]]));
    expect(progressDifference(same, fixed)).toBeUndefined();
  });

  it('compares two single looks at other values not at all, and says so', () => {
    const a = learned(LOADED);
    const b = learned(task([['in_progress', 63]]));
    expect(progressDifference(a, b)).toBeUndefined();
    expect(compareProfiles(a, b).notes.some((n) => n.includes('B fixed 63 (1 look)'))).toBe(true);
  });

  it('reads a profile saved before looks were counted as it did: fixed against moving differs', () => {
    const old = withProgress({ in_progress: { steps: [41] } });
    const moving = withProgress({ in_progress: { curve: [20, 85] } });
    expect(progressDifference(old, moving)).toMatchObject({ a: 'fixed 41', b: 'moving' });
  });

  it('merges runs by adding their looks; two single looks at other values moved', () => {
    const merged = (x: ProgressReading, y: ProgressReading) =>
      mergeProfiles(withProgress({ in_progress: x }), withProgress({ in_progress: y })).lifecycle
        .progress.in_progress;
    expect(merged({ steps: [41], looks: 1 }, { steps: [63], looks: 1 })).toEqual({
      curve: [41, 63],
      looks: 2,
    });
    expect(merged({ steps: [50], looks: 4 }, { steps: [50], looks: 3 })).toEqual({
      steps: [50],
      looks: 7,
    });
    expect(merged({ steps: [41], looks: 1 }, { curve: [20, 85], looks: 4 })).toEqual({
      curve: [20, 85],
      looks: 5,
    });
    // An older profile's reading has no count: the sum is unknown.
    expect(merged({ steps: [50] }, { steps: [50], looks: 3 })).toEqual({ steps: [50] });
  });

  it('refuses a look count that is not a positive integer', () => {
    expect(() => withProgress({ in_progress: { steps: [50], looks: 0 } })).toThrow(
      /\/lifecycle\/progress\/in_progress/,
    );
  });
});
