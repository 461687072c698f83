// Generators for a fuzz world: the service configuration, the tasks made first, the clock steps.
import fc from 'fast-check';
import type { MockToken } from '../../mocks/core/keys/tokens.ts';
import { ADMIN_TOKEN, MODEL_IDS } from './fuzz-names.ts';
export interface PreludeTask {
  readonly keyIndex: number;
  readonly via: 'generations' | 'videos' | 'native';
  readonly model: string;
  readonly scenario: string | null;
}

/** A service configuration and the tasks that exist before the fuzzed calls start. */
export interface WorldSpec {
  readonly seed: number;
  readonly profile: 'documented' | 'observed';
  readonly familyBound: boolean;
  readonly contentRedirect: boolean;
  readonly rateLimit: { readonly requests: number; readonly windowMs: number } | null;
  readonly adminToken: string | null;
  readonly maxBodyBytes: number;
  readonly failureRate: number;
  readonly extraTokens: readonly MockToken[];
  readonly prelude: readonly PreludeTask[];
  readonly advance: number;
}

const extraToken: fc.Arbitrary<MockToken> = fc.record({
  key: fc.stringMatching(/^sk-fuzz-[a-z0-9]{4,10}$/),
  user: fc.constantFrom('alice', 'bob', 'carol', 'dave', 'vip'),
  group: fc.constantFrom('default', 'vip'),
  models: fc.option(fc.subarray(MODEL_IDS, { minLength: 1 }), { nil: undefined }),
  quota: fc.constantFrom<'ok' | 'exhausted'>('ok', 'ok', 'ok', 'exhausted'),
});

const preludeScenario = fc.oneof(
  { weight: 6, arbitrary: fc.constant(null) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'fail',
      'slow',
      'stuck',
      'unknown:3',
      'flaky',
      'flaky:1',
      'flaky:3',
      'fail:GenerationTimeout',
    ),
  },
);

export const worldSpec: fc.Arbitrary<WorldSpec> = fc.record({
  seed: fc.nat(1_000_000),
  profile: fc.constantFrom<'documented' | 'observed'>('documented', 'documented', 'observed'),
  familyBound: fc.boolean(),
  contentRedirect: fc.oneof(
    { weight: 4, arbitrary: fc.constant(false) },
    { weight: 1, arbitrary: fc.constant(true) },
  ),
  rateLimit: fc.oneof(
    { weight: 5, arbitrary: fc.constant(null) },
    {
      weight: 1,
      arbitrary: fc.record({
        requests: fc.integer({ min: 1, max: 5 }),
        windowMs: fc.constantFrom(1000, 60_000),
      }),
    },
  ),
  adminToken: fc.oneof(
    { weight: 5, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constant(ADMIN_TOKEN) },
  ),
  maxBodyBytes: fc.constantFrom(256, 1024, 1024 * 1024),
  failureRate: fc.constantFrom(0, 0, 0.5),
  extraTokens: fc.uniqueArray(extraToken, { maxLength: 2, selector: (t) => t.key }),
  prelude: fc.array(
    fc.record({
      keyIndex: fc.nat(6),
      via: fc.constantFrom<'generations' | 'videos' | 'native'>('generations', 'videos', 'native'),
      model: fc.constantFrom(...MODEL_IDS),
      scenario: preludeScenario,
    }),
    { maxLength: 6 },
  ),
  advance: fc.oneof(
    fc.constant(0),
    fc.nat(120_000),
    fc.constantFrom(3_600_000 + 120_000, 10 * 60_000),
  ),
});

/** Clock steps between calls: mostly none or seconds, sometimes past a whole lifecycle or an artifact's life. */
export const clockStep: fc.Arbitrary<number> = fc.oneof(
  { weight: 6, arbitrary: fc.constant(0) },
  { weight: 3, arbitrary: fc.nat(90_000) },
  { weight: 1, arbitrary: fc.constantFrom(3_700_000, 400_000) },
);
