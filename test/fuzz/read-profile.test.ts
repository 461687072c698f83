import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { createMockService } from '../../mocks/index.ts';
import { MAX_GENERATED_CHARS } from '../../mocks/core/profile/render-node.ts';
import { ProfileError, readProfile, type LearnedProfile } from '../../src/profile/index.ts';
import { coreRequest } from '../helpers/core-client.ts';
import { FUZZ_TIMEOUT_MS, fuzzSeed } from './fuzz-support.ts';

// `readProfile` against random deep, long and malformed input (issue 33): the observed profile with a
// random field set to random JSON (deep, long, odd names such as `__proto__`), nested thousands of
// levels, cut short, or replaced by random text. Whatever it is given, it returns a profile or throws
// a ProfileError naming a field, never another error (a stack overflow, a TypeError); and a profile it
// returns is one the mock serves: it compiles, and an answer it renders stays within the bound.
// Seeded (FUZZ_SEED=<n> replays another); a few seconds.

const OBSERVED_TEXT = readFileSync(
  new URL('../../mocks/profiles/observed.json', import.meta.url),
  'utf8',
);
const OBSERVED = JSON.parse(OBSERVED_TEXT) as LearnedProfile;

/** Every place of the observed profile, as the path of keys that reaches it. */
function placesOf(value: unknown, path: readonly string[] = [], out: string[][] = []): string[][] {
  out.push([...path]);
  if (value !== null && typeof value === 'object')
    for (const [key, child] of Object.entries(value)) placesOf(child, [...path, key], out);
  return out;
}
const PLACES = placesOf(OBSERVED).filter((p) => p.length > 0);

