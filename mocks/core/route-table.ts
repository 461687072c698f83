import { OPERATIONS, type OperationId } from '../../src/generated/routes.ts';
import { controlError } from './http/errors.ts';
import { jsonResponse } from './http/http-types.ts';
import type { RouteDefinition } from './http/router.ts';
import type { RouteContext } from './service/service-state.ts';
import { getArtifact } from './routes/artifacts.ts';
import { listModels } from './routes/catalog.ts';
import { getContent } from './routes/content.ts';
import {
  advanceClock,
  clearClientReport,
  clockState,
  familyState,
  forceOutcome,
  getTask,
  listScenarios,
  listTasks,
  mockHealth,
  resetMock,
  setFamily,
} from './routes/control.ts';
import { createPluginTask, getPluginTask } from './routes/plugin.ts';
import { getVideo, getVideoGeneration } from './routes/query.ts';
import { parseJsonBody, submitTask } from './routes/submit.ts';

type Route = RouteDefinition<RouteContext>;
type Handler = Route['handle'];

/** The operations answered with method `HEAD`: the router serves them from the `GET` of their path. */
type HeadOperation = {
  [K in OperationId]: (typeof OPERATIONS)[K]['method'] extends 'HEAD' ? K : never;
}[OperationId];

/**
 * The handler of every operation of both specs (a `HEAD` one is its path's `GET`): the type refuses an
 * operation without one and a handler for an operation the specs do not declare.
 */
const HANDLERS: Readonly<Record<Exclude<OperationId, HeadOperation>, Handler>> = {
  createVideoGeneration: (c) => submitTask(c, 'createVideoGeneration'),
  createVideo: (c) => submitTask(c, 'createVideo'),
  getVideo: (c, p) => getVideo(c, p['task_id']!),
  getVideoGeneration: (c, p) => getVideoGeneration(c, p['task_id']!),
  getVideoContent: (c, p) => getContent(c, p['task_id']!),
  listModels: (c) => listModels(c),
  createPluginTask: (c, p) => createPluginTask(c, p['plugin_name']!),
  getPluginTask: (c, p) => getPluginTask(c, p['plugin_name']!, p['task_id']!),
  getMockArtifact: (c, p) =>
    getArtifact(c.state, p['token']!, c.request.query, c.request.headers['range'], c.head),
  getMockHealth: ({ state }) => mockHealth(state),
  getMockClock: ({ state }) => jsonResponse(200, clockState(state)),
  advanceMockClock: (c) => withJson(c, (body) => advanceClock(c.state, body)),
  listMockTasks: (c) => listTasks(c.state, c.request.query),
  getMockTask: ({ state }, p) => getTask(state, p['task_id']!),
  forceMockTaskOutcome: (c, p) => withJson(c, (body) => forceOutcome(c.state, p['task_id']!, body)),
  listMockScenarios: () => listScenarios(),
  getMockFamily: ({ state }) => jsonResponse(200, familyState(state.family)),
  setMockFamily: (c) => withJson(c, (body) => setFamily(c.state, body)),
  getMockClientReport: ({ state }) => jsonResponse(200, state.clientVerdicts.report()),
  clearMockClientReport: ({ state }) => clearClientReport(state),
  resetMock: ({ state }) => resetMock(state),
};

/**
 * The one route table both hosts serve: every operation of the service (spec/openapi.yaml), the
 * control API and artifacts (spec/mock-control.yaml), its method, template and access as
 * `npm run generate` read them from the specs (src/generated/routes.ts, decisions/030), with its
 * handler.
 */
export const ROUTES: readonly Route[] = routesOf(HANDLERS);

function routesOf(handlers: Readonly<Record<string, Handler>>): Route[] {
  const routes: Route[] = [];
  for (const [operationId, { method, template, access }] of Object.entries(OPERATIONS)) {
    if (method === 'HEAD') {
      if (!Object.values(OPERATIONS).some((o) => o.method === 'GET' && o.template === template))
        throw new Error(`${operationId}: HEAD ${template} has no GET to serve it`);
      continue;
    }
    routes.push({ method, template, operationId, access, handle: handlers[operationId]! });
  }
  return routes;
}

function withJson(context: RouteContext, then: (body: unknown) => ReturnType<Route['handle']>) {
  const parsed = parseJsonBody(context);
  if ('kind' in parsed)
    return controlError(
      400,
      'invalid_request',
      'Send a JSON object body with Content-Type: application/json',
    );
  return then(parsed.value);
}
