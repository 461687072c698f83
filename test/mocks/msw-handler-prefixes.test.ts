import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHandlers, createMockService } from '../../mocks/index.ts';

/**
 * Issue 23, "Thin hosts": the msw host has one handler per path prefix (the service's declared paths,
 * `/__mock/`, `/__artifacts/`) and the core routes what they take, where it had one msw handler per
 * route that matched each path before the core matched it again. Which requests are the mock's is
 * unchanged (docs/mock.md, "Which requests the handlers answer"); a HEAD answer has no body, the
 * host's own answers included.
 */
const BASE = 'https://video.example.com/gw';
const ALICE = { authorization: 'Bearer sk-mock-alice' };
const service = createMockService({ clock: { mode: 'manual' }, seed: 'prefixes' });
const unhandled: string[] = [];
const server = setupServer();

beforeAll(() =>
  server.listen({
    onUnhandledRequest(request) {
      unhandled.push(`${request.method} ${new URL(request.url).pathname}`);
      throw new Error('unhandled');
    },
  }),
);
afterAll(() => server.close());

async function outcome(path: string, init: RequestInit = {}): Promise<number | 'unhandled'> {
  const before = unhandled.length;
  const status = await fetch(`${BASE}${path}`, { ...init, headers: ALICE }).then(
    async (response) => (await response.arrayBuffer(), response.status),
    () => 0,
  );
  return unhandled.length > before ? 'unhandled' : status;
}

describe('createHandlers: one handler per path prefix', () => {
  it('makes three handlers, whatever the route table holds', () => {
    expect(createHandlers(service, { baseUrl: BASE })).toHaveLength(3);
  });

  it('takes the same requests the per-route handlers took', async () => {
    server.resetHandlers(...createHandlers(service, { baseUrl: BASE }));
    const cases: [string, RequestInit, number | 'unhandled'][] = [
      ['/v1/models', {}, 200],
      ['/v1/models/', {}, 404], // msw's paths allowed one trailing slash: the core answers it
      ['/V1/MODELS', {}, 404], // msw's paths match in any case: the core answers its 404
      ['/v1/models', { method: 'DELETE' }, 405],
      ['/v1/videos/%E0%A4%A', {}, 404],
      ['/myplugin/api/v3/contents/generations/tasks/t1', {}, 404],
      ['/__mock/health', {}, 200],
      ['/__mock/nothing/here', {}, 404],
      ['/__artifacts/unsigned', {}, 403],
      ['/__artifacts/no/such/name', {}, 404],
      ['/v1/chat/completions', { method: 'POST' }, 'unhandled'],
      ['/v1/videos/', {}, 404], // /v1/videos (POST) with msw's trailing slash
      ['/v1/videos/t1/content/more', {}, 'unhandled'],
      ['/__mock', {}, 'unhandled'],
      ['/api/v1/models', {}, 'unhandled'],
    ];
    for (const [path, init, expected] of cases)
      expect([path, init.method ?? 'GET', await outcome(path, init)]).toEqual([
        path,
        init.method ?? 'GET',
        expected,
      ]);
    // Outside the base path, or on another origin: never the mock's.
    await fetch('https://video.example.com/v1/models', { headers: ALICE }).catch(() => {});
    await fetch('https://other.example.com/gw/v1/models', { headers: ALICE }).catch(() => {});
    expect(unhandled.slice(-2)).toEqual(['GET /v1/models', 'GET /gw/v1/models']);
  });

  it("answers HEAD without a body, the host's own 400 under onClientViolation 'error' included", async () => {
    server.resetHandlers(...createHandlers(service, { baseUrl: BASE, onClientViolation: 'error' }));
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    const plain = await fetch(`${BASE}/v1/models`, { method: 'HEAD', headers: ALICE });
    expect(plain.status).toBe(200);
    expect((await plain.arrayBuffer()).byteLength).toBe(0);
    // No Authorization: the authorization-header rule (§5); getVideo declares a 400, so the host answers it.
    const refused = await fetch(`${BASE}/v1/videos/task_missing`, { method: 'HEAD' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('x-mock-client-rule')).toContain('authorization-header');
    expect((await refused.arrayBuffer()).byteLength).toBe(0);
    printed.mockRestore();
  });
});
