// A learned profile's header values are refused at load when no HTTP server can send them (a
// constant, a template or a word with a control character or beyond Latin-1). Two ways around that
// check reached the node host, whose writeHead then threw and left the client unanswered: the answer's
// `contentType` (sent as Content-Type) was never checked, and a header learned as an object or a list
// (sent as its JSON) was not looked into. Both are now refused at load, naming the field; the host's
// guard (test/mocks/unsendable-header-answered.e2e.test.ts) is the last line only.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { ProfileError, readProfile, type LearnedProfile } from '../../src/profile/index.ts';

const OBSERVED = JSON.parse(
  readFileSync(new URL('../../mocks/profiles/observed.json', import.meta.url), 'utf8'),
) as LearnedProfile;
const CELL = 'listModels n/a none';
const AT = '/answers/listModels n~1a none/refused';

/** The observed profile with one field of the cell's `refused` answer set. */
function withRefused(field: string, value: unknown): unknown {
  const copy = structuredClone(OBSERVED) as unknown as {
    answers: Record<string, Record<string, Record<string, unknown>>>;
  };
  const answer = copy.answers[CELL]!['refused']!;
  if (field === 'contentType') answer['contentType'] = value;
  else (answer['headers'] as Record<string, unknown>)[field] = value;
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

it.each([
  ['a content type with a line break', 'contentType', 'application/json\r\nx-a: b', '/contentType'],
  [
    'a content type beyond Latin-1',
    'contentType',
    'application/json; charset=utf-8 ✓',
    '/contentType',
  ],
  [
    'a header learned as an object holding text beyond Latin-1',
    'x-meta',
    { object: { region: { const: 'Zürich → €' } } },
    '/headers/x-meta',
  ],
  [
    'a header learned as an object with a name beyond Latin-1',
    'x-meta',
    { object: { 'région€': { kind: 'integer', range: [1, 2] } } },
    '/headers/x-meta',
  ],
  [
    'a header learned as a list of such text',
    'x-tags',
    { array: { oneOf: [{ kind: 'word', values: ['ok', '✓'] }] }, length: [1, 1] },
    '/headers/x-tags',
  ],
])('refuses %s, naming the field', (_name, field, value, pointer) => {
  const message = problemsOf(withRefused(field, value));
  expect(message).toContain(`${AT}${pointer}: `);
  expect(message).toMatch(/must be Latin-1 text without control characters/);
});

it('still reads a header learned as an object of plain text, and the content types it learned', () => {
  const header = { object: { region: { const: 'Zürich' }, n: { kind: 'integer', range: [1, 2] } } };
  expect(() => readProfile(withRefused('x-meta', header))).not.toThrow();
  expect(() => readProfile(withRefused('contentType', ''))).not.toThrow();
});
