// Issue 33 item 12, hand-edited profiles: an array length of 100,000,000 in a 30 KB profile took the
// mock to 2.8 GB on one request, and 3,000 levels of nesting exited with a stack overflow naming no
// field. The schema now bounds every length, count and number the mock uses (spec/learned-profile.
// schema.json), nesting is measured before anything walks the profile (refused naming where), and the
// mock generates at most MAX_GENERATED_CHARS of an answer it has no values for.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { MAX_GENERATED_CHARS } from '../../mocks/core/profile/render-node.ts';
import { createMockService } from '../../mocks/index.ts';
import { coreRequest } from '../helpers/core-client.ts';
import {
  MAX_PROFILE_DEPTH,
  ProfileError,
  readProfile,
  type LearnedProfile,
  type ShapeNode,
} from '../../src/profile/index.ts';

const OBSERVED = JSON.parse(
  readFileSync(new URL('../../mocks/profiles/observed.json', import.meta.url), 'utf8'),
) as LearnedProfile;
const CELL = 'getVideo missing owner';

/** The observed profile with the missing task's refusal's body set. */
function withBody(body: unknown): LearnedProfile {
  const copy = structuredClone(OBSERVED) as unknown as {
    answers: Record<string, Record<string, Record<string, unknown>>>;
  };
  copy.answers[CELL]!['refused']!['body'] = body;
  return copy as unknown as LearnedProfile;
}

function refusal(input: unknown): string {
  try {
    readProfile(input, 'hand-edited.json');
  } catch (error) {
    expect(error).toBeInstanceOf(ProfileError);
    return (error as Error).message;
  }
  throw new Error('the profile was accepted');
}

it('refuses 3,000 levels of nesting, as text or parsed, naming where it starts', () => {
  // Written out as text: a recursive JSON.stringify would overflow the stack itself.
  const deep = `${'{"object":{"a":'.repeat(3000)}{"kind":"integer","range":[1,1]}${'}}'.repeat(3000)}`;
  const text = JSON.stringify(withBody('DEEP')).replace('"DEEP"', deep);
  for (const input of [text, JSON.parse(text) as unknown]) {
    const message = refusal(input);
    expect(message).toContain(
      `hand-edited.json is not a usable profile: /answers/getVideo missing owner/refused/body/object/a`,
    );
    expect(message).toContain(`nests deeper than ${MAX_PROFILE_DEPTH} levels`);
  }
});

it('refuses a list length past what an answer can hold, naming the field', () => {
  const message = refusal(
    withBody({ array: { kind: 'integer', range: [0, 9] }, length: [1e8, 1e8] }),
  );
  expect(message).toContain(
    '/answers/getVideo missing owner/refused/body/length/0: must be <= 4194304',
  );
});

it.each([
  ['a name with a control character', { name: 'staging\u001b[2J' }, '/name'],
  [
    'a number range past ±10^15',
    {
      lifecycle: {
        ...OBSERVED.lifecycle,
        phases: { ...OBSERVED.lifecycle.phases, queued: [0, 1e300] },
      },
    },
    '/lifecycle/phases/queued/1',
  ],
])('refuses %s', (_name, change, pointer) => {
  expect(refusal({ ...OBSERVED, ...change })).toContain(`${pointer}: must`);
});

it('generates at most MAX_GENERATED_CHARS of an answer it has no values for', () => {
  const item: ShapeNode = { object: { name: { kind: 'text', template: 'x'.repeat(100) } } };
  const lists: ShapeNode = {
    object: {
      a: { array: item, length: [4_000_000, 4_000_000] },
      b: { array: { array: item, length: [1000, 1000] }, length: [1000, 1000] },
      c: { kind: 'text', length: [4_000_000, 4_000_000] },
    },
  };
  const service = createMockService({ seed: 'bounds', profile: withBody(lists) });
  const response = service.handle(
    coreRequest('GET', '/v1/videos/task_missing', { origin: 'http://127.0.0.1:4010' }),
  );
  expect(response.status).toBe(OBSERVED.answers[CELL]!.refused!.status);
  const text = response.body as string;
  expect(text.length).toBeLessThanOrEqual(MAX_GENERATED_CHARS * 1.1);
  const body = JSON.parse(text) as { a: unknown[]; b: unknown[][]; c: string };
  expect(body.a.length).toBeGreaterThan(1000); // as many as fit, not none
  expect(body.c.length).toBeGreaterThan(1000);
});

it('refuses an informational status (a 101 would leave the client waiting for an answer)', () => {
  const copy = structuredClone(OBSERVED) as unknown as {
    answers: Record<string, Record<string, Record<string, unknown>>>;
  };
  copy.answers[CELL]!['refused']!['status'] = 101;
  expect(refusal(copy)).toContain('/answers/getVideo missing owner/refused/status: must be >= 200');
});
