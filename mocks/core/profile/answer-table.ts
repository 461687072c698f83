import {
  mergeNodes,
  PROFILE_CALLERS,
  PROFILE_ROUTES,
  SITUATIONS,
  TASK_STATES,
  type LearnedAnswer,
  type LearnedProfile,
  type ProfileCaller,
  type ProfileRoute,
  type ProfileState,
  type ShapeNode,
  type Situation,
} from '../../../src/profile/index.ts';
import { operationsWith } from '../../../src/spec/route-roles.ts';
import { compileAnswer, type CompiledAnswer } from './render-answer.ts';

const TASK_ROUTES = new Set<ProfileRoute>(operationsWith({ kind: ['query', 'content'] }));
/** The other submit path of the same form: a refusal of one reads like the other's. */
const SUBMITS = operationsWith({ kind: 'submit', form: 'openai' });
const SIBLING = new Map<ProfileRoute, ProfileRoute>(
  SUBMITS.map((route) => [route, SUBMITS.find((other) => other !== route)!]),
);
const ANSWERING = new Set<Situation>(['ok', 'range', 'head']);

export const tableKey = (
  route: ProfileRoute,
  state: ProfileState,
  caller: ProfileCaller,
  situation: Situation,
): string => `${route} ${state} ${caller} ${situation}`;

/**
 * Every situation of every cell the mock can answer, compiled at load (decisions/018): what the run
 * learned, and where it learned nothing, the closest it did learn. A refusal reads like the same
 * refusal of the same route in another state or by a like caller (another user's task as a missing
 * one; no key as an invalid key), or on the other submit path. An answer of a state the run never saw
 * reads like every state it saw merged, keeping what the core adds (a failed task's `error`). What has
 * no close learned answer at all is left to the core (and the profile's habits).
 */
export function answerTable(
  profile: LearnedProfile,
  serviceRequestIdHeader: string | undefined,
): Map<string, CompiledAnswer> {
  const learned = (route: ProfileRoute, state: ProfileState, caller: ProfileCaller) =>
    profile.answers[`${route} ${state} ${caller}`];
  const compiled = new Map<LearnedAnswer, CompiledAnswer>();
  const compile = (answer: LearnedAnswer, situation: Situation, lenient = false) => {
    let done = compiled.get(answer);
    if (done === undefined) {
      done = compileAnswer(
        answer,
        { lenient, bound: ANSWERING.has(situation) },
        serviceRequestIdHeader,
      );
      compiled.set(answer, done);
    }
    return done;
  };
  const table = new Map<string, CompiledAnswer>();
  for (const route of PROFILE_ROUTES) {
    const states: readonly ProfileState[] = TASK_ROUTES.has(route) ? TASK_STATES : ['n/a'];
    const merged = TASK_ROUTES.has(route) ? mergedAnswer(profile, route) : undefined;
    for (const state of states)
      for (const caller of PROFILE_CALLERS)
        for (const situation of SITUATIONS) {
          const own = learned(route, state, caller)?.[situation];
          const found =
            own ??
            (ANSWERING.has(situation)
              ? siblingAnswer(profile, route, state, caller, situation)
              : closestRefusal(profile, route, state, caller, situation));
          if (found !== undefined) {
            table.set(tableKey(route, state, caller, situation), compile(found, situation));
            continue;
          }
          if (
            merged !== undefined &&
            situation === 'ok' &&
            caller === 'owner' &&
            state !== 'missing'
          )
            table.set(tableKey(route, state, caller, situation), compile(merged, 'ok', true));
        }
  }
  return table;
}

function siblingAnswer(
  profile: LearnedProfile,
  route: ProfileRoute,
  state: ProfileState,
  caller: ProfileCaller,
  situation: Situation,
): LearnedAnswer | undefined {
  const sibling = SIBLING.get(route);
  return sibling === undefined
    ? undefined
    : profile.answers[`${sibling} ${state} ${caller}`]?.[situation];
}

/** States nearest first (in the order a task passes them). */
function byDistance(state: ProfileState): readonly ProfileState[] {
  const states: readonly ProfileState[] = TASK_STATES;
  const at = states.indexOf(state);
  if (at < 0) return [state];
  return [...states].sort(
    (a, b) => Math.abs(states.indexOf(a) - at) - Math.abs(states.indexOf(b) - at),
  );
}

/** Callers whose refusal reads alike: no key and an invalid key; another user's task and none at all. */
const ALIKE: Readonly<Record<ProfileCaller, readonly ProfileCaller[]>> = {
  owner: ['owner', 'other'],
  other: ['other', 'owner'],
  none: ['none', 'invalid'],
  invalid: ['invalid', 'none'],
};

function closestRefusal(
  profile: LearnedProfile,
  route: ProfileRoute,
  state: ProfileState,
  caller: ProfileCaller,
  situation: Situation,
): LearnedAnswer | undefined {
  const sibling = SIBLING.get(route);
  const routes = sibling === undefined ? [route] : [route, sibling];
  for (const r of routes)
    for (const c of ALIKE[caller])
      for (const s of byDistance(state)) {
        if (!sameRefusal(state, caller, s, c)) continue;
        const answer = profile.answers[`${r} ${s} ${c}`]?.[situation];
        if (answer !== undefined) return answer;
      }
  return undefined;
}

/**
 * Whether a refusal learned in one cell stands for another's: the owner is refused only a missing task
 * (its own task's refusals, content before completion, depend on a state it has), and another user's
 * task is refused as a missing one (§5: indistinguishable on the gateway).
 */
function sameRefusal(
  state: ProfileState,
  caller: ProfileCaller,
  learnedState: ProfileState,
  learnedCaller: ProfileCaller,
): boolean {
  const ownTask = (s: ProfileState, c: ProfileCaller) =>
    c === 'owner' && s !== 'missing' && s !== 'n/a';
  return ownTask(state, caller) === ownTask(learnedState, learnedCaller);
}

/** Every state's owner answer of a task route merged: for a state the run never saw. */
function mergedAnswer(profile: LearnedProfile, route: ProfileRoute): LearnedAnswer | undefined {
  const answers = TASK_STATES.filter((s) => s !== 'missing')
    .map((s) => profile.answers[`${route} ${s} owner`]?.ok)
    .filter((a): a is LearnedAnswer => a !== undefined && a.status < 300);
  const first = answers[0];
  if (first === undefined) return undefined;
  const bodies = answers
    .map((a) => a.body)
    .filter((b): b is ShapeNode => !('binary' in b || 'none' in b));
  if (bodies.length !== answers.length) return undefined;
  return { ...first, body: bodies.reduce((a, b) => mergeNodes(a, b)) };
}
