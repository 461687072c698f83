// An ES module test file (the project is "type": "module"), run with
// NODE_OPTIONS=--experimental-vm-modules npx jest
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { setupServer } from 'msw/node';
import { VideoTaskClient } from 'videotask';
import { createHandlers, createMockService } from 'videotask/mocks';

const service = createMockService({ clock: { mode: 'manual' }, seed: 1 });
const server = setupServer(...createHandlers(service));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

test('the client submits to the mock and sees the task complete', async () => {
  const client = new VideoTaskClient({ baseUrl: 'https://video.example', apiKey: 'sk-mock-alice' });
  const task = await client.submit({ model: 'video-lite-v1', prompt: 'a red kite' });
  expect(task.status).toBe('queued');
  service.clock.advance(10 * 60_000);
  expect((await client.getVideo(task.id)).status).toBe('completed');
});
