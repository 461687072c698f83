import { readClientRequestIdHeaders } from './client-request-id.ts';
import { readClientRules } from './client-rules.ts';
import { readErrorCodes } from './error-codes.ts';
import { readLifecycle } from './lifecycle.ts';
import { readPolling } from './polling.ts';
import { readRoutes } from './routes.ts';
import { readSecondFamily } from './second-family.ts';
import { HTTP_METHODS, type OpenApiDocument } from './spec-types.ts';

/**
 * Reads every project extension a spec carries (`x-lifecycle`, `x-polling`, `x-second-family`,
 * `x-error-codes`, `x-client-rules`, the security schemes' `x-access` each operation's route reads),
 * so that `videotask lint-spec` refuses a spec the code could not load. In a spec with `x-lifecycle`
 * (the service's), every operation an error code names must exist, and the client request-ID headers
 * the mock bounds must be declared; the mock's table may name the service's. Throws naming the first
 * problem.
 */
export function checkExtensions(document: OpenApiDocument): void {
  const rows = readErrorCodes(document);
  readRoutes(document);
  if (document['x-polling'] !== undefined) readPolling(document);
  if (document['x-second-family'] !== undefined) readSecondFamily(document);
  if (document['x-client-rules'] !== undefined) readClientRules(document);
  if (document['x-lifecycle'] === undefined) return;
  readLifecycle(document);
  readClientRequestIdHeaders(document);
  const declared = new Set(
    Object.values(document.paths).flatMap((item) =>
      HTTP_METHODS.flatMap((method) => item[method]?.operationId ?? []),
    ),
  );
  for (const row of rows) {
    const unknown = row.operations.filter((id) => !declared.has(id));
    if (unknown.length > 0)
      throw new Error(
        `x-error-codes: ${row.code || '""'} ${row.status} names operations the ` +
          `spec does not declare: ${unknown.join(', ')}`,
      );
  }
}
