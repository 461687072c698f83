import {
  readProfile,
  type LearnedProfile,
  type ProfileState,
  type ShapeNode,
} from '../../../src/profile/index.ts';
import { LIFECYCLE } from '../../../src/generated/client-contract.ts';
import type { VideoStatus } from '../../../src/spec/lifecycle.ts';
import { operationsWith } from '../../../src/spec/route-roles.ts';
import type { ErrorKind } from '../http/errors.ts';
import { LearnedReplay, learnedPhase } from './learned-replay.ts';

/**
 * How the mock fills what the document leaves open. `documented`: the document, its silences filled
 * by the spec's marked assumptions. A learned profile (`observed`, or one `videotask learn` wrote):
 * how one deployment reads, replayed by `learned` on top of the core, with the flags below read from
 * what it learned (docs/mock.md, "Learned profiles").
 */
export interface Profile {
  readonly name: string;
  /** A new task reads `unknown` for this long (ms range) before `queued` (the gateway stores NOT_START first). */
  readonly unknownFirstMs: readonly [number, number];
  /** Progress shown per state instead of the smooth curve (the gateway's 10 queued, 50 running). */
  readonly progressSteps?: Readonly<Partial<Record<VideoStatus, number>>> | undefined;
  /** `completed_at` carries the row's update time while the task is not done. */
  readonly completedAtWhileRunning: boolean;
  /** `metadata.url` is present as `""` until the task completes. */
  readonly emptyUrlUntilDone: boolean;
  /** The wrapper's `data` also carries the gateway's row fields (id, user_id, group, quota, …). */
  readonly wrapperRowFields: boolean;
  /** The submission answer carries `X-New-Api-Other-Ratios`. */
  readonly otherRatiosHeader: boolean;
  /** Submissions may be `multipart/form-data` (the spec's `SubmitForm`), as the gateway accepts; otherwise 415. */
  readonly multipartSubmissions: boolean;
  /** Error kinds this profile answers differently. */
  readonly errors: Readonly<Partial<Record<ErrorKind, ErrorKind>>>;
  /** A learned profile's replay: how each answer reads (learned-replay.ts). */
  readonly learned?: LearnedReplay | undefined;
}

/** The states a task is known in (`unknown` is the one that slows polling down), and those it runs in. */
const KNOWN = LIFECYCLE.states.filter(
  (s) => !(LIFECYCLE.slowDown as readonly string[]).includes(s),
);
const RUNNING = KNOWN.filter((s) => (LIFECYCLE.pollAgain as readonly string[]).includes(s));

/** The fields of an object shape (none for any other node). */
function fieldsOf(node: ShapeNode | undefined): Readonly<Record<string, ShapeNode>> {
  return node !== undefined && 'object' in node ? node.object : {};
}

/**
 * A learned profile as the core's profile (decisions/018): the core renders what the learned
 * deployment carries (its flags, read from the answers), and the replay reads every answer as the
 * deployment does. Checks the profile first: a bad one throws `ProfileError` naming the field.
 *
 * @example
 * const service = createMockService({ profile: JSON.parse(readFileSync('staging.json', 'utf8')) });
 */
export function learnedProfile(input: unknown, source?: string): Profile {
  const profile = readProfile(input, source);
  const replay = new LearnedReplay(profile);
  const body = (key: string) => {
    const b = profile.answers[key]?.ok?.body;
    return b === undefined || 'binary' in b || 'none' in b ? undefined : b;
  };
  const running = RUNNING.map((s) => fieldsOf(body(`getVideo ${s} owner`)));
  const wrapperData = KNOWN.map((s) =>
    fieldsOf(fieldsOf(body(`getVideoGeneration ${s} owner`))['data']),
  );
  const submitted = operationsWith({ kind: 'submit', form: 'openai' }).map(
    (r) => profile.answers[`${r} n/a owner`]?.ok?.headers ?? {},
  );
  return {
    name: profile.name,
    unknownFirstMs: learnedPhase(profile, 'unknown'),
    progressSteps: progressSteps(profile),
    completedAtWhileRunning: running.some((f) => 'completed_at' in f),
    emptyUrlUntilDone: running.some((f) => 'metadata' in f),
    wrapperRowFields: wrapperData.some((f) => 'submit_time' in f || 'user_id' in f),
    otherRatiosHeader: submitted.some((h) => 'x-new-api-other-ratios' in h),
    multipartSubmissions: profile.submissions.multipart === true,
    errors: {},
    learned: replay,
  };
}

/**
 * Fixed progress per state, where the run saw steps rather than a curve. A value seen in one look
 * (`looks: 1`, decisions/035) is replayed as that value too: it is what the deployment showed, where
 * a curve would invent values it never showed (drift alone weighs how much a reading rests on).
 */
function progressSteps(profile: LearnedProfile): Partial<Record<VideoStatus, number>> | undefined {
  const steps: Partial<Record<VideoStatus, number>> = {};
  for (const [state, reading] of Object.entries(profile.lifecycle.progress) as [
    Exclude<ProfileState, 'missing' | 'n/a'>,
    { steps?: readonly number[] },
  ][])
    if (reading.steps !== undefined) steps[state] = reading.steps[0]!;
  return Object.keys(steps).length === 0 ? undefined : steps;
}
