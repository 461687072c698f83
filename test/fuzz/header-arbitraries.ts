// Generators for a call's method and headers: auth, content type, scenario, range and the rest.
import fc from 'fast-check';
import type { AuthSpec } from './call-types.ts';
import { SCENARIO_NAMES } from './fuzz-names.ts';
const authScheme = fc.oneof(
  { weight: 12, arbitrary: fc.constant('Bearer ') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'bearer ',
      'BEARER ',
      'Bearer  ',
      'Bearer\t',
      'Basic ',
      '',
      'Token ',
      'Bearer',
    ),
  },
);

export function authSpec(keyCount: number): fc.Arbitrary<AuthSpec> {
  return fc.oneof(
    {
      weight: 14,
      arbitrary: fc.record({
        kind: fc.constant('key' as const),
        index: fc.nat(keyCount - 1),
        scheme: authScheme,
      }),
    },
    { weight: 2, arbitrary: fc.constant<AuthSpec>({ kind: 'none' }) },
    { weight: 1, arbitrary: fc.constant<AuthSpec>({ kind: 'admin' }) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.constantFrom(
            'Bearer sk-mock-nobody',
            'Bearer sk-mock-alice extra',
            'Bearer ',
            'Bearer',
            '',
            'sk-mock-alice',
            'Bearer sk-mock-ALICE',
            `Bearer ${'k'.repeat(5000)}`,
          ),
          fc.string({ maxLength: 40 }).map((s) => `Bearer ${s}`),
          fc.string({ unit: 'binary', maxLength: 30 }),
        )
        .map((value): AuthSpec => ({ kind: 'raw', value })),
    },
  );
}

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/json ; x=y',
  'application/vnd.api+json',
  'application/json-patch+json',
  'multipart/form-data; boundary=xyz',
  'application/x-www-form-urlencoded',
  'text/plain',
  'text/json',
  'application/octet-stream',
  '',
  ';',
  'application/',
  '*/*',
  'json',
];

export const contentType: fc.Arbitrary<string | null> = fc.oneof(
  { weight: 14, arbitrary: fc.constant('application/json') },
  { weight: 6, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  { weight: 3, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);

/** `X-Mock-Scenario` values: every scenario with good and bad arguments, including the 5xx ones. */
export const scenarioValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...SCENARIO_NAMES),
  fc.constantFrom(
    'fail:InternalServiceError',
    'fail:bad code!',
    'fail-at-submit:404',
    'fail-at-submit:429',
    'fail-at-submit:500',
    'fail-at-submit:503',
    'fail-at-submit:599',
    'fail-at-submit:600',
    'fail-at-submit:399',
    'fail-at-submit:5e2',
    'fail-at-submit:503.0',
    'unknown:5',
    'unknown:-1',
    'unknown:1e9',
    'flaky:1',
    'flaky:3',
    'flaky:0',
    'flaky:1001',
    'rate-limit:3',
    'rate-limit:0',
    'RATE-LIMIT',
    'Succeed',
    ' slow ',
    '',
    ' ',
    'nope',
    'fail:',
    ':',
    'stuck:x',
  ),
  fc
    .tuple(fc.constantFrom(...SCENARIO_NAMES), fc.string({ maxLength: 10 }))
    .map(([n, a]) => `${n}:${a}`),
  fc.string({ maxLength: 20 }),
);

const rangeValue = fc.oneof(
  fc.constantFrom(
    'bytes=0-99',
    'bytes=-100',
    'bytes=100-',
    'bytes=0-0',
    'bytes=6591-',
    'bytes=6592-',
    'bytes=99999999999999999999-',
    'bytes=5-1',
    'bytes=0-1,5-9',
    'items=0-1',
    'bytes=',
    'bytes=-0',
    'bytes=-',
    '',
    'bytes=0-99999999999999999999',
  ),
  fc.tuple(fc.nat(10_000), fc.nat(10_000)).map(([a, b]) => `bytes=${a}-${b}`),
  fc.string({ maxLength: 20 }),
);

const headerName = fc.oneof(
  fc.constantFrom(
    'accept',
    'accept-encoding',
    'user-agent',
    'cookie',
    'x-forwarded-for',
    'if-none-match',
    'cache-control',
    'te',
    'expect',
    'upgrade',
    'x-foo',
  ),
  fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
);
const headerValue = fc.oneof(
  fc.string({ unit: 'binary-ascii', maxLength: 30 }).map((s) => s.replace(/[\r\n\0]/g, '')),
  fc.constantFrom('*/*', 'gzip, br', '100-continue', 'keep-alive', 'h2c', 'websocket'),
);

const extraHeader: fc.Arbitrary<readonly [string, string]> = fc.oneof(
  fc.tuple(fc.constant('range'), rangeValue),
  fc.tuple(fc.constantFrom('x-request-id', 'idempotency-key'), fc.string({ maxLength: 40 })),
  fc.tuple(
    fc.constant('origin'),
    fc.constantFrom('http://app.test', 'null', '', 'https://evil.test'),
  ),
  fc.tuple(
    fc.constant('access-control-request-headers'),
    fc.constantFrom('authorization, content-type', 'x-mock-scenario', ''),
  ),
  fc.tuple(fc.constant('content-encoding'), fc.constantFrom('gzip', 'br', 'identity', 'x')),
  fc.tuple(fc.constant('x-mock-scenario'), scenarioValue),
  fc.tuple(headerName, headerValue),
);

export const method = fc.oneof(
  { weight: 14, arbitrary: fc.constant(null) },
  {
    weight: 5,
    arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE'),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.constantFrom('get', 'Post', 'PROPFIND', 'CONNECT', 'QUERY', 'M-SEARCH', 'PURGE', 'LINK'),
      fc.stringMatching(/^[A-Z]{1,12}$/),
    ),
  },
);
export const scenarioHeader = fc.oneof(
  { weight: 6, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: scenarioValue },
);
/** On the submit routes: more often, and the 5xx-asking ones in particular. */
export const submitScenarioHeader = fc.oneof(
  { weight: 4, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: scenarioValue },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'fail-at-submit:500',
      'fail-at-submit:502',
      'fail-at-submit:503',
      'fail-at-submit:504',
      'fail-at-submit:599',
      'flaky',
      'flaky:1',
      'rate-limit',
    ),
  },
);
export const extraHeaders = fc.oneof(
  { weight: 3, arbitrary: fc.constant([]) },
  { weight: 2, arbitrary: fc.array(extraHeader, { maxLength: 4 }) },
);
