/**
 * fast-check generators for the mock's fuzzers (test/fuzz/*.test.ts, scripts/fuzz.ts). A generated
 * call is abstract: it names a route template and refers to tasks by position ("a task of the caller",
 * "a task of someone else"); `FuzzWorld.resolve` turns it into a concrete request against the tasks that
 * exist at that moment, so a shrunk case still means the same thing.
 */
import fc from 'fast-check';
import { BUILT_IN_MODELS } from '../../mocks/core/catalog.ts';
import { ROUTES } from '../../mocks/core/route-table.ts';
import { SCENARIOS } from '../../mocks/core/scenarios.ts';
import type { MockToken } from '../../mocks/core/tokens.ts';

export const BUILT_IN_KEYS = [
  'sk-mock-alice',
  'sk-mock-bob',
  'sk-mock-vip',
  'sk-mock-limited',
  'sk-mock-broke',
] as const;
export const ADMIN_TOKEN = 'fuzz-admin-token';

/** Every template of the route table (so a new route is fuzzed without touching this file), plus near misses. */
const ROUTE_TEMPLATES = [...new Set(ROUTES.map((r) => r.template))];
const NEAR_MISSES = [
  '/',
  '/v1',
  '/v1/',
  '/v1/videos',
  '/v1/video',
  '/v1/models/{x}',
  '/v1/videos/{task_id}/content/{x}',
  '/v1/video/generations/{task_id}/content',
  '/v1/videos/{task_id}/{x}',
  '/v2/videos/{task_id}',
  '/__mock',
  '/__mock/{x}',
  '/__mock/tasks/{task_id}/{x}',
  '/__mock/clock/{x}',
  '/__artifacts',
  '/__artifacts/{file}/{x}',
  '/{x}',
  '/{x}/{x}',
  '/{plugin_name}/api/v3/contents/generations',
  '/{plugin_name}/api/v3/contents/generations/tasks/{task_id}/{x}',
  '/docs',
  '/favicon.ico',
];
export const TEMPLATES: readonly string[] = [...ROUTE_TEMPLATES, ...NEAR_MISSES];
const SUBMIT_TEMPLATES = new Set(
  ROUTES.filter((r) => r.method === 'POST' && r.access === 'service').map((r) => r.template),
);
const CONTROL_BODY_TEMPLATES = new Set(
  ROUTES.filter((r) => r.access === 'control' && r.method !== 'GET').map((r) => r.template),
);

/** The methods the route table gives a template (empty for a near miss). */
export function routeMethods(template: string): string[] {
  return ROUTES.filter((r) => r.template === template).map((r) => r.method);
}

export const MODEL_IDS = BUILT_IN_MODELS.map((m) => m.id);
export const SCENARIO_NAMES = SCENARIOS.map((s) => s.name);

// ---------------------------------------------------------------------------------------------------
// Calls

/** Which task a path parameter names, resolved when the call is made. */
export interface TaskRef {
  readonly who: 'own' | 'other' | 'any' | 'missing';
  readonly index: number;
}

export type IdMutation =
  | 'none'
  | 'upper'
  | 'truncate'
  | 'extend'
  | 'encode-one'
  | 'encode-all'
  | 'broken-escape'
  | 'space'
  | 'unicode'
  | 'long'
  | 'nul'
  | 'dot-dot'
  | 'empty';

export type Segment =
  | { readonly kind: 'task'; readonly ref: TaskRef; readonly mutation: IdMutation }
  | {
      readonly kind: 'artifact';
      readonly ref: TaskRef;
      readonly variant: 'valid' | 'expired' | 'forged' | 'bare' | 'no-ext';
    }
  | { readonly kind: 'text'; readonly text: string };

export type PathShape =
  | 'none'
  | 'trailing-slash'
  | 'double-slash'
  | 'leading-double-slash'
  | 'dot'
  | 'dot-dot'
  | 'upper'
  | 'encode-literal'
  | 'no-leading-slash'
  | 'absolute'
  | 'fragment'
  | 'backslash';

export type AuthSpec =
  | { readonly kind: 'none' }
  | { readonly kind: 'key'; readonly index: number; readonly scheme: string }
  | { readonly kind: 'admin' }
  | { readonly kind: 'raw'; readonly value: string };

