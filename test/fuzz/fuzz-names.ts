// The names the fuzzed service knows: its keys, models, scenarios and route templates (plus near misses).
import { BUILT_IN_MODELS } from '../../mocks/core/keys/catalog.ts';
import { ROUTES } from '../../mocks/core/route-table.ts';
import { SCENARIOS } from '../../mocks/core/plan/scenarios.ts';
export const BUILT_IN_KEYS = [
  'sk-mock-alice',
  'sk-mock-bob',
  'sk-mock-vip',
  'sk-mock-limited',
  'sk-mock-broke',
] as const;
export const ADMIN_TOKEN = 'fuzz-admin-token';

/** Every template of the route table (so a new route is fuzzed without touching this file), plus near misses. */
export const ROUTE_TEMPLATES = [...new Set(ROUTES.map((r) => r.template))];
export const NEAR_MISSES = [
  '/',
  '/v1',
  '/v1/',
  '/v1/videos',
  '/v1/video',
  '/v1/models/{x}',
  '/v1/videos/{task_id}/content/{x}',
  '/v1/video/generations/{task_id}/content',
  '/v1/videos/{task_id}/{x}',
  '/v2/videos/{task_id}',
  '/__mock',
  '/__mock/{x}',
  '/__mock/tasks/{task_id}/{x}',
  '/__mock/clock/{x}',
  '/__artifacts',
  '/__artifacts/{file}/{x}',
  '/{x}',
  '/{x}/{x}',
  '/{plugin_name}/api/v3/contents/generations',
  '/{plugin_name}/api/v3/contents/generations/tasks/{task_id}/{x}',
  '/docs',
  '/favicon.ico',
];
export const SUBMIT_TEMPLATES = new Set(
  ROUTES.filter((r) => r.method === 'POST' && r.access === 'service').map((r) => r.template),
);
export const CONTROL_BODY_TEMPLATES = new Set(
  ROUTES.filter((r) => r.access === 'control' && r.method !== 'GET').map((r) => r.template),
);

/** The methods the route table gives a template (empty for a near miss). */
export function routeMethods(template: string): string[] {
  return ROUTES.filter((r) => r.template === template).map((r) => r.method);
}

export const MODEL_IDS = BUILT_IN_MODELS.map((m) => m.id);
export const SCENARIO_NAMES = SCENARIOS.map((s) => s.name);
