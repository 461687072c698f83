import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/index.ts';

// The node host used to answer an oversize body itself, without CORS headers or a request id, so a
// browser client saw a CORS failure instead of the 413.
let server: RunningMockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, maxBodyBytes: 1024, profile: 'observed' });
});
afterAll(() => server.close());

it('answers an oversize body through the core: 413 JSON with CORS, request id and profile wording', async () => {
  const response = await fetch(`${server.url}/v1/videos`, {
    method: 'POST',
    headers: {
      authorization: 'Bearer sk-mock-alice',
      'content-type': 'application/json',
      origin: 'http://app.test',
    },
    body: JSON.stringify({ model: 'video-pro-v1', prompt: 'x'.repeat(5000) }),
  });
  expect(response.status).toBe(413);
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  expect(response.headers.get('x-oneapi-request-id')).toMatch(/^[0-9A-Za-z]+$/);
  expect(await response.json()).toMatchObject({ code: 'request_body_too_large', data: null });
  expect(server.service.store.size).toBe(0);
});
