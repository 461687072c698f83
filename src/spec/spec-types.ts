/**
 * Structural types for the parts of an OpenAPI 3.1 document this project reads, including its own
 * extensions (`x-source`, `x-documented`, `x-assumed-required`). Schemas themselves stay `JsonSchema`.
 */
export type JsonSchema = { [keyword: string]: unknown };

/** Where a rule comes from: a section of the service document, or an assumption where it is silent. */
export type Basis =
  | { readonly documented: true; readonly source: string }
  | { readonly documented: false; readonly source?: string };

export interface Marked {
  readonly 'x-source'?: string;
  readonly 'x-documented'?: boolean;
  readonly description?: string;
}

export interface MediaTypeObject {
  readonly schema?: JsonSchema;
  readonly examples?: Record<string, { readonly value?: unknown; readonly summary?: string }>;
}

export interface ResponseObject extends Marked {
  readonly headers?: Record<string, Marked & { readonly schema?: JsonSchema }>;
  readonly content?: Record<string, MediaTypeObject>;
}

export interface ParameterObject extends Marked {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly required?: boolean;
  readonly schema?: JsonSchema;
}

/** One way to be let in: the security schemes it needs, each with its scopes (`{}` needs none). */
export type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

export interface OperationObject extends Marked {
  readonly operationId: string;
  readonly security?: readonly SecurityRequirement[];
  readonly parameters?: readonly ParameterObject[];
  readonly requestBody?: Marked & {
    readonly required?: boolean;
    readonly content?: Record<string, MediaTypeObject>;
  };
  readonly responses: Record<string, ResponseObject>;
}

export const HTTP_METHODS = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type PathItemObject = Partial<Record<HttpMethod, OperationObject>> & {
  readonly parameters?: readonly ParameterObject[];
};

export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: { readonly title: string; readonly version: string };
  readonly paths: Record<string, PathItemObject>;
  readonly security?: readonly SecurityRequirement[];
  readonly components?: {
    readonly schemas?: Record<string, JsonSchema>;
    readonly securitySchemes?: Record<
      string,
      Marked & { readonly type: string; readonly scheme?: string }
    >;
    readonly [section: string]: unknown;
  };
  readonly 'x-lifecycle'?: unknown;
  readonly [extension: `x-${string}`]: unknown;
}

/** The basis of anything carrying the project's markings. */
export function basisOf(node: Marked | undefined): Basis {
  const source = node?.['x-source'];
  if (node?.['x-documented'] === false)
    return source === undefined ? { documented: false } : { documented: false, source };
  if (source !== undefined) return { documented: true, source };
  return { documented: false };
}

/** "§4.4" or "assumption" — how reports name a basis. */
export function describeBasis(basis: Basis): string {
  if (basis.documented) return `documented ${basis.source}`;
  return basis.source === undefined ? 'assumption' : `assumption (near ${basis.source})`;
}
