// Generated from spec/openapi.yaml and spec/mock-control.yaml by `npm run generate`; do not edit.

interface Route {
  readonly method: string;
  readonly template: string;
  readonly access: string;
  readonly role?: {
    readonly kind: 'submit' | 'query' | 'content' | 'catalog' | 'artifact';
    readonly form?: 'openai' | 'wrapper' | 'native';
    readonly family: 'any' | 'second';
    readonly section: string;
  };
}

/**
 * Every operation of both specs, in their order: its method, its path template, who may call it
 * (the `x-access` of the security schemes it names; decisions/030) and what it is to a client
 * (its `x-role`: kind, form, family and section; read through src/spec/route-roles.ts).
 */
export const OPERATIONS = {
  createVideoGeneration: {
    method: 'POST',
    template: '/v1/video/generations',
    access: 'service',
    role: { kind: 'submit', form: 'openai', family: 'any', section: '§4.1' },
  },
  createVideo: {
    method: 'POST',
    template: '/v1/videos',
    access: 'service',
    role: { kind: 'submit', form: 'openai', family: 'any', section: '§4.1' },
  },
  getVideo: {
    method: 'GET',
    template: '/v1/videos/{task_id}',
    access: 'service',
    role: { kind: 'query', form: 'openai', family: 'any', section: '§4.2' },
  },
  getVideoGeneration: {
    method: 'GET',
    template: '/v1/video/generations/{task_id}',
    access: 'service',
    role: { kind: 'query', form: 'wrapper', family: 'any', section: '§4.3' },
  },
  getVideoContent: {
    method: 'GET',
    template: '/v1/videos/{task_id}/content',
    access: 'service',
    role: { kind: 'content', family: 'any', section: '§4.4' },
  },
  headVideoContent: { method: 'HEAD', template: '/v1/videos/{task_id}/content', access: 'service' },
  listModels: {
    method: 'GET',
    template: '/v1/models',
    access: 'service',
    role: { kind: 'catalog', family: 'any', section: '§4' },
  },
  createPluginTask: {
    method: 'POST',
    template: '/{plugin_name}/api/v3/contents/generations/tasks',
    access: 'service',
    role: { kind: 'submit', form: 'native', family: 'second', section: '§4.5' },
  },
  getPluginTask: {
    method: 'GET',
    template: '/{plugin_name}/api/v3/contents/generations/tasks/{task_id}',
    access: 'service',
    role: { kind: 'query', form: 'native', family: 'second', section: '§4.5' },
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
  getMockArtifact: {
    method: 'GET',
    template: '/__artifacts/{token}',
    access: 'public',
    role: { kind: 'artifact', family: 'any', section: '§1' },
  },
} as const satisfies Readonly<Record<string, Route>>;

export type OperationId = keyof typeof OPERATIONS;