/** A copy of the observed profile with the value at `path` replaced (or a field added beside it). */
function mutated(path: readonly string[], value: unknown, addBeside: string | undefined): unknown {
  const copy = structuredClone(OBSERVED) as unknown as Record<string, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  Object.defineProperty(node, addBeside ?? path.at(-1)!, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}

const deepText = (levels: number, open: string, close: string, leaf: string) =>
  `${open.repeat(levels)}${leaf}${close.repeat(levels)}`;

const ODD_KEY = fc.constantFrom('__proto__', 'constructor', 'x-a', 'set-cookie', '', '~1/', 'ok');
const LONG_TEXT = fc.integer({ min: 0, max: 200_000 }).map((n) => '<x\u001b\n'.repeat(n / 4));
const VALUE = fc.oneof(
  fc.jsonValue({ maxDepth: 6 }),
  LONG_TEXT,
  fc.constantFrom(1e8, -1e300, 4_194_305, 2 ** 53, Number.MAX_VALUE, -0, 0.5),
  fc.constantFrom(
    { array: { kind: 'text', template: 'x' }, length: [1e8, 1e8] },
    {
      array: { object: { a: { kind: 'text', length: [4_000_000, 4_000_000] } } },
      length: [4_000_000, 4_000_000],
    },
    { kind: 'id', form: '{alnum:6-256}{alnum:6-256}{alnum:6-256}' },
    { kind: 'text', template: '{task-id}{{}}{prompt}{url}{id}' },
    { oneOf: [] },
  ),
);

/** What the fuzz asks of any input. */
function check(input: unknown): void {
  let profile: LearnedProfile;
  try {
    profile = readProfile(input, 'fuzzed.json');
  } catch (error) {
    if (!(error instanceof ProfileError)) throw error;
    expect(error.problems.length).toBeGreaterThan(0);
    for (const problem of error.problems) expect(problem).toMatch(/^(\/|it is not JSON)/);
    return;
  }
  const service = createMockService({ seed: 'fuzz', profile });
  for (const path of ['/v1/models', '/v1/videos/task_missing', '/v1/videos/%E0%A4%A'])
    for (const key of ['sk-mock-alice', undefined]) {
      const response = service.handle(
        coreRequest('GET', path, { key: key ?? null, origin: 'http://127.0.0.1:4010' }),
      );
      const body = response.body;
      expect(typeof body === 'string' ? body.length : 0).toBeLessThan(MAX_GENERATED_CHARS * 2);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
}

/** A random ID form: mostly legal slots and separators, sometimes side by side, odd or out of range. */
const SLOT = fc
  .tuple(
    fc.constantFrom('digit', 'hex', 'HEX', 'lower', 'upper', 'alnum'),
    fc.integer({ min: 1, max: 40 }),
    fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
  )
  .map(([c, min, more]) => `{${c}:${min}${more === undefined ? '' : `-${min + more}`}}`);
const ODD = fc.constantFrom('{nope:3}', '{alnum:0}', '{hex:9-300}', '{', '}', '%', 'x', 'task');
const FORM = fc
  .array(
    fc.oneof(
      { arbitrary: SLOT, weight: 4 },
      { arbitrary: fc.constantFrom('-', '_', ':', '.', 'task_', 'vt-'), weight: 4 },
      { arbitrary: ODD, weight: 1 },
    ),
    { minLength: 1, maxLength: 20 },
  )
  .map((parts) => parts.join(''));

/** A task ID as a client may send it in a path: long, escaped, malformed. */
const PATH_ID = fc.oneof(
  fc.string({ maxLength: 300 }).map(encodeURIComponent),
  fc.constantFrom('%', '%E0%A4%A', '%00', 'a'.repeat(5000), `${'a1-'.repeat(40)}!`),
);

/** A random ID form, then random task IDs in every task route's path: never a throw or a 5xx. */
function checkForm(form: string, ids: readonly string[]): void {
  let profile: LearnedProfile;
  try {
    profile = readProfile({ ...OBSERVED, taskId: { form } }, 'fuzzed.json');
  } catch (error) {
    if (!(error instanceof ProfileError)) throw error;
    return;
  }
  const service = createMockService({ seed: 'fuzz', profile });
  for (const id of ids)
    for (const path of [
      `/v1/videos/${id}`,
      `/v1/video/generations/${id}`,
      `/v1/videos/${id}/content`,
    ]) {
      const response = service.handle(
        coreRequest('GET', path, { origin: 'http://127.0.0.1:4010' }),
      );
      expect(response.status).toBeLessThan(500);
    }
}

it(
  'readProfile: random deep, long and malformed profiles give a profile or a ProfileError, never a crash',
  () => {
    const seed = fuzzSeed();
    const params = { seed, numRuns: 100 };
    // A random field set to random JSON, or a random field added beside it.
    fc.assert(
      fc.property(
        fc.constantFrom(...PLACES),
        VALUE,
        fc.option(ODD_KEY, { nil: undefined }),
        fc.boolean(),
        (path, value, beside, asText) => {
          const input = mutated(path, value, beside);
          check(asText ? JSON.stringify(input) : input);
        },
      ),
      params,
    );
    // Nesting thousands of levels deep, at a random place, as text (the parser takes any depth).
    fc.assert(
      fc.property(
        fc.constantFrom(...PLACES),
        fc.integer({ min: 250, max: 5000 }),
        fc.constantFrom(['[', ']'], ['{"object":{"a":', '}}'], ['{"oneOf":[', ']}']),
        (path, levels, [open, close]) => {
          const text = JSON.stringify(mutated(path, 'DEEP', undefined)).replace(
            '"DEEP"',
            deepText(levels, open, close, '1'),
          );
          check(text);
          check(JSON.parse(text));
        },
      ),
      { seed, numRuns: 25 },
    );
    // Malformed text: the profile cut short, or random text.
    fc.assert(
      fc.property(
        fc.oneof(
          fc
            .integer({ min: 0, max: OBSERVED_TEXT.length - 1 })
            .map((n) => OBSERVED_TEXT.slice(0, n)),
          fc.string({ maxLength: 300 }),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        (text) => check(text),
      ),
      { seed, numRuns: 100 },
    );
    fc.assert(fc.property(FORM, fc.array(PATH_ID, { minLength: 1, maxLength: 5 }), checkForm), {
      seed,
      numRuns: 100,
    });
  },
  FUZZ_TIMEOUT_MS,
);
