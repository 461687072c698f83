import {
  parseCellKey,
  phaseShown,
  type LearnedLifecycle,
  type LearnedProfile,
  type PhaseName,
  type Situation,
  type TaskStatus,
} from '../../src/profile/index.ts';
import type { Difference } from './compare-profiles.ts';

/**
 * What a lifecycle difference is about, as its `where` names it: one place writes and reads these, so
 * a difference can be traced to the reading it rests on.
 */
export const lifecycleWhere = {
  phase: (phase: PhaseName) => `${phase} phase`,
  progress: (state: TaskStatus) => `progress while ${state}`,
  wrapper: (state: TaskStatus) => `wrapper status while ${state}`,
};

const PHASE = /^(unknown|queued|running) phase$/;
const PROGRESS = /^progress while (\w+)$/;
const WRAPPER = /^wrapper status while (\w+)$/;

/**
 * What a difference's B side rests on that the profile B replays never learned (decisions/038), or
 * undefined when it learned it: the answer of the cell and situation; the wrapper's word or the
 * progress for a state; how long a phase lasts (no look showed it). Where the profile has no reading,
 * the replay answers as documented (the core's answer, its wrapper words, a phase drawn from the gap
 * it fit in): what B shows there is the document, not the deployment the profile describes.
 */
export function neverLearned(d: Difference, profile: LearnedProfile): string | undefined {
  if (d.cell === 'lifecycle') return neverLearnedOfLifecycle(d.where, profile.lifecycle);
  // A cell observed on one side only is the sequence's difference, not a reading's.
  if (d.aspect === 'observed' || d.aspect === 'verdict' || parseCellKey(d.cell) === undefined)
    return undefined;
  return profile.answers[d.cell]?.[d.situation as Situation] === undefined
    ? `the answer of ${d.cell} ${d.situation}`
    : undefined;
}

/** The lifecycle reading a difference's `where` names, when the profile has none. */
function neverLearnedOfLifecycle(where: string, lifecycle: LearnedLifecycle): string | undefined {
  const phase = PHASE.exec(where)?.[1] as PhaseName | undefined;
  if (phase !== undefined)
    return phaseShown(lifecycle, phase) ? undefined : `how long ${phase} lasts (no look showed it)`;
  const progress = PROGRESS.exec(where)?.[1] as TaskStatus | undefined;
  if (progress !== undefined)
    return lifecycle.progress[progress] === undefined
      ? `the progress while ${progress}`
      : undefined;
  const word = WRAPPER.exec(where)?.[1] as TaskStatus | undefined;
  if (word !== undefined)
    return lifecycle.wrapperStatuses[word] === undefined
      ? `the wrapper's word while ${word}`
      : undefined;
  return undefined;
}

/**
 * The differences that stand, and a note for each whose B side the replayed profile never learned: a
 * deployment that conforms in its own way is no alarm where its profile has no reading to hold it to.
 */
export function setApartNeverLearned(
  differences: readonly Difference[],
  replayed: LearnedProfile,
): { differences: Difference[]; notes: string[] } {
  const standing: Difference[] = [];
  const notes: string[] = [];
  for (const d of differences) {
    const missing = neverLearned(d, replayed);
    if (missing === undefined) {
      standing.push(d);
      continue;
    }
    const at = [d.cell, d.situation, d.where].filter((part) => part !== '').join(' ');
    notes.push(
      `${at}: A ${d.a} · B ${d.b} — not compared: the profile never learned ${missing} ` +
        '(B answered as documented); refine it with another `videotask learn --out FILE` run',
    );
  }
  return { differences: standing, notes };
}
