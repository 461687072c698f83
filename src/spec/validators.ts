import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import * as ajvFormats from 'ajv-formats';
import { schemaVariant, type SchemaVariant } from './schema-variants.ts';
import {
  HTTP_METHODS,
  basisOf,
  type Basis,
  type HttpMethod,
  type JsonSchema,
  type OpenApiDocument,
  type OperationObject,
  type ResponseObject,
} from './spec-types.ts';

// ajv-formats is CommonJS (`exports.default = plugin`); under NodeNext the plugin sits at `.default`.
const addFormats = ajvFormats.default as unknown as (ajv: Ajv2020) => Ajv2020;

export interface ValidationResult {
  readonly valid: boolean;
  /** One line per problem: `<json pointer> <what is wrong>`. */
  readonly errors: readonly string[];
}

/** A schema compiled in both readings (see `schemaVariant`). */
export interface SchemaValidator {
  readonly basis: Basis;
  /** Only the documented rules: a failure here is a contract violation. */
  validate(value: unknown): ValidationResult;
  /** Documented rules plus assumptions: what the deployed gateway (and the mock) always satisfies. */
  validateFull(value: unknown): ValidationResult;
}

export interface OperationInfo {
  readonly operationId: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly basis: Basis;
  readonly operation: OperationObject;
}

export interface ResponseInfo {
  /** The response key that matched: `"404"`, `"5XX"` or `"default"`. */
  readonly key: string;
  /** Whether this status code is stated by the document for this operation. */
  readonly basis: Basis;
  readonly response: ResponseObject;
  /** The body validator for a media type (`video/*` matches `video/mp4`), if the spec gives a schema. */
  body(contentType: string): SchemaValidator | undefined;
}

const EXTENSION_KEYWORDS = [
  'x-source',
  'x-documented',
  'x-assumed-required',
  'example',
  'discriminator',
  'xml',
  'externalDocs',
];

/**
 * ajv validators for every request and response schema of an OpenAPI document, by operation and
 * status, compiled lazily and cached.
 *
 * @example
 * const specs = new SpecValidators(serviceSpec);
 * const result = specs.response('getVideo', 200)?.body('application/json')?.validate(body);
 */
export class SpecValidators {
  readonly #ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    strictTypes: false,
    validateFormats: true,
  });
  readonly #operations = new Map<string, OperationInfo>();
  readonly #compiled = new WeakMap<JsonSchema, Map<SchemaVariant, ValidateFunction | true>>();

  constructor(readonly document: OpenApiDocument) {
    addFormats(this.#ajv);
    this.#ajv.addVocabulary(EXTENSION_KEYWORDS);
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of HTTP_METHODS) {
        const operation = item[method];
        if (operation === undefined) continue;
        this.#operations.set(operation.operationId, {
          operationId: operation.operationId,
          method,
          path,
          basis: basisOf(operation),
          operation,
        });
      }
    }
  }

  operations(): readonly OperationInfo[] {
    return [...this.#operations.values()];
  }

  operation(operationId: string): OperationInfo {
    const info = this.#operations.get(operationId);
    if (info === undefined)
      throw new Error(
        `Unknown operationId "${operationId}": the spec has ${[...this.#operations.keys()].join(', ')}`,
      );
    return info;
  }

  /** The request body validator of an operation (JSON only), if it takes a body. */
  request(operationId: string): SchemaValidator | undefined {
    const body = this.operation(operationId).operation.requestBody;
    const schema = body?.content?.['application/json']?.schema;
    return schema === undefined ? undefined : this.schemaValidator(schema);
  }

  /** The response the spec declares for a status: exact code, then its class (`4XX`), then `default`. */
  response(operationId: string, status: number): ResponseInfo | undefined {
    const responses = this.operation(operationId).operation.responses;
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find(
      (k) => responses[k] !== undefined,
    );
    if (key === undefined) return undefined;
    const response = responses[key] as ResponseObject;
    return {
      key,
      basis: basisOf(response),
      response,
      body: (contentType) => {
        const schema = matchMediaType(response.content, contentType)?.schema;
        return schema === undefined ? undefined : this.schemaValidator(schema);
      },
    };
  }

  /** A named schema of `components.schemas`. */
  schema(name: string): SchemaValidator {
    const schema = this.document.components?.schemas?.[name];
    if (schema === undefined) throw new Error(`Unknown schema "${name}"`);
    return this.schemaValidator(schema);
  }

  schemaValidator(schema: JsonSchema): SchemaValidator {
    return {
      basis: basisOf(schema),
      validate: (value) => this.#run(schema, 'documented', value),
      validateFull: (value) => this.#run(schema, 'full', value),
    };
  }

  #run(schema: JsonSchema, variant: SchemaVariant, value: unknown): ValidationResult {
    let byVariant = this.#compiled.get(schema);
    if (byVariant === undefined)
      this.#compiled.set(schema, (byVariant = new Map<SchemaVariant, ValidateFunction | true>()));
    let fn = byVariant.get(variant);
    if (fn === undefined) {
      const prepared = schemaVariant(schema, variant);
      fn = prepared === true ? true : this.#ajv.compile(prepared as JsonSchema);
      byVariant.set(variant, fn);
    }
    if (fn === true || fn(value)) return { valid: true, errors: [] };
    return { valid: false, errors: (fn.errors ?? []).map(formatError) };
  }
}

export function matchMediaType<T>(
  content: Record<string, T> | undefined,
  contentType: string,
): T | undefined {
  if (content === undefined) return undefined;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (content[type] !== undefined) return content[type];
  const wildcard = `${type.split('/')[0]}/*`;
  return content[wildcard] ?? content['*/*'];
}

function formatError(error: ErrorObject): string {
  const where = error.instancePath === '' ? '(body)' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required')
    return `${where} is missing required property "${String(params['missingProperty'])}"`;
  if (error.keyword === 'const')
    return `${where} must be ${JSON.stringify(params['allowedValue'])}`;
  if (error.keyword === 'enum')
    return `${where} must be one of ${JSON.stringify(params['allowedValues'])}`;
  return `${where} ${error.message ?? error.keyword}`;
}
