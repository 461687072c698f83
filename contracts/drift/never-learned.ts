import {
  parseCellKey,
  phaseShown,
  type LearnedLifecycle,
  type LearnedProfile,
  type Situation,
} from '../../src/profile/index.ts';
import type { Difference } from './difference.ts';

/**
 * What a difference's B side rests on that the profile B replays never learned (decisions/038), and
 * what the replay answered in its place; undefined when the profile learned it. An answer of a cell
 * and situation: the closest one the profile learned (another state's, caller's or submit path's; a
 * state no look showed reads like the states it saw, merged) or, with none, the core's. The wrapper's
 * word or the progress for a state: the document's. How long a phase lasts (no look showed it): drawn
 * from the gap it fit in. Either way, what B shows there is not a reading of the deployment.
 */
export function neverLearned(d: Difference, profile: LearnedProfile): NeverLearned | undefined {
  if (d.cell === 'lifecycle') return neverLearnedOfLifecycle(d, profile.lifecycle);
  // A cell observed on one side only is the sequence's difference, not a reading's.
  if (d.aspect === 'observed' || d.aspect === 'verdict' || parseCellKey(d.cell) === undefined)
    return undefined;
  return profile.answers[d.cell]?.[d.situation as Situation] === undefined
    ? {
        missing: `the answer of ${d.cell} ${d.situation}`,
        instead: 'B answered with the closest answer it learned, or the documented one',
      }
    : undefined;
}

/** A reading the replayed profile lacks, and what the replay answered in its place. */
export interface NeverLearned {
  readonly missing: string;
  readonly instead: string;
}

const DOCUMENTED = 'B answered as documented';

/** The lifecycle reading a difference rests on, when the profile has none. */
function neverLearnedOfLifecycle(
  d: Difference,
  lifecycle: LearnedLifecycle,
): NeverLearned | undefined {
  const reading = d.reading;
  if (reading === undefined) return undefined;
  if (reading.of === 'phase')
    return phaseShown(lifecycle, reading.phase)
      ? undefined
      : {
          missing: `how long ${reading.phase} lasts (no look showed it)`,
          instead: 'B drew it from the gap it fit in',
        };
  if (reading.of === 'progress')
    return lifecycle.progress[reading.state] === undefined
      ? { missing: `the progress while ${reading.state}`, instead: DOCUMENTED }
      : undefined;
  return lifecycle.wrapperStatuses[reading.state] === undefined
    ? { missing: `the wrapper's word while ${reading.state}`, instead: DOCUMENTED }
    : undefined;
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
    const never = neverLearned(d, replayed);
    if (never === undefined) {
      standing.push(d);
      continue;
    }
    const at = [d.cell, d.situation, d.where].filter((part) => part !== '').join(' ');
    notes.push(
      `${at}: A ${d.a} · B ${d.b} — not compared: the profile never learned ${never.missing} ` +
        `(${never.instead}); refine it with another \`videotask learn --out FILE\` run`,
    );
  }
  return { differences: standing, notes };
}
