import SwaggerParser from '@apidevtools/swagger-parser';
import { fileURLToPath } from 'node:url';
import serviceSpecJson from '../generated/openapi.json' with { type: 'json' };
import controlSpecJson from '../generated/mock-control.json' with { type: 'json' };
import type { OpenApiDocument } from './spec-types.ts';

export const SERVICE_SPEC_PATH = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));
export const CONTROL_SPEC_PATH = fileURLToPath(
  new URL('../../spec/mock-control.yaml', import.meta.url),
);

/**
 * The service contract (`spec/openapi.yaml`), validated and dereferenced by swagger-parser at
 * `npm run generate` time and committed as JSON, so loading it is synchronous and costs no YAML parse.
 */
export const serviceSpec = serviceSpecJson as unknown as OpenApiDocument;

/** The mock's control API (`spec/mock-control.yaml`), prepared the same way. */
export const controlSpec = controlSpecJson as unknown as OpenApiDocument;

/**
 * Validates an OpenAPI file against the OpenAPI schema and returns it dereferenced.
 * Throws with swagger-parser's message (which names the failing JSON pointer) when it is invalid.
 */
export async function loadSpecFile(path: string): Promise<OpenApiDocument> {
  const api = await SwaggerParser.validate(path);
  return (await SwaggerParser.dereference(api)) as unknown as OpenApiDocument;
}
