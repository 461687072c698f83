// What the client judge's fuzz test sends (issue 33): requests and answers that are deep, long or
// malformed, built as text where fast-check's own recursive arbitraries would be slow at such depths.
import fc from 'fast-check';
import { ROUTES } from '../../mocks/core/route-table.ts';
import { BUILT_IN_KEYS } from './fuzz-names.ts';

const encoder = new TextEncoder();

/** How deep a generated nesting goes: mostly shallow, sometimes past the limit (64), sometimes far past it. */
const depth = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 0, max: 70 }) },
  { weight: 4, arbitrary: fc.integer({ min: 60, max: 300 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 20_000 }) },
);

/** JSON text nesting arrays and objects `levels` deep around a leaf (built as text: linear, no recursion). */
export const deepJson: fc.Arbitrary<string> = fc
  .record({
    levels: depth,
    objects: fc.boolean(),
    leaf: fc.constantFrom('1', '"x"', 'null', '{}', '[]', '"sk-mock-alice"'),
  })
  .map(({ levels, objects, leaf }) =>
    objects
      ? `${'{"a":'.repeat(levels)}${leaf}${'}'.repeat(levels)}`
      : `${'['.repeat(levels)}${leaf}${']'.repeat(levels)}`,
  );

/** A long text: up to 200,000 characters, of one character or a repeated word. */
export const longText: fc.Arbitrary<string> = fc
  .record({
    length: fc.oneof(
      { weight: 12, arbitrary: fc.integer({ min: 0, max: 300 }) },
      { weight: 4, arbitrary: fc.integer({ min: 1_000, max: 20_000 }) },
      { weight: 1, arbitrary: fc.integer({ min: 100_000, max: 200_000 }) },
    ),
    unit: fc.constantFrom('a', ' ', '\n', 'é', '🎬', '[mock:', 'task_', '%', '\\', '"', '\u0000'),
  })
  .map(({ length, unit }) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));

/** JSON text that is not valid JSON, or only just. */
export const malformedJson: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    '{',
    '{"model":',
    '{"model":"video-pro-v1","prompt":"a',
    '{"prompt":"\\u12"}',
    '{"a":NaN}',
    '[1,2,,3]',
    '{"a":1}}',
    '\uFEFF{"model":"video-pro-v1","prompt":"x"}',
    '{"model":"video-pro-v1","prompt":"x","model":"other"}',
    'null',
    '"just a string"',
    '1e999',
  ),
  deepJson.map((text) => text.slice(0, Math.max(0, text.length - 1))),
  fc.string({ maxLength: 200 }),
);

/** Mostly a model every built-in key may use: a submission the judge sees whole, not refused first. */
const model = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('video-pro-v1', 'video-lite-v1') },
  { weight: 1, arbitrary: fc.constantFrom('alt-video-v2', 'unknown-model', '') },
);

/** Often rare and odd: present one time in `1 + rare`, else left out. */
function sometimes<T>(value: fc.Arbitrary<T>, rare = 3): fc.Arbitrary<T | undefined> {
  return fc.oneof(
    { weight: rare, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: value },
  );
}

/** A field nesting far past the project's depth limit: what killed the mock through the judge (issue 33 item 1). */
const veryDeep = fc
  .integer({ min: 5_000, max: 12_000 })
  .map((levels) => `${'['.repeat(levels)}1${']'.repeat(levels)}`);

/**
 * A submission body: mostly a valid one carrying a deep, very deep, long or odd field where the document
 * allows any (`metadata`) and where it names none (an unknown field); else deep or malformed JSON.
 */
export const submissionText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record({
        model,
        prompt: fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom('a kite', '[mock:fail]', '[mock:flaky:2]') },
          { weight: 1, arbitrary: longText },
        ),
        extra: fc.oneof(deepJson, veryDeep, fc.constant('1')),
        where: fc.constantFrom('metadata', 'unknown', 'both'),
        seconds: sometimes(fc.constantFrom('"4"', '4', '"x"', '-1', '1e308', '[]')),
      })
      .map(({ model, prompt, extra, where, seconds }) => {
        const fields = [`"model":${JSON.stringify(model)}`, `"prompt":${JSON.stringify(prompt)}`];
        if (seconds !== undefined) fields.push(`"seconds":${seconds}`);
        if (where !== 'unknown') fields.push(`"metadata":{"extra":${extra}}`);
        if (where !== 'metadata') fields.push(`"unknown_field":${extra}`);
        return `{${fields.join(',')}}`;
      }),
  },
  { weight: 1, arbitrary: deepJson },
  { weight: 1, arbitrary: malformedJson },
);

/** Keys: the built-in ones (the judge's callers), made-up ones, and broken Authorization values. */
export const authorization: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...BUILT_IN_KEYS).map((k) => `Bearer ${k}`) },
  { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 60 }).map((k) => `Bearer sk-${k}`) },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.constantFrom(undefined, '', 'Bearer', 'Bearer ', 'Basic abc', 'bearer sk-mock-alice'),
      longText.map((t) => `Bearer ${t}`),
    ),
  },
);

