import { createMockService, type CoreResponse, type MockService } from '../../mocks/index.ts';
import { apiErrorFrom } from '../../src/client/errors.ts';
import type { GetTask } from '../../src/client/poller.ts';
import type { Sleep } from '../../src/client/sleep.ts';
import type { VideoTask } from '../../src/spec/index.ts';
import { coreRequest } from '../helpers/core-client.ts';

/**
 * The real mock in-process, as the client's loops see it: `getTask` drives `GET /v1/videos/{id}`
 * through `service.handle` and throws the client's typed errors; `sleep` advances the mock's manual
 * clock instead of waiting; `submit` is for test setup only.
 */
export function mockSource(): {
  service: MockService;
  getTask: GetTask;
  sleep: Sleep;
  now: () => number;
  submit(scenario?: string, requestId?: string): string;
} {
  const service = createMockService({ clock: { mode: 'manual' }, seed: 1 });
  const getTask: GetTask = (taskId) => {
    const response = service.handle(coreRequest('GET', `/v1/videos/${encodeURIComponent(taskId)}`));
    const body = json(response);
    if (response.status !== 200)
      return Promise.reject(
        apiErrorFrom('query the task', response.status, body, new Headers(response.headers)),
      );
    return Promise.resolve(body as VideoTask);
  };
  const sleep: Sleep = (ms, signal) => {
    if (signal?.aborted) return Promise.reject(signal.reason);
    service.clock.advance(ms);
    return Promise.resolve();
  };
  const submit = (scenario?: string, requestId?: string): string => {
    const headers: Record<string, string> = {};
    if (scenario !== undefined) headers['x-mock-scenario'] = scenario;
    if (requestId !== undefined) headers['x-request-id'] = requestId;
    const body = { model: 'video-pro-v1', prompt: 'a red kite' };
    const response = service.handle(
      coreRequest('POST', '/v1/video/generations', { headers, body }),
    );
    if (response.status !== 200)
      throw new Error(`setup submit failed: ${response.status} ${String(response.body)}`);
    return (json(response) as VideoTask).id;
  };
  return { service, getTask, sleep, now: () => service.clock.now(), submit };
}

function json(response: CoreResponse): unknown {
  const text =
    typeof response.body === 'string' ? response.body : new TextDecoder().decode(response.body);
  return text === '' ? undefined : JSON.parse(text);
}
