import type { OpenApiDocument } from './spec-types.ts';

/** The error envelopes (`ErrorBody`, `PluginErrorBody` in the service spec). */
export type ErrorEnvelope = 'openai' | 'task' | 'plugin';

/** One row of a spec's `x-error-codes` table. */
export interface ErrorCodeRow {
  readonly code: string;
  readonly status: number;
  readonly envelope: ErrorEnvelope;
  /** `gateway`: the deployed gateway's code; `mock`: the mock's own where the gateway's is unknown. */
  readonly origin: 'gateway' | 'mock';
  readonly description: string;
  /**
   * The operations that answer it (possibly of the service spec, for the mock's table); none for a
   * route-less error.
   */
  readonly operations: readonly string[];
}

const ENVELOPES: readonly string[] = ['openai', 'task', 'plugin'];

/**
 * Reads and checks a spec's `x-error-codes` table (none: an empty list). Throws naming the first bad row.
 *
 * @example
 * readErrorCodes(serviceSpec).find((row) => row.code === 'artifact_gone')?.status; // 410
 */
export function readErrorCodes(document: OpenApiDocument): ErrorCodeRow[] {
  const raw = document['x-error-codes'] as { readonly codes?: unknown } | undefined;
  if (raw === undefined) return [];
  const codes = raw.codes;
  if (!Array.isArray(codes)) throw new Error('x-error-codes.codes must be a list');
  return codes.map((node: unknown, i) => {
    const row = (node ?? {}) as Record<string, unknown>;
    const where = `x-error-codes.codes[${i}]`;
    const { code, status, envelope, origin, description, operations } = row;
    if (typeof code !== 'string') throw new Error(`${where}.code must be a string`);
    if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599)
      throw new Error(`${where} (${code}): status must be an HTTP error status 400–599`);
    if (typeof envelope !== 'string' || !ENVELOPES.includes(envelope))
      throw new Error(`${where} (${code}): envelope must be one of ${ENVELOPES.join(', ')}`);
    if (origin !== 'gateway' && origin !== 'mock')
      throw new Error(`${where} (${code}): origin must be gateway or mock`);
    if (typeof description !== 'string' || description === '')
      throw new Error(`${where} (${code}): description must say when it is answered`);
    if (!Array.isArray(operations) || !operations.every((o) => typeof o === 'string'))
      throw new Error(`${where} (${code}): operations must list operationIds`);
    return {
      code,
      status,
      envelope: envelope as ErrorEnvelope,
      origin,
      description,
      operations: operations,
    };
  });
}
