import { describe, expect, it } from 'vitest';
import { serviceContract, serviceSpec, type JsonSchema } from '../../src/spec/index.ts';
import { readServiceDocument, tablesUnder } from '../helpers/service-document.ts';

// Walks the field tables of the service document itself, so a field dropped from the spec (or a field
// added to the document) breaks the build.
const doc = readServiceDocument();
const schemas = serviceSpec.components!.schemas!;
const { lifecycle } = serviceContract();

const stripTicks = (s: string) => s.replace(/`/g, '');

function property(schema: JsonSchema, dotted: string): JsonSchema | undefined {
  let node: JsonSchema | undefined = schema;
  for (const part of dotted.split('.'))
    node = (node?.['properties'] as Record<string, JsonSchema> | undefined)?.[part];
  return node;
}

/** The document's type words, as the JSON Schema type (and item type) the spec must declare. */
function expectType(schema: JsonSchema | undefined, docType: string): void {
  expect(schema, `missing in spec`).toBeDefined();
  if (docType.endsWith('[]')) {
    expect(schema!['type']).toBe('array');
    expect((schema!['items'] as JsonSchema)['type']).toBe(docType.slice(0, -2));
  } else if (docType === 'string' && schema!['enum'] !== undefined) {
    expect((schema!['enum'] as unknown[]).every((v) => typeof v === 'string')).toBe(true);
  } else {
    expect(schema!['type']).toBe(docType);
  }
}

describe('§2.1 submission request', () => {
  const [table] = tablesUnder(doc, '2.1 Submission request (video task)');
  const request = schemas['SubmitRequest']!;
  it.each(table!.rows.map((r) => [stripTicks(r[0]!), r[1]!, r[2]!] as const))(
    'declares %s as %s, required: %s',
    (field, type, required) => {
      const schema = property(request, field);
      expectType(schema, type);
      expect(schema!['x-source']).toBe('§2.1');
      expect((request['required'] as string[]).includes(field)).toBe(required === 'yes');
    },
  );
  it('reads a blank prompt as empty (§7)', () => {
    expect(property(request, 'prompt')!['pattern']).toBe('\\S');
  });
});

describe('§2.1 known metadata keys', () => {
  const [, keys] = tablesUnder(doc, '2.1 Submission request (video task)');
  const metadata = schemas['SubmitMetadata']!;
  it('stays open to other keys (a channel reads only the fields it supports, §1)', () => {
    expect(metadata['additionalProperties']).toBe(true);
  });
  it.each(keys!.rows.map((r) => [stripTicks(r[0]!), r[1]!] as const))(
    'declares metadata.%s as %s',
    (key, type) => {
      const schema = property(metadata, key);
      expectType(schema, type);
      expect(schema!['x-source']).toBe('§2.1');
    },
  );
});

describe('§2.2 video task object', () => {
  const [table] = tablesUnder(doc, '2.2 Video task object (OpenAI-compatible form)');
  const task = schemas['VideoTask']!;
  const { always, onSubmission, byStatus } = lifecycle.presence;
  const presence = {
    always: (f: string) => always.fields.includes(f) && (task['required'] as string[]).includes(f),
    'on submission and completed responses': (f: string) =>
      onSubmission.fields.includes(f) &&
      byStatus.completed!.fields.includes(f) &&
      !always.fields.includes(f),
    'when completed': (f: string) =>
      byStatus.completed!.fields.includes(f) && !always.fields.includes(f),
    'when failed': (f: string) => byStatus.failed!.fields.includes(f) && !always.fields.includes(f),
  } as const;

  it.each(table!.rows.map((r) => [stripTicks(r[0]!), r[1]!, r[2]!, r[3]!] as const))(
    'declares %s as %s, present %s',
    (field, type, present, meaning) => {
      const schema = property(task, field);
      expectType(schema, type);
      expect(
        presence[present as keyof typeof presence],
        `unknown presence wording "${present}"`,
      ).toBeDefined();
      expect(presence[present as keyof typeof presence](field)).toBe(true);
      if (meaning.includes('`url`')) expect(byStatus.completed!.fields).toContain(`${field}.url`);
      if (meaning.includes('{code: string, message: string}')) {
        expect(property(task, `${field}.code`)!['type']).toBe('string');
        expect(property(task, `${field}.message`)!['type']).toBe('string');
        expect(byStatus.failed!.fields).toEqual(
          expect.arrayContaining([`${field}.code`, `${field}.message`]),
        );
      }
    },
  );
  it('fixes object to "video" and progress to 0..100', () => {
    expect(property(task, 'object')!['const']).toBe('video');
    expect(property(task, 'progress')).toMatchObject({ minimum: 0, maximum: 100 });
  });
  it('lists the five OpenAI states of §3', () => {
    const states = tablesUnder(doc, '3. States and transitions')[0]!.rows.map((r) =>
      stripTicks(r[0]!),
    );
    expect(schemas['VideoStatus']!['enum']).toEqual(states);
    // x-lifecycle.states holds them in the order a task passes them (unknown first; decisions/057).
    expect([...lifecycle.states.values].sort()).toEqual([...states].sort());
  });
});

describe('§2.3 generic task wrapper', () => {
  const [table] = tablesUnder(doc, '2.3 Generic task wrapper');
  const wrapper = schemas['TaskWrapper']!;
  it('is {code, message, data}', () => {
    expect(wrapper['required']).toEqual(['code', 'message', 'data']);
  });
  it.each(table!.rows.map((r) => [stripTicks(r[0]!), r[1]!] as const))(
    'declares %s as %s',
    (field, type) => {
      const schema = property(wrapper, field);
      expectType(schema, type);
      expect(schema!['x-source']).toBe('§2.3');
    },
  );
  it('reads progress as `<n>%`', () => {
    const pattern = new RegExp(property(wrapper, 'data.progress')!['pattern'] as string);
    expect(['0%', '42%', '100%'].every((p) => pattern.test(p))).toBe(true);
    expect(['42', '101%', '-1%', '4.2%'].some((p) => pattern.test(p))).toBe(false);
  });
  it('keeps the wrapper status set open and uppercase (§2.3, §3)', () => {
    const pattern = new RegExp(property(wrapper, 'data.status')!['pattern'] as string);
    for (const s of ['QUEUED', 'IN_PROGRESS', 'SUCCESS', 'FAILURE', 'NOT_START'])
      expect(pattern.test(s)).toBe(true);
    expect(pattern.test('queued')).toBe(false);
  });
});