export type BodySpec =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'json';
      readonly value: unknown;
      readonly encoding: 'utf8' | 'utf8-bom' | 'utf16le' | 'latin1';
    }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'bytes'; readonly bytes: Uint8Array }
  /** A valid submission padded to the body limit plus `delta` bytes. */
  | { readonly kind: 'sized'; readonly delta: number; readonly model: string };

export interface CallSpec {
  readonly template: string;
  /** `null`: one of the template's own methods (`methodIndex`), else this method. */
  readonly method: string | null;
  readonly methodIndex: number;
  readonly params: readonly Segment[];
  readonly shape: PathShape;
  readonly query: string;
  readonly auth: AuthSpec;
  /** `null`: no Content-Type header. */
  readonly contentType: string | null;
  /** `null`: no X-Mock-Scenario header. */
  readonly scenario: string | null;
  readonly extraHeaders: readonly (readonly [string, string])[];
  readonly body: BodySpec;
}

const taskRef: fc.Arbitrary<TaskRef> = fc.record({
  who: fc.oneof(
    { weight: 5, arbitrary: fc.constant('own' as const) },
    { weight: 3, arbitrary: fc.constant('other' as const) },
    { weight: 1, arbitrary: fc.constant('any' as const) },
    { weight: 1, arbitrary: fc.constant('missing' as const) },
  ),
  index: fc.nat(7),
});

const idMutation: fc.Arbitrary<IdMutation> = fc.oneof(
  { weight: 12, arbitrary: fc.constant('none' as const) },
  {
    weight: 4,
    arbitrary: fc.constantFrom<IdMutation>(
      'upper',
      'truncate',
      'extend',
      'encode-one',
      'encode-all',
      'broken-escape',
      'space',
      'unicode',
      'long',
      'nul',
      'dot-dot',
      'empty',
    ),
  },
);

/** Path text: escapes valid and broken, dot segments, unicode (raw and escaped), very long. */
const segmentText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    '.',
    '..',
    '%2e%2e',
    '%2F',
    '%2f..%2f',
    '%',
    '%z',
    '%zz',
    '%E0%A4%A',
    '%C0%AF',
    '%00',
    '%FF',
    '%ff%fe',
    'task_',
    'alt-video',
    'ALT-VIDEO',
    'v1',
    'videos',
    'content',
    '__mock',
    'tasks',
    'health',
    'task_%41',
    '%F0%9F%8E%A5',
    '🎥',
    'é',
    '\u0000',
    ' ',
    '%20',
    '+',
    ';',
    'a;b=c',
    '*',
    '~',
  ),
  fc.webSegment(),
  fc.string({ unit: 'grapheme', maxLength: 12 }).map(encodeURIComponent),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.string({ unit: 'binary-ascii', maxLength: 12 }),
  fc.integer({ min: 100, max: 9000 }).map((n) => 'x'.repeat(n)),
);

function segmentFor(name: string): fc.Arbitrary<Segment> {
  const text = segmentText.map((t): Segment => ({ kind: 'text', text: t }));
  if (name === 'task_id')
    return fc.oneof(
      {
        weight: 8,
        arbitrary: fc.record({
          kind: fc.constant('task' as const),
          ref: taskRef,
          mutation: idMutation,
        }),
      },
      { weight: 2, arbitrary: text },
    );
  if (name === 'file')
    return fc.oneof(
      {
        weight: 8,
        arbitrary: fc.record({
          kind: fc.constant('artifact' as const),
          ref: taskRef,
          variant: fc.constantFrom<'valid' | 'expired' | 'forged' | 'bare' | 'no-ext'>(
            'valid',
            'valid',
            'expired',
            'forged',
            'bare',
            'no-ext',
          ),
        }),
      },
      { weight: 2, arbitrary: text },
    );
  if (name === 'plugin_name')
    return fc.oneof(
      { weight: 8, arbitrary: fc.constant<Segment>({ kind: 'text', text: 'alt-video' }) },
      { weight: 2, arbitrary: text },
    );
  return text;
}

