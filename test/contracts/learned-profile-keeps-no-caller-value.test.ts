// Issue 33 item 6, the learned profile: a value of an answer that held the caller's key in an encoding
// the redaction read was kept masked (`sk-…lice`: still a part of a key), one it did not read was kept
// as is, and a value of the caller's own (its user name) was kept as a constant; from the profile the
// mock sent them to every client. A learned profile now keeps such a value by its kind alone: nothing
// that varies by caller (owner and another user answering differently at the same place), nothing the
// run's one redaction (src/redaction) finds a key in, in any encoding it reads. (The key a run makes
// up to be refused as invalid, `sk-invalid-…`, is no one's: a deployment echoing it is learned so.)
import { beforeAll, expect, it } from 'vitest';
import type { Defect } from '../../mocks/defects/defect.ts';
import { jsonOf, withJson } from '../../mocks/defects/support.ts';
import { maskKey, Redactor } from '../../src/redaction/redactor.ts';
import type { LearnedProfile } from '../../src/profile/index.ts';
import { learnInProcess } from '../contracts/support/learn-in-process.ts';

const KEYS = ['sk-mock-alice', 'sk-mock-bob'];

/** Every JSON answer names its caller and echoes the caller's key, encoded several ways. */
const ECHOES_CALLER: Defect = {
  name: 'echoes-caller',
  description: "names the caller and echoes its key in an answer's fields",
  breaks: [],
  after: (request, response) => {
    const body = jsonOf(response);
    const key = /^Bearer (\S+)$/.exec(request.headers['authorization'] ?? '')?.[1];
    if (body === undefined || Array.isArray(body) || key === undefined) return response;
    const bytes = Buffer.from(key);
    return withJson(response, {
      ...body,
      account: key.replace('sk-mock-', 'user-'),
      key_label: key,
      key_b64: bytes.toString('base64'),
      key_hex: bytes.toString('hex'),
      note: `called with ${encodeURIComponent(key).replace(/-/g, '%2D')} today`,
    });
  },
};

let profile: LearnedProfile;
beforeAll(async () => {
  profile = (await learnInProcess({ mock: { defects: [ECHOES_CALLER] } })).profile;
});

it('keeps no text that reads as a key, not even masked', () => {
  const text = JSON.stringify(profile);
  expect(new Redactor(KEYS).redact(text)).toBe(text);
  for (const key of KEYS) expect(text).not.toContain(maskKey(key)); // `sk-…ce`: kept masked before
  expect(text).not.toContain('sk-mock');
});

it("keeps no value of a caller's own, but the field, by its kind", () => {
  const text = JSON.stringify(profile);
  expect(text).not.toMatch(/user-alice|user-bob/);
  const catalog = profile.answers['listModels n/a owner']?.ok?.body;
  expect(catalog).toMatchObject({
    object: { account: { kind: 'word' }, key_b64: { kind: 'word' } },
  });
});

it('keeps the wording that is the same for every caller', () => {
  const wording = {
    object: { error: { object: { message: { template: expect.any(String) as unknown } } } },
  };
  expect(profile.answers['getVideoContent queued owner']?.refused?.body).toMatchObject(wording);
  expect(profile.answers['getVideo missing owner']?.refused?.body).toMatchObject(wording);
});
