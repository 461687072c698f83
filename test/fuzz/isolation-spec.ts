// What an isolation case is: random users with random keys and a random interleaving of operations.
import fc from 'fast-check';
import { MODEL_IDS } from './arbitraries.ts';
export type IsoRoute =
  'video' | 'wrapper' | 'content' | 'content-head' | 'content-range' | 'native';

export type IsoOp =
  | {
      readonly kind: 'submit';
      readonly actor: number;
      readonly via: 'generations' | 'videos' | 'native';
      readonly model: string;
      readonly scenario: string | null;
      readonly advance: number;
    }
  /** `own`: one of the caller's user's tasks when it has any; else any task (mostly someone else's). */
  | {
      readonly kind: 'query';
      readonly actor: number;
      readonly route: IsoRoute;
      readonly own: boolean;
      readonly target: number;
      readonly advance: number;
    }
  | { readonly kind: 'models'; readonly actor: number; readonly advance: number };

export interface IsoUser {
  readonly name: string;
  readonly group: 'default' | 'vip';
  readonly models: readonly string[] | null;
  readonly keys: readonly string[];
}

export interface IsoSpec {
  readonly seed: number;
  readonly profile: 'documented' | 'observed';
  readonly familyBound: boolean;
  readonly contentRedirect: boolean;
  readonly users: readonly IsoUser[];
  readonly ops: readonly IsoOp[];
}

const advance = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 4, arbitrary: fc.nat(30_000) },
  { weight: 1, arbitrary: fc.integer({ min: 60_000, max: 400_000 }) },
);
/** Mostly the random users' keys (listed first), sometimes a built-in key. */
const actor = fc.oneof({ weight: 4, arbitrary: fc.nat(7) }, { weight: 1, arbitrary: fc.nat(20) });

const isoOp: fc.Arbitrary<IsoOp> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('submit' as const),
      actor,
      via: fc.constantFrom<'generations' | 'videos' | 'native'>('generations', 'videos', 'native'),
      /** Mostly a model the path serves (primary on the OpenAI paths, second family on the native one). */
      model: fc.oneof(
        { weight: 4, arbitrary: fc.constant('') },
        { weight: 1, arbitrary: fc.constantFrom(...MODEL_IDS) },
      ),
      scenario: fc.oneof(
        { weight: 4, arbitrary: fc.constant(null) },
        {
          weight: 3,
          arbitrary: fc.constantFrom(
            'fail',
            'flaky',
            'flaky:1',
            'flaky:3',
            'slow',
            'stuck',
            'unknown:2',
            'rate-limit',
            'fail-at-submit',
            'fail-at-submit:503',
          ),
        },
      ),
      advance,
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('query' as const),
      actor,
      route: fc.constantFrom<IsoRoute>(
        'video',
        'wrapper',
        'content',
        'content-head',
        'content-range',
        'native',
      ),
      own: fc.boolean(),
      target: fc.nat(40),
      advance,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('models' as const), actor, advance }) },
);

export const isoSpec: fc.Arbitrary<IsoSpec> = fc.record({
  seed: fc.nat(1_000_000),
  profile: fc.constantFrom<'documented' | 'observed'>('documented', 'observed'),
  familyBound: fc.oneof(
    { weight: 3, arbitrary: fc.constant(true) },
    { weight: 1, arbitrary: fc.constant(false) },
  ),
  contentRedirect: fc.oneof(
    { weight: 3, arbitrary: fc.constant(false) },
    { weight: 1, arbitrary: fc.constant(true) },
  ),
  users: fc
    .uniqueArray(
      fc.record({
        // Built-in user names too: a random key of user "alice" shares sk-mock-alice's tasks (tasks belong to users).
        name: fc.constantFrom('alice', 'bob', 'carol', 'dave', 'erin', 'vip', 'u-1'),
        group: fc.constantFrom<'default' | 'vip'>('default', 'vip', 'vip'),
        models: fc.option(fc.subarray(MODEL_IDS, { minLength: 1 }), { nil: null, freq: 3 }),
        keys: fc.array(fc.stringMatching(/^[A-Za-z0-9_-]{4,24}$/), { minLength: 1, maxLength: 2 }),
      }),
      { minLength: 2, maxLength: 4, selector: (u) => u.name },
    )
    .map((users) =>
      users.map((u, i) => ({ ...u, keys: u.keys.map((k, j) => `sk-iso-${i}-${j}-${k}`) })),
    ),
  ops: fc.array(isoOp, { minLength: 5, maxLength: 40 }),
});