const pathShape: fc.Arbitrary<PathShape> = fc.oneof(
  { weight: 24, arbitrary: fc.constant('none' as const) },
  {
    weight: 3,
    arbitrary: fc.constantFrom<PathShape>(
      'trailing-slash',
      'double-slash',
      'leading-double-slash',
      'dot',
      'dot-dot',
      'upper',
      'encode-literal',
      'no-leading-slash',
      'absolute',
      'fragment',
      'backslash',
    ),
  },
);

const queryText: fc.Arbitrary<string> = fc.oneof(
  { weight: 10, arbitrary: fc.constant('') },
  {
    weight: 4,
    arbitrary: fc.oneof(
      fc.constantFrom(
        'owner=alice',
        'owner=bob',
        'owner=',
        'owner=%zz',
        'expires=1&sig=x',
        '%',
        '&&&',
        '=',
        'a=1&a=2',
        'x=%E0%A4%A',
        '?',
        'q=🎥',
        'limit=-1',
      ),
      fc.webQueryParameters(),
      fc.string({ unit: 'binary-ascii', maxLength: 30 }),
      fc.integer({ min: 1000, max: 9000 }).map((n) => `x=${'y'.repeat(n)}`),
    ),
  },
);

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

function authSpec(keyCount: number): fc.Arbitrary<AuthSpec> {
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

const contentType: fc.Arbitrary<string | null> = fc.oneof(
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

// Bodies ----------------------------------------------------------------------------------------------

const anyJson = fc.jsonValue({ maxDepth: 3 });

const modelName: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom(...MODEL_IDS) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'gpt-4',
      '',
      'VIDEO-PRO-V1',
      ' video-pro-v1',
      'video-pro-v1 ',
      'alt-video',
      'sora-2',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: anyJson },
);

const scenarioTag = scenarioValue.map((s) => `[mock:${s}]`);
const prompt: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.constantFrom('a red kite over a green hill', 'waves on black sand', 'x'),
  },
  {
    weight: 3,
    arbitrary: fc.tuple(fc.constantFrom('a kite ', ''), scenarioTag).map(([p, t]) => `${p}${t}`),
  },
  { weight: 2, arbitrary: fc.constantFrom('', '   ', '\t\n', '\u00a0', '\u200b') },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: anyJson },
);

const url = fc.oneof(
  fc.constantFrom(
    'https://img.test/a.png',
    'http://img.test/b.jpg',
    'asset://abc',
    'data:image/png;base64,AAAA',
    'ftp://x/y',
    '',
    'https://',
    'blob:x',
    'file:///etc/passwd',
    'HTTPS://IMG.TEST/C.PNG',
  ),
  fc.webUrl(),
);
const contentItem: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ type: fc.constant('image_url'), image_url: fc.record({ url }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ type: fc.constant('video_url'), video_url: fc.record({ url }) }),
  },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('text'), text: prompt }) },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        type: fc.constantFrom('image_url', 'video_url', 'audio_url', 'text', ''),
        image_url: anyJson,
        video_url: anyJson,
        text: anyJson,
      },
      { requiredKeys: ['type'] },
    ),
  },
  { weight: 1, arbitrary: anyJson },
);
const contentList = fc.oneof(
  { weight: 6, arbitrary: fc.array(contentItem, { maxLength: 4 }) },
  { weight: 1, arbitrary: anyJson },
);

const duration = fc.oneof(
  fc.integer({ min: -5, max: 4000 }),
  fc.constantFrom(4, 5, 12, 13, 0, 3600, 3601, 1e308, -0, 0.5),
  fc.double({ noNaN: true }),
  anyJson,
);

const metadata = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      {
        duration,
        resolution: fc.oneof(fc.constantFrom('480p', '720p', '1080p', '4k', ''), anyJson),
        ratio: fc.oneof(fc.constantFrom('16:9', '9:16', 'adaptive', '1:1', 'x', ''), anyJson),
        generate_audio: fc.oneof(fc.boolean(), anyJson),
        content: contentList,
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: anyJson },
);

const extraFields = fc.dictionary(
  fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.constantFrom('__proto__', 'constructor', 'toString', 'task_id', 'id', 'user', 'owner'),
  ),
  anyJson,
  { maxKeys: 3 },
);

