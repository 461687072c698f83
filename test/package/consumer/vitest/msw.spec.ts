import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createHandlers, createMockService } from 'videotask/mocks';

const service = createMockService({ clock: { mode: 'manual' }, seed: 1 });
const server = setupServer(...createHandlers(service));
const headers = { authorization: 'Bearer sk-mock-alice', 'content-type': 'application/json' };
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

async function json(path: string, init: RequestInit = {}): Promise<{ id: string; status: string }> {
  const response = await fetch(`https://video.example${path}`, { headers, ...init });
  return (await response.json()) as { id: string; status: string };
}

test('a submitted task completes on the manual clock and its content is an MP4', async () => {
  const body = JSON.stringify({ model: 'video-pro-v1', prompt: 'a red kite' });
  const task = await json('/v1/videos', { method: 'POST', body });
  expect(task.status).toBe('queued');
  service.clock.advance(10 * 60_000);
  expect((await json(`/v1/videos/${task.id}`)).status).toBe('completed');
  const content = await fetch(`https://video.example/v1/videos/${task.id}/content`, { headers });
  const bytes = new Uint8Array(await content.arrayBuffer());
  expect(new TextDecoder().decode(bytes.subarray(4, 8))).toBe('ftyp');
});
