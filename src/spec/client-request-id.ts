import { serviceSpec } from './load-spec.ts';
import type { OpenApiDocument } from './spec-types.ts';

/**
 * The headers that carry a client's own request ID on a submission (§7, §8; the header names are an
 * assumption), as the spec declares them: `components.parameters.ClientRequestId` (`X-Request-Id`) and
 * `IdempotencyKey` (`Idempotency-Key`), in the order a reader looks for them, each with its longest value.
 */
export interface ClientRequestIdHeader {
  /** Lower case, as node and the core read headers. */
  readonly name: string;
  /** As the spec spells it, for messages. */
  readonly display: string;
  readonly maxLength: number;
}

export function readClientRequestIdHeaders(document: OpenApiDocument): ClientRequestIdHeader[] {
  const parameters = (document.components?.['parameters'] ?? {}) as Record<string, unknown>;
  return ['ClientRequestId', 'IdempotencyKey'].map((key) => {
    const parameter = (parameters[key] ?? {}) as {
      name?: unknown;
      in?: unknown;
      schema?: { maxLength?: unknown };
    };
    const { name, schema } = parameter;
    const maxLength = schema?.maxLength;
    if (typeof name !== 'string' || parameter.in !== 'header')
      throw new Error(`components.parameters.${key} must be a header parameter`);
    if (typeof maxLength !== 'number' || !Number.isInteger(maxLength) || maxLength < 1)
      throw new Error(`components.parameters.${key}.schema.maxLength must be a whole number ≥ 1`);
    return { name: name.toLowerCase(), display: name, maxLength };
  });
}

/** The service spec's client request-ID headers. */
export const CLIENT_REQUEST_ID_HEADERS: readonly ClientRequestIdHeader[] =
  readClientRequestIdHeaders(serviceSpec);
