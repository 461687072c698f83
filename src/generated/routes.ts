// Generated from spec/openapi.yaml and spec/mock-control.yaml by `npm run generate`; do not edit.

type Route = { readonly method: string; readonly template: string; readonly access: string };

/**
 * Every operation of both specs, in their order: its method, its path template and who may call it
 * (the `x-access` of the security schemes it names; decisions/030).
 */
export const OPERATIONS = {
  createVideoGeneration: { method: 'POST', template: '/v1/video/generations', access: 'service' },
  createVideo: { method: 'POST', template: '/v1/videos', access: 'service' },
  getVideo: { method: 'GET', template: '/v1/videos/{task_id}', access: 'service' },
  getVideoGeneration: {
    method: 'GET',
    template: '/v1/video/generations/{task_id}',
    access: 'service',
  },
  getVideoContent: { method: 'GET', template: '/v1/videos/{task_id}/content', access: 'service' },
  headVideoContent: { method: 'HEAD', template: '/v1/videos/{task_id}/content', access: 'service' },
  listModels: { method: 'GET', template: '/v1/models', access: 'service' },
  createPluginTask: {
    method: 'POST',
    template: '/{plugin_name}/api/v3/contents/generations/tasks',
    access: 'service',
  },
  getPluginTask: {
    method: 'GET',
    template: '/{plugin_name}/api/v3/contents/generations/tasks/{task_id}',
    access: 'service',
  },
  getMockHealth: { method: 'GET', template: '/__mock/health', access: 'control' },
  getMockClock: { method: 'GET', template: '/__mock/clock', access: 'control' },
  advanceMockClock: { method: 'POST', template: '/__mock/clock/advance', access: 'control' },
  listMockTasks: { method: 'GET', template: '/__mock/tasks', access: 'control' },
  getMockTask: { method: 'GET', template: '/__mock/tasks/{task_id}', access: 'control' },
  forceMockTaskOutcome: {
    method: 'POST',
    template: '/__mock/tasks/{task_id}/outcome',
    access: 'control',
  },
  listMockScenarios: { method: 'GET', template: '/__mock/scenarios', access: 'control' },
  getMockFamily: { method: 'GET', template: '/__mock/family', access: 'control' },
  setMockFamily: { method: 'PUT', template: '/__mock/family', access: 'control' },
  resetMock: { method: 'POST', template: '/__mock/reset', access: 'control' },
  getMockClientReport: { method: 'GET', template: '/__mock/client-report', access: 'control' },
  clearMockClientReport: { method: 'DELETE', template: '/__mock/client-report', access: 'control' },
  getMockArtifact: { method: 'GET', template: '/__artifacts/{token}', access: 'public' },
} as const satisfies Readonly<Record<string, Route>>;

export type OperationId = keyof typeof OPERATIONS;
