// Errors of a task query or download: unknown tasks, a flaky upstream, content not ready,
// ranges and temporary result addresses (§4, §5, §7).
import type { ErrorTemplate } from './errors.ts';

export const TASK_ERRORS = {
  task_not_found: {
    status: 404,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'task_not_found',
    message: (d) => `Task ${d.taskId} not found`,
  },
  status_task_not_found: {
    status: 404,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'task_not_found',
    message: (d) => `Task ${d.taskId} not found`,
  },
  task_not_exist: {
    status: 400,
    envelope: 'task',
    code: 'task_not_exist',
    message: () => 'task_not_exist',
  },
  plugin_task_not_found: {
    status: 404,
    envelope: 'plugin',
    code: 'task_not_found',
    message: (d) => `task ${d.taskId} not found`,
  },
  temporarily_unavailable: {
    status: 503,
    envelope: 'openai',
    type: 'server_error',
    code: 'temporarily_unavailable',
    message: () =>
      'The upstream is temporarily unavailable: retry the same query (§7), do not create a new task',
  },
  task_not_completed: {
    status: 400,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'task_not_completed',
    message: (d) => `Task is not completed yet, current status: ${d.status}`,
  },
  range_not_satisfiable: {
    status: 416,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'range_not_satisfiable',
    message: (d) => `Range ${d.range} is outside the video (${d.size} bytes)`,
  },
  artifact_gone: {
    status: 410,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'artifact_gone',
    message: (d) =>
      `This temporary result address has expired: download through /v1/videos/${d.taskId}/content instead`,
  },
  artifact_invalid: {
    status: 403,
    envelope: 'openai',
    type: 'invalid_request_error',
    code: 'artifact_signature_invalid',
    message: () => 'This result address is not valid: its signature does not match',
  },
} as const satisfies Record<string, ErrorTemplate>;
