// The body a call carries, chosen by its route: submissions, control bodies or anything else.
import fc from 'fast-check';
import type { BodySpec } from './call-types.ts';
import { CONTROL_BODY_TEMPLATES, SUBMIT_TEMPLATES } from './fuzz-names.ts';
import { anyJson, nativeBody, prompt, submissionBody } from './submission-arbitraries.ts';
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

export function bodyFor(template: string): fc.Arbitrary<BodySpec> {
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
