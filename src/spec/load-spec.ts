import serviceSpecJson from '../generated/openapi.json' with { type: 'json' };
import controlSpecJson from '../generated/mock-control.json' with { type: 'json' };
import type { OpenApiDocument } from './spec-types.ts';

/**
 * The service contract (`spec/openapi.yaml`), validated and dereferenced by swagger-parser at
 * `npm run generate` time and committed as JSON, so loading it is synchronous, costs no YAML parse and
 * reads no file (this module runs in a browser too; the files themselves: `load-spec-file.ts`).
 */
export const serviceSpec = serviceSpecJson as unknown as OpenApiDocument;

/** The mock's control API (`spec/mock-control.yaml`), prepared the same way. */
export const controlSpec = controlSpecJson as unknown as OpenApiDocument;
