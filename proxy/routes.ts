import { Router, type RouteDefinition } from '../mocks/core/http/router.ts';
import { MATRIX_ROUTES, type RouteId, type RouteKind } from '../contracts/matrix/index.ts';

/** A request of the service's API (§4) as the judges tell them apart. */
export interface ApiRoute {
  readonly id: RouteId;
  readonly kind: RouteKind;
  /** The task its path names (percent-decoded), if any. */
  readonly taskId: string | undefined;
}

const notServed = (): never => {
  throw new Error('the proxy forwards; it serves no route itself');
};

/** The API's routes, as the contract matrix names them (their paths the spec's), in the core's router. */
const ROUTER = new Router<never>(
  MATRIX_ROUTES.map((route): RouteDefinition<never> => ({
    method: route.method,
    template: route.template,
    operationId: route.id,
    access: 'service',
    handle: notServed,
  })),
);
const KIND = new Map(MATRIX_ROUTES.map((r) => [r.id as string, r]));

/** The route a request is (`HEAD` of the content is its GET's), or undefined for any other path. */
export function apiRoute(method: string, path: string): ApiRoute | undefined {
  const match = ROUTER.match(method, path);
  if (match.kind !== 'found') return undefined;
  const route = KIND.get(match.route.operationId)!;
  return { id: route.id, kind: route.kind, taskId: match.params['task_id'] };
}
