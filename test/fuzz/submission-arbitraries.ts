// Generators for submission bodies, OpenAI form (§2.1) and native path (§4.5), near valid.
import fc from 'fast-check';
import { scenarioValue } from './header-arbitraries.ts';
import { MODEL_IDS } from './fuzz-names.ts';
export const anyJson = fc.jsonValue({ maxDepth: 3 });

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
export const prompt: fc.Arbitrary<unknown> = fc.oneof(
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
