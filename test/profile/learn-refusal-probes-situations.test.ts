import { beforeAll, describe, expect, it } from 'vitest';
import type { LearnedProfile } from '../../src/profile/index.ts';
import { FULL_MOCK, FULL_TARGET } from '../contracts/support/in-process.ts';
import { learnInProcess } from '../contracts/support/learn-in-process.ts';
import { coreClient } from '../helpers/core-client.ts';

/**
 * Issue 21 after issue 22: the contract suite gained refusal probes (each required field of §2.1 left
 * out or of another type, a model the key may not use, a multipart file upload). The learner read a
 * probe by its prompt only, so most of them counted as well-formed submissions: the `ok` answer of both
 * submit paths was learned from refusals outnumbering the accepted tasks (`HTTP 400`), and the mock
 * serving the profile refused every submission. Each probe is now a situation of its own, read by what
 * it sent, in the learner and the replay alike; the other user's catalog is an answer, not a refusal.
 */
let profile: LearnedProfile;
beforeAll(async () => {
  // One unit more than the tasks, as `videotask learn` has: the learning probes too.
  profile = (await learnInProcess({ mock: FULL_MOCK, target: { ...FULL_TARGET, budget: 6 } }))
    .profile;
});

const VIP = 'sk-mock-vip-no-lite';

describe('a learned profile after the suite’s refusal probes', () => {
  it('learns the ok answer of each submit path from accepted submissions only', () => {
    for (const route of ['createVideo', 'createVideoGeneration']) {
      const ok = profile.answers[`${route} n/a owner`]?.ok;
      expect(ok, route).toMatchObject({ status: 200 });
      expect(ok, route).not.toHaveProperty('statuses');
    }
  });

  it('learns each probe as a situation of its own, with the status the deployment gave it', () => {
    const situations = profile.answers['createVideo n/a owner']!;
    const statuses = Object.fromEntries(
      Object.entries(situations).map(([situation, answer]) => [situation, answer.status]),
    );
    expect(statuses).toEqual({
      ok: 200,
      'missing-model': 400,
      'model-not-string': 400,
      'missing-prompt': 400,
      'prompt-not-string': 400,
      'empty-prompt': 400,
      'forbidden-model': 403,
      // The observed profile's gateway has no channel for a model it does not know.
      'unknown-model': 503,
      'file-upload': 400,
      'invalid-json': 400,
    });
    expect(profile.answers['listModels n/a other']).toMatchObject({ ok: { status: 200 } });
  });

  it('serves it: a valid submission is accepted, each refusal reads as learned', () => {
    const { call } = coreClient({ profile, tokens: FULL_MOCK.tokens, familyBound: true });
    const submit = (body: Record<string, unknown>) =>
      call('POST', '/v1/videos', { key: VIP, body: { metadata: { duration: 5 }, ...body } });
    expect(submit({ model: 'video-pro-v1', prompt: 'a red kite' }).status).toBe(200);
    // The core refuses both alike for this key (the token's list); the deployment did not.
    expect(submit({ model: 'video-lite-v1', prompt: 'a red kite' }).status).toBe(403);
    expect(submit({ model: 'no-such-model', prompt: 'a red kite' }).status).toBe(503);
    const missing = submit({ prompt: 'a red kite' });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toMatch(/model is required/);
  });
});