/** OpenAI-form submissions (§2.1), near valid: every field sometimes missing, mistyped or out of range. */
export const submissionBody: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.record(
      {
        model: modelName,
        prompt,
        seconds: fc.oneof(
          fc.constantFrom(
            '5',
            '0',
            '3601',
            'abc',
            '',
            ' 5',
            '1e3',
            '-1',
            '4',
            '12',
            '13',
            'NaN',
            'Infinity',
          ),
          anyJson,
        ),
        size: fc.oneof(fc.constantFrom('1280x720', '720x1280', ''), anyJson),
        image: fc.oneof(url, anyJson),
        images: fc.oneof(fc.array(url, { maxLength: 3 }), anyJson),
        duration: fc.oneof(fc.integer({ min: -1, max: 20 }), anyJson),
        metadata,
      },
      { requiredKeys: [] },
    ),
    fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: extraFields }),
    fc.boolean(),
  )
  .map(([fields, extra, keepCore]) => {
    const body: Record<string, unknown> = { ...extra, ...fields };
    // Mostly keep the two required fields, so the later checks are reached too.
    if (keepCore) {
      body['model'] ??= 'video-pro-v1';
      body['prompt'] ??= 'a red kite';
    }
    return body;
  });

/** Native-path submissions (§4.5, upstream shape), near valid, sometimes mixed with the OpenAI form. */
export const nativeBody: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.record(
      {
        model: fc.oneof(
          {
            weight: 6,
            arbitrary: fc.constantFrom('alt-video-v2', 'alt-video-v2-fast', 'alt-video-v2.5'),
          },
          { weight: 2, arbitrary: modelName },
        ),
        content: fc.oneof(
          {
            weight: 6,
            arbitrary: fc
              .tuple(prompt, fc.array(contentItem, { maxLength: 3 }))
              .map(([p, rest]) => [{ type: 'text', text: p }, ...rest]),
          },
          { weight: 2, arbitrary: contentList },
        ),
        duration,
        resolution: fc.oneof(fc.constantFrom('480p', '720p', '1080p', '4k'), anyJson),
        ratio: fc.oneof(fc.constantFrom('16:9', 'adaptive', '9:16', 'wide'), anyJson),
        generate_audio: fc.oneof(fc.boolean(), anyJson),
        prompt,
        metadata,
      },
      { requiredKeys: ['model', 'content'] },
    ),
    fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: extraFields }),
    fc.boolean(),
  )
  .map(([fields, extra, native]) => {
    const body: Record<string, unknown> = { ...extra, ...fields };
    if (native) {
      delete body['prompt'];
      delete body['metadata'];
    }
    return body;
  });

/** Control API bodies: clock, family, forced outcomes, with wrong types and extremes. */
export const controlBody: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      ms: fc.oneof(
        { weight: 8, arbitrary: fc.nat(600_000) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(0, -1, 1.5, 1e308, Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, '10'),
        },
        { weight: 1, arbitrary: anyJson },
      ),
    },
    { requiredKeys: [] },
  ),
  fc.record({ ms: fc.nat(1000), extra: anyJson }),
  fc.record(
    { bound: fc.oneof({ weight: 4, arbitrary: fc.boolean() }, { weight: 1, arbitrary: anyJson }) },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      outcome: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom('succeed', 'fail', 'stuck') },
        { weight: 1, arbitrary: anyJson },
      ),
      code: fc.oneof(fc.constantFrom('InternalServiceError', 'X', ''), anyJson),
      message: fc.oneof(fc.constantFrom('boom', ''), anyJson),
      afterMs: fc.oneof(fc.nat(120_000), fc.constantFrom(-1, 0.5, 1e308), anyJson),
      extra: anyJson,
    },
    { requiredKeys: [] },
  ),
);

function jsonBody(value: fc.Arbitrary<unknown>): fc.Arbitrary<BodySpec> {
  return fc.record({
    kind: fc.constant('json' as const),
    value,
    encoding: fc.oneof(
      { weight: 12, arbitrary: fc.constant('utf8' as const) },
      {
        weight: 1,
        arbitrary: fc.constantFrom<'utf8-bom' | 'utf16le' | 'latin1'>(
          'utf8-bom',
          'utf16le',
          'latin1',
        ),
      },
    ),
  });
}

