import { fileURLToPath } from 'node:url';
import type { OpenApiDocument } from './spec-types.ts';

/** Node only: where the specs are on disk (`videotask lint-spec`, the mock's `/docs`). */
export const SERVICE_SPEC_PATH = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));
export const CONTROL_SPEC_PATH = fileURLToPath(
  new URL('../../spec/mock-control.yaml', import.meta.url),
);

/**
 * Validates an OpenAPI file against the OpenAPI schema and returns it dereferenced.
 * Throws with swagger-parser's message (which names the failing JSON pointer) when it is invalid.
 * swagger-parser is loaded on the first call only: it `require`s an ES module, which Jest's module
 * system refuses on Node < 24.9, so loading it with `videotask` broke every Jest test importing it.
 */
export async function loadSpecFile(path: string): Promise<OpenApiDocument> {
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  const api = await SwaggerParser.validate(path);
  return (await SwaggerParser.dereference(api)) as unknown as OpenApiDocument;
}

/** Node only: the service's own document (the contract) as kept beside the spec. */
export const SERVICE_DOCUMENT_PATH = fileURLToPath(
  new URL('../../spec/service-document.md', import.meta.url),
);
