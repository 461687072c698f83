import {
  AuthenticationError,
  ConnectionError,
  RequestTimeoutError,
  type VideoTaskClient,
} from '../../src/client/index.ts';
import type { Redactor } from '../../src/redaction/redactor.ts';
import { catalogModelIds } from '../../src/client/catalog-ids.ts';
import type { CatalogCheck } from './verify-settings.ts';

/** The catalog, or why the run cannot start (exit 2: nothing submitted, no record written). */
export type CatalogRead = { readonly catalog: CatalogCheck } | { readonly fatal: string };

const NOTHING_DONE = 'nothing was submitted and no record was written';

/**
 * §9 step 3, once for all models: what `/v1/models` lists for this token. An unreachable service or a
 * refused key stops the run; any other failure is recorded against every model.
 */
export async function readCatalog(
  client: VideoTaskClient,
  redactor: Redactor,
  maskedKey: string,
): Promise<CatalogRead> {
  try {
    const list = await client.listModels();
    return { catalog: { ok: true, ids: new Set(catalogModelIds(list)) } };
  } catch (error) {
    const message = redactor.redact((error as Error).message);
    const at = client.baseUrl;
    if (error instanceof ConnectionError || error instanceof RequestTimeoutError)
      return {
        fatal:
          `videotask verify-family: the service at ${at} is unreachable: ${message}\n` +
          `  → ${NOTHING_DONE}; check --base-url.`,
      };
    if (error instanceof AuthenticationError)
      return {
        fatal:
          `videotask verify-family: the key ${maskedKey} was refused by ${at} (HTTP 401): ` +
          `${message}\n  → ${NOTHING_DONE}; check --api-key (§5).`,
      };
    return { catalog: { ok: false, error } };
  }
}
