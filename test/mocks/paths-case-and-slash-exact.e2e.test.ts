import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/index.ts';

// Issue 33 item 13: `/V1/MODELS` and `/v1/models/` got the mock's own 404 while the service's routes
// are case- and slash-exact, and nothing said why. The document writes each path exactly with its
// `/v1` (§4, §9) and shows no other answer; the gateway is a Go router matching paths as written, and
// its facts show no redirect to the exact path: a path that differs only by case or slashes is no route
// (decisions/049). The 404 is the mock's documented JSON error, and it now names the exact path meant.
// Exact paths answer as before; the node host passes a path on as written (no folding of its own).
let server: RunningMockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, clock: { mode: 'manual' } });
});
afterAll(() => server.close());

const ask = async (method: string, path: string) => {
  const answer = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: 'Bearer sk-mock-alice', 'content-type': 'application/json' },
    body: method === 'POST' ? JSON.stringify({ model: 'video-pro-v1', prompt: 'a kite' }) : null,
    redirect: 'manual',
  });
  const body = (await answer.json()) as { error?: { code: string; message: string } };
  return { status: answer.status, type: answer.headers.get('content-type'), body };
};

describe('a path that differs from a route only by case or slashes', () => {
  it.each([
    ['GET', '/V1/MODELS', '/v1/models'],
    ['GET', '/v1/Models', '/v1/models'],
    ['GET', '/v1/models/', '/v1/models'],
    ['GET', '/v1//models', '/v1/models'],
    ['POST', '/v1/videos/', '/v1/videos'],
    ['POST', '/V1/Video/Generations', '/v1/video/generations'],
    ['GET', '/V1/VIDEOS/task_AbC123/', '/v1/videos/task_AbC123'],
    ['GET', '/v1/videos/task_AbC123/CONTENT', '/v1/videos/task_AbC123/content'],
  ])(
    '%s %s is a JSON 404 that names %s, never a redirect or an answer',
    async (method, path, meant) => {
      const { status, type, body } = await ask(method, path);
      expect(status).toBe(404);
      expect(type).toMatch(/^application\/json/);
      expect(body.error?.code).toBe('route_not_found');
      expect(body.error?.message).toBe(
        `No route for ${method} ${path}: paths are case- and slash-exact (§4, §9): did you mean ${meant}?`,
      );
    },
  );
});

describe('the exact paths, and paths like no route', () => {
  it('answers the exact paths as before', async () => {
    expect((await ask('GET', '/v1/models')).status).toBe(200);
    expect((await ask('POST', '/v1/videos')).status).toBe(200);
  });

  it('names no path for one that is like none', async () => {
    const { status, body } = await ask('GET', '/v2/models');
    expect(status).toBe(404);
    expect(body.error?.message).toBe('No route for GET /v2/models: see the endpoints of §4');
  });
});
