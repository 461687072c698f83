import { describe, expect, it } from 'vitest';
import { SpecValidators, serviceSpec, type JsonSchema } from '../../src/spec/index.ts';
import { readServiceDocument, sectionsOf } from '../helpers/service-document.ts';

// The markings are load-bearing: contract checks fail on `x-source` rules and only warn on
// `x-documented: false` ones. Everything must carry one or the other, and every section cited must exist.
const sections = sectionsOf(readServiceDocument());
const validators = new SpecValidators(serviceSpec);
const marked = (node: { 'x-source'?: string; 'x-documented'?: boolean }) =>
  node['x-source'] !== undefined || node['x-documented'] === false;

function* citations(node: unknown, path: string): Generator<[string, string]> {
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'x-source') yield [path, String(value)];
    else yield* citations(value, `${path}/${key}`);
  }
}

describe('markings', () => {
  it.each(validators.operations().map((o) => [o.operationId, o] as const))(
    '%s has an operationId, bearer security and a basis',
    (_id, info) => {
      expect(info.operation.security).toEqual([{ bearerAuth: [] }]);
      expect(marked(info.operation)).toBe(true);
      for (const [status, response] of Object.entries(info.operation.responses))
        expect(marked(response), `${info.operationId} ${status}`).toBe(true);
    },
  );
  it('declares all seven operations of §4 plus the two assumed ones', () => {
    const ops = validators.operations().map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(ops).toEqual(
      expect.arrayContaining([
        'POST /v1/video/generations',
        'POST /v1/videos',
        'GET /v1/videos/{task_id}',
        'GET /v1/video/generations/{task_id}',
        'GET /v1/videos/{task_id}/content',
        'GET /v1/models',
        'POST /{plugin_name}/api/v3/contents/generations/tasks',
      ]),
    );
    const assumed = validators
      .operations()
      .filter((o) => !o.basis.documented)
      .map((o) => o.operationId);
    expect(assumed.sort()).toEqual(['getPluginTask', 'headVideoContent']);
  });
  it.each(Object.entries(serviceSpec.components!.schemas!))(
    'schema %s has a basis',
    (_name, schema: JsonSchema) => {
      expect(marked(schema as never)).toBe(true);
    },
  );
  it('cites only sections that exist in the service document', () => {
    const cited = [...citations(serviceSpec, '')];
    expect(cited.length).toBeGreaterThan(50);
    for (const [path, section] of cited)
      expect(sections.has(section), `${path} cites ${section}`).toBe(true);
  });
  it('marks every error status code the document does not state as an assumption', () => {
    // The document states only 200 on submission (§4.1), the 4xx class and 429 on submission (§7), temporary 5xx on
    // queries (§7), redirects on content (§4.4; its errors are JSON, but their codes are not shown). Every other
    // status code is the gateway's, and assumed.
    const documentedCodes = validators.operations().flatMap((o) =>
      Object.entries(o.operation.responses)
        .filter(([, r]) => r['x-documented'] !== false)
        .map(([s]) => `${o.operationId} ${s}`),
    );
    expect(documentedCodes.sort()).toEqual(
      [
        'createVideo 200',
        'createVideo 429',
        'createVideo 4XX',
        'createVideoGeneration 200',
        'createVideoGeneration 429',
        'createVideoGeneration 4XX',
        'getVideo 200',
        'getVideo 5XX',
        'getVideoGeneration 200',
        'getVideoGeneration 5XX',
        'getVideoContent 200',
        'getVideoContent 302',
        'headVideoContent 302',
        'listModels 200',
      ].sort(),
    );
  });
});

describe('x-second-family', () => {
  it('states the family as §1 does: three model IDs, plugin 1.0.5, channel types 54 and 61', async () => {
    const { SECOND_FAMILY } = await import('../../src/spec/index.ts');
    expect(SECOND_FAMILY).toMatchObject({
      models: ['alt-video-v2', 'alt-video-v2-fast', 'alt-video-v2.5'],
      pluginVersion: '1.0.5',
      builtInChannelType: 54,
      pluginChannelType: 61,
    });
    const doc = readServiceDocument();
    for (const model of SECOND_FAMILY.models) expect(doc).toContain(`\`${model}\``);
    expect(doc).toMatch(/enabled at version 1\.0\.5/);
    expect(doc).toMatch(/channel of type 54/);
    expect(doc).toMatch(/type 61/);
  });
});

describe('x-second-family.assumed', () => {
  it('marks the ranges and prices the document does not show as assumptions, one entry per model', async () => {
    const { SECOND_FAMILY } = await import('../../src/spec/index.ts');
    const raw = serviceSpec['x-second-family'] as { assumed: { 'x-documented'?: boolean } };
    expect(raw.assumed['x-documented']).toBe(false);
    expect(Object.keys(SECOND_FAMILY.assumed.models)).toEqual(SECOND_FAMILY.models);
    expect(readServiceDocument()).toMatch(
      /Permitted values for duration, resolution tiers and audio per model: not shown/,
    );
  });

  it.each([
    ['a model outside the family', { 'video-pro-v1': {} }, /outside the family/],
    [
      'a default outside its range',
      {
        'alt-video-v2': {
          resolutions: ['720p'],
          pricePerSecond: 1,
          duration: { min: 4, max: 12, default: 30 },
        },
      },
      /min ≤ default ≤ max/,
    ],
  ])('refuses %s', async (_name, models, message) => {
    const { readSecondFamily } = await import('../../src/spec/index.ts');
    const raw = serviceSpec['x-second-family'] as { assumed: { models: Record<string, unknown> } };
    const broken = {
      ...serviceSpec,
      'x-second-family': {
        ...raw,
        assumed: { ...raw.assumed, models: { ...raw.assumed.models, ...models } },
      },
    };
    expect(() => readSecondFamily(broken)).toThrow(message);
  });
});
