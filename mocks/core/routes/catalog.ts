import { visibleModels } from '../keys/catalog.ts';
import { jsonResponse, type CoreResponse } from '../http/http-types.ts';
import type { RouteContext, ServiceState } from '../service/service-state.ts';

/** What the catalog reads of the service: the models and the family's binding. */
export type CatalogState = Pick<ServiceState, 'models' | 'family'>;

/** Models' `created`: a fixed time, as the gateway reports for configured models. */
const CREATED = 1626777600;

/** `GET /v1/models`: exactly the models the calling token may use (§4, §5). */
export function listModels(context: RouteContext<CatalogState>): CoreResponse {
  const { state, token } = context;
  const data = visibleModels(state.models.values(), state.family, token).map((m) => ({
    id: m.id,
    object: 'model',
    created: CREATED,
    owned_by: m.ownedBy,
    supported_endpoint_types: ['openai'],
  }));
  return jsonResponse(200, { success: true, object: 'list', data });
}
