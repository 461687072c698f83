import {
  cellKey,
  PHASE_NAMES,
  PHASE_STATES,
  phaseShown,
  type LearnedProfile,
} from '../../src/profile/index.ts';

/**
 * What a learned profile lacks for a state its looks showed (decisions/038): the wrapper's word (the
 * task moved on before the wrapper answered) or the owner's refused content (the task outran its
 * probes). The mock serving the profile answers the word as documented and the refusal as the closest
 * refusal it learned (or the core's), and `drift --against-profile` does not compare them; another
 * `learn` into the file may fill them in.
 */
export function profileGaps(profile: LearnedProfile): string[] {
  const { lifecycle, answers } = profile;
  if (lifecycle.tasks === 0) return [];
  const shown = PHASE_NAMES.filter((phase) => phaseShown(lifecycle, phase)).map(
    (phase) => PHASE_STATES[phase],
  );
  const gaps: string[] = [];
  const wrapped = Object.keys(lifecycle.wrapperStatuses).length > 0;
  for (const state of shown) {
    if (wrapped && lifecycle.wrapperStatuses[state] === undefined)
      gaps.push(
        `no wrapper word learned for ${state} (the task moved on before the wrapper answered): ` +
          `the mock answers it as documented${NOT_COMPARED}`,
      );
    // Every phase's state is unfinished: its content is refused (§4.4: content before completion).
    const cell = cellKey('getVideoContent', state, 'owner');
    if (answers[cell]?.refused === undefined)
      gaps.push(
        `no answer learned for ${cell} refused (the task outran its probes): the mock answers ` +
          `it as the closest refusal it learned (else as documented)${NOT_COMPARED}`,
      );
  }
  return gaps;
}

const NOT_COMPARED = ' and drift does not compare it; learn again into the file to fill it in';
