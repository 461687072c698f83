// Issue 33 item 4: a profile's task ID form compiled to a regular expression tested on the task ID of
// every path before the key was checked. A form of adjacent slots (`{alnum:6-256}` six times) made
// that a backtracking pattern: a 130-character ID froze the mock for 15 s, from a plain GET with no
// key. A form must now read one way (no slots side by side; a slot of varying length followed by a
// separator its class cannot hold), refused at load naming the field otherwise, and an ID is matched
// in one pass, its length checked first.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import {
  FormCodec,
  matchesForm,
  parseForm,
  ProfileError,
  readProfile,
} from '../../src/profile/index.ts';
import type { LearnedProfile } from '../../src/profile/index.ts';
import { coreClient } from '../helpers/core-client.ts';

const OBSERVED = JSON.parse(
  readFileSync(new URL('../../mocks/profiles/observed.json', import.meta.url), 'utf8'),
) as LearnedProfile;

const withTaskForm = (form: string): LearnedProfile => ({ ...OBSERVED, taskId: { form } });

it('refuses a form of adjacent slots at load, naming the field', () => {
  const form = '{alnum:6-256}'.repeat(6);
  expect(() => readProfile(withTaskForm(form), 'hostile.json')).toThrow(ProfileError);
  expect(() => readProfile(withTaskForm(form), 'hostile.json')).toThrow(
    /\/taskId\/form: two slots side by side/,
  );
});

it('refuses a slot of varying length followed by a literal its class holds', () => {
  expect(() => readProfile(withTaskForm('{alnum:1-256}a{alnum:1-256}a{alnum:1-256}'))).toThrow(
    /\/taskId\/form: a slot of varying length \{alnum:1-256\} followed by "a"/,
  );
  expect(() => parseForm('{lower:4-8}-{hex:2-4}')).not.toThrow();
});

it('matches an ID in one pass: the hostile 130-character ID and a long one are read at once', () => {
  const parts = parseForm(
    Array.from({ length: 16 }, () => '{alnum:1-256}').join('-'), // the widest legal form
  );
  const hostile = `${'a'.repeat(129)}!`;
  expect(matchesForm(parts, hostile)).toBe(false);
  expect(matchesForm(parts, `${'a-'.repeat(15)}${'b'.repeat(256)}`)).toBe(true);
  expect(matchesForm(parts, 'a'.repeat(100_000))).toBe(false); // longer than the form's longest
  expect(new FormCodec(parts).decode(hostile)).toBeUndefined();
});

it('a mock serving a form of many varying slots answers a long unknown ID without a key', () => {
  const form = Array.from({ length: 6 }, () => '{alnum:6-256}').join('-');
  const { call } = coreClient({ profile: withTaskForm(form) });
  for (const id of [`${'a'.repeat(129)}!`, `${'a1-'.repeat(6)}x`, 'b'.repeat(2000)])
    expect(call('GET', `/v1/videos/${id}`, { key: null }).status).toBe(401);
});

it('a malformed escape in a task path names no task (it threw out of the service on a learned form)', () => {
  const { call } = coreClient({ profile: withTaskForm('vtsk-{alnum:32}') });
  for (const path of ['/v1/videos/%E0%A4%A', '/v1/video/generations/%ZZ', '/v1/videos/%/content'])
    expect(call('GET', path).status).toBeLessThan(500);
});
