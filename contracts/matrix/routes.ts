/**
 * The routes of the observation space (§4), named by their spec `operationId`. A route with a task in
 * its path is judged in every task state; the others (submissions, the catalog) have no task state.
 * The second family's native path (§4.5) is observed only when the run names a family model and the
 * plugin that declares the path.
 */
export type RouteId =
  | 'createVideoGeneration'
  | 'createVideo'
  | 'getVideo'
  | 'getVideoGeneration'
  | 'getVideoContent'
  | 'listModels'
  | 'createPluginTask'
  | 'getPluginTask';

export type RouteKind = 'submit' | 'query' | 'content' | 'catalog';

export interface MatrixRoute {
  readonly id: RouteId;
  readonly method: 'GET' | 'POST';
  /** The path template of spec/openapi.yaml. */
  readonly template: string;
  readonly kind: RouteKind;
  /** The section of the service document that declares the route. */
  readonly source: string;
  /** Served by the second family's task plugin (observed only with a family model and plugin). */
  readonly family: boolean;
}

export const MATRIX_ROUTES: readonly MatrixRoute[] = [
  {
    id: 'createVideoGeneration',
    method: 'POST',
    template: '/v1/video/generations',
    kind: 'submit',
    source: '§4.1',
    family: false,
  },
  {
    id: 'createVideo',
    method: 'POST',
    template: '/v1/videos',
    kind: 'submit',
    source: '§4.1',
    family: false,
  },
  {
    id: 'getVideo',
    method: 'GET',
    template: '/v1/videos/{task_id}',
    kind: 'query',
    source: '§4.2',
    family: false,
  },
  {
    id: 'getVideoGeneration',
    method: 'GET',
    template: '/v1/video/generations/{task_id}',
    kind: 'query',
    source: '§4.3',
    family: false,
  },
  {
    id: 'getVideoContent',
    method: 'GET',
    template: '/v1/videos/{task_id}/content',
    kind: 'content',
    source: '§4.4',
    family: false,
  },
  {
    id: 'listModels',
    method: 'GET',
    template: '/v1/models',
    kind: 'catalog',
    source: '§4',
    family: false,
  },
  {
    id: 'createPluginTask',
    method: 'POST',
    template: '/{plugin_name}/api/v3/contents/generations/tasks',
    kind: 'submit',
    source: '§4.5',
    family: true,
  },
  {
    id: 'getPluginTask',
    method: 'GET',
    template: '/{plugin_name}/api/v3/contents/generations/tasks/{task_id}',
    kind: 'query',
    source: '§4.5',
    family: true,
  },
];

const BY_ID = new Map(MATRIX_ROUTES.map((r) => [r.id, r]));

export function matrixRoute(id: RouteId): MatrixRoute {
  return BY_ID.get(id)!;
}

/** Whether the route names a task in its path (and so is judged per task state). */
export const hasTask = (route: MatrixRoute): boolean =>
  route.kind === 'query' || route.kind === 'content';

/** The path of a route for a task (and the plugin's name on the native path). */
export function routePath(id: RouteId, taskId = '', plugin = ''): string {
  return matrixRoute(id)
    .template.replace('{task_id}', encodeURIComponent(taskId))
    .replace('{plugin_name}', encodeURIComponent(plugin));
}

/** `GET /v1/videos/{task_id}`: how reports name a route. */
export const routeLabel = (id: RouteId): string => {
  const route = matrixRoute(id);
  return `${route.method} ${route.template}`;
};