const otherBodies: fc.Arbitrary<BodySpec> = fc.oneof(
  { weight: 3, arbitrary: jsonBody(anyJson) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        fc.constantFrom(
          '',
          ' ',
          '{',
          '{"model":',
          '{"model":"video-pro-v1","prompt":"a"',
          'null',
          '[]',
          '"x"',
          '1e999',
          '{"a":1}{"b":2}',
          'model=video-pro-v1&prompt=a',
          '{"prompt":"\\ud800"}',
          '\ufeff{}',
          '{"model":"video-pro-v1","prompt":"a",}',
        ),
        fc.json().map((j) => j.slice(0, Math.max(0, j.length - 1))),
        fc.string({ unit: 'grapheme', maxLength: 60 }),
      )
      .map((text): BodySpec => ({ kind: 'text', text })),
  },
  {
    weight: 2,
    arbitrary: fc
      .uint8Array({ maxLength: 200 })
      .map((bytes): BodySpec => ({ kind: 'bytes', bytes })),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('sized' as const),
      delta: fc.constantFrom(-1, 0, 1, 2, 100, 5000, 70_000),
      model: fc.constantFrom('video-pro-v1', 'alt-video-v2'),
    }),
  },
);

function bodyFor(template: string): fc.Arbitrary<BodySpec> {
  const none = fc.constant<BodySpec>({ kind: 'none' });
  if (SUBMIT_TEMPLATES.has(template)) {
    const openai = template.startsWith('/v1/');
    const shaped = openai ? submissionBody : nativeBody;
    const other = openai ? nativeBody : submissionBody;
    // A valid body now and then, so the checks after validation (quota, upstream, scenarios) are reached.
    const valid = openai
      ? fc.record({
          model: fc.constantFrom('video-pro-v1', 'video-lite-v1', 'alt-video-v2'),
          prompt: prompt.filter((p) => typeof p === 'string' && p.trim() !== ''),
        })
      : fc.record({
          model: fc.constantFrom('alt-video-v2', 'alt-video-v2-fast'),
          content: fc.constant([{ type: 'text', text: 'a kite' }]),
        });
    return fc.oneof(
      { weight: 12, arbitrary: jsonBody(shaped) },
      { weight: 6, arbitrary: jsonBody(valid) },
      { weight: 2, arbitrary: jsonBody(other) },
      { weight: 4, arbitrary: otherBodies },
      { weight: 1, arbitrary: none },
    );
  }
  if (CONTROL_BODY_TEMPLATES.has(template))
    return fc.oneof(
      { weight: 10, arbitrary: jsonBody(controlBody) },
      { weight: 3, arbitrary: otherBodies },
      { weight: 1, arbitrary: none },
    );
  return fc.oneof(
    { weight: 10, arbitrary: none },
    { weight: 2, arbitrary: otherBodies },
    { weight: 1, arbitrary: jsonBody(submissionBody) },
  );
}

const method = fc.oneof(
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
const scenarioHeader = fc.oneof(
  { weight: 6, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: scenarioValue },
);
/** On the submit routes: more often, and the 5xx-asking ones in particular. */
const submitScenarioHeader = fc.oneof(
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
const extraHeaders = fc.oneof(
  { weight: 3, arbitrary: fc.constant([]) },
  { weight: 2, arbitrary: fc.array(extraHeader, { maxLength: 4 }) },
);

function templateCall(template: string, keyCount: number): fc.Arbitrary<CallSpec> {
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return fc.record({
    template: fc.constant(template),
    method,
    methodIndex: fc.nat(1),
    params: fc.tuple(...names.map(segmentFor)),
    shape: pathShape,
    query: queryText,
    auth: authSpec(keyCount),
    contentType,
    scenario: SUBMIT_TEMPLATES.has(template) ? submitScenarioHeader : scenarioHeader,
    extraHeaders,
    body: bodyFor(template),
  });
}

/** One fuzzed call for a world with `keyCount` keys: a route of the table (mostly) or a near miss. */
export function callSpec(keyCount: number): fc.Arbitrary<CallSpec> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.oneof(...ROUTE_TEMPLATES.map((t) => templateCall(t, keyCount))) },
    { weight: 1, arbitrary: fc.oneof(...NEAR_MISSES.map((t) => templateCall(t, keyCount))) },
  );
}

// ---------------------------------------------------------------------------------------------------
// Worlds

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
