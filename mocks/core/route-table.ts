import { jsonResponse } from './http-types.ts';
import type { RouteDefinition } from './router.ts';
import type { RouteContext } from './service-state.ts';
import { getArtifact } from './routes/artifacts.ts';
import { listModels } from './routes/catalog.ts';
import { getContent } from './routes/content.ts';
import {
  advanceClock,
  clockState,
  controlError,
  familyState,
  forceOutcome,
  inspectTask,
  listScenarios,
  listTasks,
} from './routes/control.ts';
import { createPluginTask, getPluginTask } from './routes/plugin.ts';
import { getVideo, getVideoGeneration } from './routes/query.ts';
import { parseJsonBody, submitTask } from './routes/submit.ts';

type Route = RouteDefinition<RouteContext>;

/**
 * The one route table both hosts serve: the service (spec/openapi.yaml), the control API and
 * artifacts (spec/mock-control.yaml).
 */
export const ROUTES: readonly Route[] = [
  {
    method: 'POST',
    template: '/v1/video/generations',
    operationId: 'createVideoGeneration',
    access: 'service',
    handle: (c) => submitTask(c, 'createVideoGeneration'),
  },
  {
    method: 'POST',
    template: '/v1/videos',
    operationId: 'createVideo',
    access: 'service',
    handle: (c) => submitTask(c, 'createVideo'),
  },
  {
    method: 'GET',
    template: '/v1/videos/{task_id}',
    operationId: 'getVideo',
    access: 'service',
    handle: (c, p) => getVideo(c, p['task_id']!),
  },
  {
    method: 'GET',
    template: '/v1/video/generations/{task_id}',
    operationId: 'getVideoGeneration',
    access: 'service',
    handle: (c, p) => getVideoGeneration(c, p['task_id']!),
  },
  {
    method: 'GET',
    template: '/v1/videos/{task_id}/content',
    operationId: 'getVideoContent',
    access: 'service',
    handle: (c, p) => getContent(c, p['task_id']!),
  },
  {
    method: 'GET',
    template: '/v1/models',
    operationId: 'listModels',
    access: 'service',
    handle: (c) => listModels(c),
  },
  {
    method: 'POST',
    template: '/{plugin_name}/api/v3/contents/generations/tasks',
    operationId: 'createPluginTask',
    access: 'service',
    handle: (c, p) => createPluginTask(c, p['plugin_name']!),
  },
  {
    method: 'GET',
    template: '/{plugin_name}/api/v3/contents/generations/tasks/{task_id}',
    operationId: 'getPluginTask',
    access: 'service',
    handle: (c, p) => getPluginTask(c, p['plugin_name']!, p['task_id']!),
  },

  {
    method: 'GET',
    template: '/__artifacts/{file}',
    operationId: 'getMockArtifact',
    access: 'public',
    handle: (c, p) =>
      getArtifact(c.state, p['file']!, c.request.query, c.request.headers['range'], c.head),
  },

  {
    method: 'GET',
    template: '/__mock/health',
    operationId: 'getMockHealth',
    access: 'control',
    handle: ({ state }) =>
      jsonResponse(200, {
        status: 'ok',
        profile: state.profile.name,
        clock: clockState(state),
        tasks: state.store.size,
        family: familyState(state.family),
        defects: state.defectNames,
      }),
  },
  {
    method: 'GET',
    template: '/__mock/clock',
    operationId: 'getMockClock',
    access: 'control',
    handle: ({ state }) => jsonResponse(200, clockState(state)),
  },
  {
    method: 'POST',
    template: '/__mock/clock/advance',
    operationId: 'advanceMockClock',
    access: 'control',
    handle: (c) => withJson(c, (body) => advanceClock(c.state, body)),
  },
  {
    method: 'GET',
    template: '/__mock/tasks',
    operationId: 'listMockTasks',
    access: 'control',
    handle: (c) => listTasks(c.state, c.request.query),
  },
  {
    method: 'GET',
    template: '/__mock/tasks/{task_id}',
    operationId: 'getMockTask',
    access: 'control',
    handle: ({ state }, p) => {
      const task = state.store.get(p['task_id']!);
      return task === undefined
        ? controlError(404, 'task_not_found', `No task ${p['task_id']}`)
        : jsonResponse(200, inspectTask(state, task));
    },
  },
  {
    method: 'POST',
    template: '/__mock/tasks/{task_id}/outcome',
    operationId: 'forceMockTaskOutcome',
    access: 'control',
    handle: (c, p) => withJson(c, (body) => forceOutcome(c.state, p['task_id']!, body)),
  },
  {
    method: 'GET',
    template: '/__mock/scenarios',
    operationId: 'listMockScenarios',
    access: 'control',
    handle: () => listScenarios(),
  },
  {
    method: 'GET',
    template: '/__mock/family',
    operationId: 'getMockFamily',
    access: 'control',
    handle: ({ state }) => jsonResponse(200, familyState(state.family)),
  },
  {
    method: 'PUT',
    template: '/__mock/family',
    operationId: 'setMockFamily',
    access: 'control',
    handle: (c) =>
      withJson(c, (body) => {
        const bound = (body as { bound?: unknown } | null)?.bound;
        if (typeof bound !== 'boolean')
          return controlError(400, 'invalid_request', 'Send {"bound": true} or {"bound": false}');
        c.state.apply({ op: 'bind', bound });
        return jsonResponse(200, familyState(c.state.family));
      }),
  },
  {
    method: 'GET',
    template: '/__mock/client-report',
    operationId: 'getMockClientReport',
    access: 'control',
    handle: ({ state }) => jsonResponse(200, state.clientVerdicts.report()),
  },
  {
    method: 'DELETE',
    template: '/__mock/client-report',
    operationId: 'clearMockClientReport',
    access: 'control',
    handle: ({ state }) => {
      state.clientVerdicts.clear();
      return jsonResponse(200, { cleared: true });
    },
  },
  {
    method: 'POST',
    template: '/__mock/reset',
    operationId: 'resetMock',
    access: 'control',
    handle: ({ state }) => {
      state.reset();
      return jsonResponse(200, { reset: true });
    },
  },
];

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
