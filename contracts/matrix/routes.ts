/**
 * The routes of the observation space (§4), named by their spec `operationId`. A route with a task in
 * its path is judged in every task state; the others (submissions, the catalog) have no task state.
 * The second family's native path (§4.5) is observed only when the run names a family model and the
 * plugin that declares the path.
 */
import { OPERATIONS } from '../../src/generated/routes.ts';
import { operationsWith, roleOf, SERVICE_KINDS } from '../../src/spec/route-roles.ts';
import { fillTemplate, type RouteForm } from '../../src/spec/routes.ts';

/** What a route of the space is to a client (its `x-role` kind): the artifacts are no route of it. */
export type RouteKind = (typeof SERVICE_KINDS)[number];

const ROUTE_IDS = operationsWith({ kind: SERVICE_KINDS });
export type RouteId = (typeof ROUTE_IDS)[number];

/** A route of the space: its method and template, and its role, all read from the spec. */
export interface MatrixRoute {
  readonly id: RouteId;
  readonly method: (typeof OPERATIONS)[RouteId]['method'];
  /** The path template of spec/openapi.yaml. */
  readonly template: string;
  readonly kind: RouteKind;
  /** The form of its task answer (submissions and queries). */
  readonly form?: RouteForm;
  /** The section of the service document that declares the route. */
  readonly source: string;
  /** Served by the second family's task plugin (observed only with a family model and plugin). */
  readonly family: boolean;
}

/** The routes and their roles, read from the spec (src/generated/routes.ts, decisions/030, 057). */
export const MATRIX_ROUTES: readonly MatrixRoute[] = ROUTE_IDS.map((id) => {
  const { method, template } = OPERATIONS[id];
  const { kind, form, family, section } = roleOf(id)!;
  const role = { kind: kind as RouteKind, source: section, family: family === 'second' };
  return { id, method, template, ...role, ...(form === undefined ? {} : { form }) };
});

const BY_ID = new Map(MATRIX_ROUTES.map((r) => [r.id, r]));

export function matrixRoute(id: RouteId): MatrixRoute {
  return BY_ID.get(id)!;
}

/** Whether the route names a task in its path (and so is judged per task state). */
export const hasTask = (route: MatrixRoute): boolean =>
  route.kind === 'query' || route.kind === 'content';

/** The path of a route for a task (and the plugin's name on the native path). */
export function routePath(id: RouteId, taskId = '', plugin = ''): string {
  return fillTemplate(matrixRoute(id).template, { task_id: taskId, plugin_name: plugin });
}

/** A route's method and path, as `HttpRecorder.send` takes them. */
export const routeRequest = (id: RouteId, taskId = '', plugin = ''): [string, string] => [
  matrixRoute(id).method,
  routePath(id, taskId, plugin),
];

/** `GET /v1/videos/{task_id}`: how reports name a route. */
export const routeLabel = (id: RouteId): string => {
  const route = matrixRoute(id);
  return `${route.method} ${route.template}`;
};

/** Each task route's path as a pattern ending the request path (a base URL's path may come first). */
const TASK_PATHS: readonly RegExp[] = MATRIX_ROUTES.filter(hasTask).map((route) => {
  const parts = route.template
    .split(/(\{[^}]+\})/)
    .map((part) =>
      part === '{task_id}'
        ? '([^/]+)'
        : part.startsWith('{')
          ? '[^/]+'
          : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    );
  return new RegExp(`${parts.join('')}$`);
});

/** The task ID a request's path names on a task route (`/v1/videos/{task_id}/content`), if any. */
export function taskIdInPath(path: string): string | undefined {
  const bare = path.split('?')[0]!;
  for (const pattern of TASK_PATHS) {
    const id = pattern.exec(bare)?.[1];
    if (id !== undefined) return decodeURIComponent(id);
  }
  return undefined;
}
