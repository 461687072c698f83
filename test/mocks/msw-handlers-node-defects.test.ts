import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHandlers } from '../../mocks/index.ts';

// After the core stopped naming defects (decisions/029), the Node entry's `createHandlers` still built
// its service with the neutral core, so `createHandlers({ defects: ['auth-skipped'] })` threw "use the
// Node entry" from the Node entry itself. Given options, it now builds the Node entry's service.
const server = setupServer(
  ...createHandlers({ defects: ['auth-skipped'], clock: { mode: 'manual' } }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

it('plays a defect named in the options given to the Node entry', async () => {
  // auth-skipped: the catalog answers without a key (§5 says 401).
  const response = await fetch('http://api.video.test/v1/models');
  expect(response.status).toBe(200);
  const health = (await (await fetch('http://api.video.test/__mock/health')).json()) as {
    defects: string[];
  };
  expect(health.defects).toEqual(['auth-skipped']);
});
