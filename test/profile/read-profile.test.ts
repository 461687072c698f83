import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FormCodec,
  formOf,
  generateId,
  isIdLike,
  mergeForms,
  parseForm,
  ProfileError,
  readProfile,
  type LearnedProfile,
} from '../../src/profile/index.ts';
import { createRandom } from '../../mocks/core/plan/random.ts';

const OBSERVED = JSON.parse(
  readFileSync(new URL('../../mocks/profiles/observed.json', import.meta.url), 'utf8'),
) as LearnedProfile;

const REMOVE = Symbol('remove');

/** A copy of the profile with the field at `path` set to `value` (or removed). */
function edited(path: readonly string[], value: unknown): unknown {
  const copy = structuredClone(OBSERVED) as unknown as Record<string, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = path.at(-1)!;
  if (value === REMOVE) delete node[last];
  else node[last] = value;
  return copy;
}

function problemsOf(input: unknown): string {
  try {
    readProfile(input, 'staging.profile.json');
  } catch (error) {
    expect(error).toBeInstanceOf(ProfileError);
    return (error as Error).message;
  }
  throw new Error('the profile was accepted');
}

describe('a learned profile file', () => {
  it('reads the built-in observed profile, which is such a file', () => {
    expect(readProfile(OBSERVED).name).toBe('observed');
    expect(readProfile(JSON.stringify(OBSERVED)).version).toBe(1);
  });

  it.each([
    [
      'not JSON',
      '{"version": 1,',
      /staging\.profile\.json is not a usable profile: it is not JSON/,
    ],
    ['another version', edited(['version'], 2), /\/version: is 2, this videotask reads version 1/],
    [
      'a status as text',
      edited(['answers', 'getVideo queued owner', 'ok', 'status'], '200'),
      /\/answers\/getVideo queued owner\/ok\/status: must be integer/,
    ],
    [
      'a cell that is none',
      edited(['answers', 'getVideo soon owner'], {}),
      /\/answers\/getVideo soon owner: names no cell: write "<operationId> <state> <caller>"/,
    ],
    [
      'a misspelt field',
      edited(['lifecycle', 'phasees'], {}),
      /\/lifecycle\/phasees: is not a field of the format \(a typo\?\)/,
    ],
    ['a missing field', edited(['taskId'], REMOVE), /\/: lacks the field "taskId"/],
    [
      'an ID form that does not parse',
      edited(['taskId', 'form'], 'task_{base64:32}'),
      /\/taskId\/form: unknown character class "base64"/,
    ],
    [
      'a range upside down',
      edited(['lifecycle', 'phases', 'queued'], [5000, 100]),
      /\/lifecycle\/phases\/queued: the range starts above its end/,
    ],
    [
      'a header value no server can send',
      edited(['answers', 'listModels n/a none', 'refused', 'headers', 'x-extra'], {
        const: 'a\r\nSet-Cookie: x',
      }),
      /\/answers\/listModels n~1a none\/refused\/headers\/x-extra: a header value must be Latin-1/,
    ],
    [
      'a situation that is none',
      edited(['answers', 'getVideo queued owner', 'fine'], {}),
      /\/answers\/getVideo queued owner\/fine: is not a situation \(ok, refused/,
    ],
  ])('refuses %s with an error naming the field', (_name, input, message) => {
    expect(problemsOf(input)).toMatch(message);
  });
});

const FORMS = fc.constantFrom('task_{alnum:32}', 'req_{lower:8}', 'cgt-{digit:14}-{lower:9}');

describe('ID forms', () => {
  it.each([
    ['task_AbCdEfGhIjKlMnOpQrStUvWxYz012345', 'task_{alnum:32}'],
    ['f47ac10b-58cc-4a72-a567-0e02b2c3d479', '{hex:8}-{hex:4}-{hex:4}-{hex:4}-{hex:12}'],
    ['vt-01J9Z3K4M5N6P7Q8R9S0T1V2W3', 'vt-{upper:26}'],
    ['2026112410453100000012', '{digit:22}'],
    ['cgt-20261124104531-x7k2m', 'cgt-{digit:14}-{lower:5}'],
  ])('%s has the form %s', (value, form) => {
    expect(isIdLike(value)).toBe(true);
    expect(formOf(value)).toBe(form);
  });

  it.each(['video-pro-v1', 'alt-video-v2.5', 'gpt-4o-2024-08-06', 'invalid_request'])(
    '%s is a name, not an ID',
    (value) => expect(isIdLike(value)).toBe(false),
  );

  it('widens a merged form to cover both values', () => {
    expect(mergeForms('{digit:8}-{lower:4}', '{hex:8}-{lower:6}')).toBe('{hex:8}-{lower:4-6}');
    expect(mergeForms('task_{alnum:32}', '{hex:32}')).toBe('task_{alnum:32}');
    // A run that happened to be letters only is one value of a slot, not a name (a UUID's `adbd`).
    const uuid = '{hex:8}-{hex:4}-{hex:4}-{hex:4}-{hex:12}';
    expect(mergeForms(formOf('f47ac10b-58cc-4a72-adbd-0e02b2c3d479'), uuid)).toBe(uuid);
  });

  it('generates values of the form it was learned from', () => {
    fc.assert(
      fc.property(FORMS, fc.integer(), (form, seed) => {
        const random = createRandom(seed);
        const value = generateId(parseForm(form), () => random.next());
        expect(new FormCodec(parseForm(form)).matches(value)).toBe(true);
        expect(mergeForms(form, formOf(value))).toBe(form);
      }),
    );
  });

  it('carries a number in a form with room for it, and back', () => {
    const codec = new FormCodec(parseForm('vtsk-{alnum:32}'));
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: codec.capacity - 1n }), (n) => {
        const text = codec.encode(n);
        expect(codec.matches(text)).toBe(true);
        expect(codec.decode(text)).toBe(n);
      }),
    );
    expect(codec.decode('vtsk-short')).toBeUndefined();
  });
});
