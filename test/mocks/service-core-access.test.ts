import { describe, expect, it } from 'vitest';
import { expectConformant, expectJsonError } from '../helpers/conformance.ts';
import { coreClient } from '../helpers/core-client.ts';

describe('ownership (§5)', () => {
  const routes = [
    ['getVideo', (id: string) => `/v1/videos/${id}`],
    ['getVideoGeneration', (id: string) => `/v1/video/generations/${id}`],
    ['getVideoContent', (id: string) => `/v1/videos/${id}/content`],
  ] as const;
  it.each(routes)(
    "%s answers another user's task exactly as a missing one",
    (operationId, path) => {
      const { call, submit, service } = coreClient();
      const id = submit();
      service.clock.advance(120_000);
      const foreign = call('GET', path(id), { key: 'sk-mock-bob' });
      const missing = call('GET', path('task_00000000000000000000000000000000'), {
        key: 'sk-mock-bob',
      });
      expectConformant(operationId, foreign);
      expect(foreign.status).toBe(missing.status);
      expect(JSON.stringify(foreign.body).replace(id, 'ID')).toBe(
        JSON.stringify(missing.body).replace('task_00000000000000000000000000000000', 'ID'),
      );
      expect(call('GET', path(id)).status).toBe(200);
    },
  );
});

describe('authentication (§5)', () => {
  const endpoints = [
    ['createVideoGeneration', 'POST', '/v1/video/generations'],
    ['createVideo', 'POST', '/v1/videos'],
    ['getVideo', 'GET', '/v1/videos/task_x'],
    ['getVideoGeneration', 'GET', '/v1/video/generations/task_x'],
    ['getVideoContent', 'GET', '/v1/videos/task_x/content'],
    ['listModels', 'GET', '/v1/models'],
    ['createPluginTask', 'POST', '/alt-video/api/v3/contents/generations/tasks'],
    ['getPluginTask', 'GET', '/alt-video/api/v3/contents/generations/tasks/task_x'],
  ] as const;
  it.each(endpoints)(
    '%s refuses a missing and an invalid key with a JSON 401 and creates nothing',
    (operationId, method, path) => {
      const { call, service } = coreClient();
      const body = { model: 'video-pro-v1', prompt: 'p' };
      for (const key of [null, 'sk-not-a-key']) {
        const response = call(method, path, { key, body: method === 'POST' ? body : undefined });
        expectConformant(operationId, response);
        expectJsonError(response, 401, /API key/);
        expect(JSON.stringify(response.body)).not.toContain('sk-not-a-key');
      }
      expect(service.store.size).toBe(0);
    },
  );
});
