import type { LearnedProfile } from '../../../src/profile/index.ts';
import { learnedProfile, type Profile } from './core-profile.ts';
import { isProfileName, type ProfileName } from './profile-names.ts';
import OBSERVED from '../../profiles/observed.json' with { type: 'json' };

/** The document, its silences filled by the spec's marked assumptions. */
const DOCUMENTED: Profile = {
  name: 'documented',
  unknownFirstMs: [0, 0],
  completedAtWhileRunning: false,
  emptyUrlUntilDone: false,
  wrapperRowFields: false,
  otherRatiosHeader: false,
  multipartSubmissions: false,
  errors: {},
};

/** The built-in `observed` profile as the file it is (a learned profile; decisions/018). */
export const OBSERVED_PROFILE = OBSERVED as unknown as LearnedProfile;

let observed: Profile | undefined;

/**
 * The built-in profiles. `observed` is a learned profile like any other (decisions/018):
 * `mocks/profiles/observed.json`, learned by `scripts/learn-observed.ts` from a deployment with the
 * deployed gateway's habits; compiled on first use, so a mock that never plays it never pays for it.
 */
export const PROFILES: Readonly<Record<ProfileName, Profile>> = {
  documented: DOCUMENTED,
  get observed() {
    return (observed ??= learnedProfile(OBSERVED_PROFILE, 'the built-in observed profile'));
  },
};

/** What `createMockService({ profile })` takes: a built-in's name or a learned profile (parsed JSON). */
export type ProfileOption = ProfileName | LearnedProfile;

const compiled = new WeakMap<object, Profile>();

/**
 * The profile an option names. A learned profile is checked (a bad one throws `ProfileError` naming
 * the field) and compiled once per object.
 */
export function resolveProfile(option: ProfileOption | undefined): Profile {
  if (option === undefined) return PROFILES.documented;
  if (typeof option === 'string' && isProfileName(option)) return PROFILES[option];
  if (typeof option !== 'object' || option === null)
    throw new RangeError(
      `Unknown profile "${String(option)}": use documented, observed, or a learned profile ` +
        '(the parsed JSON of a file `videotask learn` wrote)',
    );
  let profile = compiled.get(option);
  if (profile === undefined) {
    profile = learnedProfile(option);
    compiled.set(option, profile);
  }
  return profile;
}