/** A header value: ordinary, long, or odd. */
const headerValue = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('req-1', 'req-2', 'a', '') },
  { weight: 1, arbitrary: longText.map((t) => t.replace(/[\r\n\u0000]/g, ' ')) },
  { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
);

/** Paths of the service and near misses; `{id}` is filled with a task ID of the case or a made-up one. */
const PATHS = [
  '/v1/videos',
  '/v1/video/generations',
  '/v1/videos/{id}',
  '/v1/video/generations/{id}',
  '/v1/videos/{id}/content',
  '/v1/models',
  '/alt-video/api/v3/contents/generations/tasks',
  '/alt-video/api/v3/contents/generations/tasks/{id}',
  '/v1/videos/{id}/',
  '/V1/MODELS',
];

export interface JudgeCall {
  readonly method: string;
  readonly path: string;
  /** Which task fills `{id}`: an index into the case's tasks, or a made-up ID. */
  readonly task: number | string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string | undefined;
  /** Simulated milliseconds before the call. */
  readonly advance: number;
}

export const judgeCall: fc.Arbitrary<JudgeCall> = fc.record({
  method: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom('GET', 'POST') },
    { weight: 1, arbitrary: fc.constantFrom('HEAD', 'PUT', 'DELETE', 'OPTIONS') },
  ),
  path: fc.oneof(
    // The submission paths most: a submission is what the judge fingerprints.
    { weight: 2, arbitrary: fc.constantFrom('/v1/videos', '/v1/video/generations') },
    { weight: 3, arbitrary: fc.constantFrom(...PATHS) },
  ),
  task: fc.oneof(
    { weight: 6, arbitrary: fc.nat(4) },
    { weight: 1, arbitrary: fc.oneof(longText, fc.constantFrom('task_x', '%', '..', '%E0%A4%A')) },
  ),
  headers: fc.record({
    authorization,
    'content-type': fc.oneof(
      { weight: 6, arbitrary: fc.constant('application/json') },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          undefined,
          'application/json; charset=utf-8',
          'text/plain',
          'multipart/form-data; boundary=x',
          '',
        ),
      },
    ),
    'x-request-id': sometimes(headerValue, 1),
    'idempotency-key': sometimes(headerValue),
    'x-mock-scenario': sometimes(
      fc.oneof(fc.constantFrom('flaky:2', 'fail', 'unknown:5'), headerValue),
    ),
    range: sometimes(fc.constantFrom('bytes=0-0', 'bytes=5-', 'bytes=x', 'bytes=0-1,2-3')),
    origin: sometimes(fc.constantFrom('https://app.example', 'null')),
  }),
  body: fc.option(submissionText, { nil: undefined, freq: 4 }),
  advance: fc.oneof(
    { weight: 3, arbitrary: fc.constant(0) },
    { weight: 3, arbitrary: fc.integer({ min: 1, max: 40_000 }) },
    { weight: 1, arbitrary: fc.integer({ min: 60_000, max: 86_400_000 }) },
  ),
});

/** An answer a host could hand the judge: any status, odd headers, a deep, long, malformed or binary body. */
export interface JudgeAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array | undefined;
  /** The operation it answered, or none (a path no route has). */
  readonly operationId: string | undefined;
}

export const judgeAnswer: fc.Arbitrary<JudgeAnswer> = fc.record({
  status: fc.oneof(
    fc.constantFrom(200, 206, 302, 307, 400, 401, 403, 404, 410, 413, 416, 429, 500, 503),
    fc.integer({ min: 100, max: 599 }),
  ),
  headers: fc.record(
    {
      'content-type': fc.constantFrom('application/json', 'video/mp4', 'text/html', '', 'x'),
      location: fc.oneof(
        fc.constantFrom('/__artifacts/a.mp4', 'https://cdn.example/v.mp4', 'http://[::1', '%', ''),
        longText,
      ),
      'retry-after': fc.constantFrom('2', '-1', 'soon', '1e309', 'Wed, 21 Oct 2015 07:28:00 GMT'),
      'content-range': fc.constantFrom('bytes 0-0/10', 'bytes */10', 'x'),
    },
    { requiredKeys: [] },
  ),
  body: fc.oneof(
    fc.constant(undefined),
    deepJson,
    malformedJson,
    longText,
    submissionText,
    fc.uint8Array({ maxLength: 64 }),
    fc
      .record({
        id: fc.oneof(longText, fc.constant('task_x')),
        status: fc.string({ maxLength: 20 }),
      })
      .map((task) => JSON.stringify({ ...task, object: 'video', progress: 50 })),
  ),
  operationId: fc.option(fc.constantFrom(...new Set(ROUTES.map((r) => r.operationId))), {
    nil: undefined,
  }),
});

export const bytesOf = (text: string | undefined) =>
  text === undefined ? undefined : encoder.encode(text);
