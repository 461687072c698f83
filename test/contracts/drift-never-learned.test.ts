import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareProfiles } from '../../contracts/drift/index.ts';
import { profileGaps } from '../../contracts/learn/profile-gaps.ts';
import { readProfile, type LearnedProfile } from '../../src/profile/index.ts';

/**
 * `drift --against-profile P` false alarms QA found on a loaded machine: the learn run that wrote P
 * read the wrapper after a single `unknown` look already saying QUEUED (rightly dropped as moved), so P
 * has no wrapper word for `unknown`; and the task outran every own-task content probe, so P has no
 * answer for `getVideoContent queued owner refused`. The mock replaying P filled both gaps with the
 * document (UNKNOWN; the core's refusal, without the gateway's `error.param: ""`), and drift compared
 * them as if P had learned them: `wrapper status while unknown: A NOT_START · B UNKNOWN`, `body
 * error.param: A empty · B absent`. Drift now knows P (decisions/038): a difference whose B side rests
 * on what P never learned is a note saying so, not a difference — for every aspect alike.
 */

const OBSERVED = readProfile(
  JSON.parse(readFileSync(new URL('../../mocks/profiles/observed.json', import.meta.url), 'utf8')),
);
const CONTENT_QUEUED = 'getVideoContent queued owner';

type Answers = LearnedProfile['answers'];

/** The observed profile with its lifecycle and answers changed as `change` says. */
function profile(change: {
  wrapperStatuses?: LearnedProfile['lifecycle']['wrapperStatuses'];
  progress?: LearnedProfile['lifecycle']['progress'];
  answers?: Answers;
}): LearnedProfile {
  const { wrapperStatuses, progress, answers } = change;
  return readProfile({
    ...OBSERVED,
    lifecycle: {
      ...OBSERVED.lifecycle,
      ...(wrapperStatuses === undefined ? {} : { wrapperStatuses }),
      ...(progress === undefined ? {} : { progress }),
    },
    answers: answers ?? OBSERVED.answers,
  });
}

const { unknown: _word, ...otherWords } = OBSERVED.lifecycle.wrapperStatuses;
const { [CONTENT_QUEUED]: _cell, ...otherAnswers } = OBSERVED.answers;
const refusal = OBSERVED.answers[CONTENT_QUEUED]!.refused!;
const refusalBody = refusal.body as { object: { error: { object: Record<string, unknown> } } };
const { param: _param, ...errorWithoutParam } = refusalBody.object.error.object;

/** P: the learn run under load, with neither the word for `unknown` nor the content refusal. */
const P = profile({ wrapperStatuses: otherWords, answers: otherAnswers });
/** A: the deployment, learned again (quiet): its own word and refusal. */
const A = OBSERVED;
/** B: the mock replaying P, learned: the documented word, the core's refusal. */
const B = profile({
  wrapperStatuses: { ...OBSERVED.lifecycle.wrapperStatuses, unknown: 'UNKNOWN' },
  answers: {
    ...OBSERVED.answers,
    [CONTENT_QUEUED]: {
      ...OBSERVED.answers[CONTENT_QUEUED],
      refused: { ...refusal, body: { object: { error: { object: errorWithoutParam } } } },
    },
  } as Answers,
});

const where = (d: { cell: string; where: string }) => `${d.cell} ${d.where}`;

describe('drift against a profile, where the profile never learned something', () => {
  it('without knowing P (two deployments) both are differences, as before', () => {
    expect(compareProfiles(A, B).differences.map(where)).toEqual([
      `${CONTENT_QUEUED} error.param`,
      'lifecycle wrapper status while unknown',
    ]);
  });

  it('knowing B replays P, neither is a difference; each is a note naming what P lacks', () => {
    const { differences, notes } = compareProfiles(A, B, { bReplays: P });
    expect(differences).toEqual([]);
    expect(notes).toContain(
      'lifecycle wrapper status while unknown: A NOT_START · B UNKNOWN — not compared: the profile ' +
        "never learned the wrapper's word while unknown (B answered as documented); refine it with " +
        'another `videotask learn --out FILE` run',
    );
    // An answer the profile lacks is replayed from the closest one it learned (answer-table.ts), not
    // from the document: the note says so (it said "as documented" for every gap).
    expect(notes).toContainEqual(
      expect.stringContaining(
        `the answer of ${CONTENT_QUEUED} refused (B answered with the closest answer it learned, ` +
          'or the documented one)',
      ),
    );
  });

  it('still finds what P learned and the deployment no longer does', () => {
    const { differences } = compareProfiles(A, B, { bReplays: OBSERVED });
    expect(differences.map(where)).toEqual([
      `${CONTENT_QUEUED} error.param`,
      'lifecycle wrapper status while unknown',
    ]);
  });

  it('a progress P never read is a note too', () => {
    const { queued: _queued, ...otherProgress } = OBSERVED.lifecycle.progress;
    const moving = profile({
      progress: { ...OBSERVED.lifecycle.progress, queued: { curve: [0, 60], looks: 5 } },
    });
    const fixed = profile({
      progress: { ...OBSERVED.lifecycle.progress, queued: { steps: [10], looks: 5 } },
    });
    const progressOnly = (p: LearnedProfile) =>
      compareProfiles(fixed, moving, { bReplays: p }).differences.filter((d) =>
        d.where.startsWith('progress'),
      );
    expect(progressOnly(profile({ progress: otherProgress }))).toEqual([]);
    expect(progressOnly(OBSERVED).map((d) => d.where)).toEqual(['progress while queued']);
  });

  it('learn says what a profile lacks for a state its looks showed', () => {
    expect(profileGaps(OBSERVED)).toEqual([]);
    expect(profileGaps(P)).toEqual([
      'no wrapper word learned for unknown (the task moved on before the wrapper answered): the ' +
        'mock answers it as documented and drift does not compare it; learn again into the file to ' +
        'fill it in',
      `no answer learned for ${CONTENT_QUEUED} refused (the task outran its probes): the mock ` +
        'answers it as the closest refusal it learned (else as documented) and drift does not ' +
        'compare it; learn again into the file to fill it in',
    ]);
  });
});
