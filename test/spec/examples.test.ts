import { describe, expect, it } from 'vitest';
import { SpecValidators, serviceSpec, type MediaTypeObject } from '../../src/spec/index.ts';
import {
  CONTROL_SPEC_PATH,
  SERVICE_SPEC_PATH,
  loadSpecFile,
} from '../../src/spec/load-spec-file.ts';

// Every example in the spec, found by walking each operation's request body, responses and parameters.
interface FoundExample {
  readonly where: string;
  readonly value: unknown;
  readonly media: MediaTypeObject;
}

const validators = new SpecValidators(serviceSpec);
const found: FoundExample[] = [];
for (const info of validators.operations()) {
  const { operation, operationId } = info;
  for (const [type, media] of Object.entries(operation.requestBody?.content ?? {}))
    for (const [name, example] of Object.entries(media.examples ?? {}))
      found.push({ where: `${operationId} request ${type} ${name}`, value: example.value, media });
  for (const [status, response] of Object.entries(operation.responses))
    for (const [type, media] of Object.entries(response.content ?? {}))
      for (const [name, example] of Object.entries(media.examples ?? {}))
        found.push({
          where: `${operationId} ${status} ${type} ${name}`,
          value: example.value,
          media,
        });
}

describe('the spec documents', () => {
  it.each([SERVICE_SPEC_PATH, CONTROL_SPEC_PATH])('%s is valid OpenAPI 3.1', async (path) => {
    const doc = await loadSpecFile(path);
    expect(doc.openapi).toBe('3.1.0');
  });
});

describe('examples', () => {
  it('exist for every operation', () => {
    for (const { operationId } of validators.operations()) {
      // Binary and header-only answers.
      if (operationId === 'headVideoContent' || operationId === 'getVideoContent') continue;
      expect(
        found.some((f) => f.where.startsWith(`${operationId} `)),
        operationId,
      ).toBe(true);
    }
  });
  it('cover a queued submission, an in-progress, a completed and a failed task, and the errors', () => {
    const statuses = found
      .filter((f) => f.where.startsWith('getVideo 200'))
      .map((f) => (f.value as { status: string }).status);
    expect(statuses).toEqual(
      expect.arrayContaining(['queued', 'in_progress', 'completed', 'failed']),
    );
    expect(
      found.some(
        (f) =>
          f.where.startsWith('createVideoGeneration 200') &&
          (f.value as { status: string }).status === 'queued',
      ),
    ).toBe(true);
    for (const status of ['400', '401', '403', '404', '413', '415', '429', '503', '5XX'])
      expect(
        found.some((f) => f.where.includes(` ${status} application/json `)),
        status,
      ).toBe(true);
  });
  it.each(found.map((f) => [f.where, f] as const))(
    '%s validates against its schema (documented and assumed rules)',
    (_where, example) => {
      const schema = validators.schemaValidator(example.media.schema!);
      expect(schema.validate(example.value).errors).toEqual([]);
      expect(schema.validateFull(example.value).errors).toEqual([]);
    },
  );
});
