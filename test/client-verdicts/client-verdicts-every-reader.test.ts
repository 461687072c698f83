// Issue 32 item 4: `follow-content-redirects` reached `clientReport()` and `assertNoClientViolations`
// only, while the docs say the `onClientViolation` callback gets each verdict: it was judged when a
// report was read, and nothing told the handlers. Now it is judged at the caller's next request a while
// later (that request carries it: the callback gets it, 'error' answers it 400), and one a report
// settles is told to the handlers' callback too.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHandlers, createMockService, type ClientVerdict } from '../../mocks/index.ts';

const BASE = 'http://redirect-readers.test';
const service = createMockService({
  clock: { mode: 'manual', start: Date.UTC(2026, 10, 22) },
  seed: 'readers',
  contentRedirect: true,
});
const told: ClientVerdict[] = [];
const server = setupServer(
  ...createHandlers(service, { baseUrl: BASE, onClientViolation: (v) => told.push(v) }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const headers = { authorization: 'Bearer sk-mock-alice', 'content-type': 'application/json' };

async function redirectedAndLeft(): Promise<void> {
  const body = JSON.stringify({ model: 'video-pro-v1', prompt: `a kite ${told.length}` });
  const submitted = await fetch(`${BASE}/v1/videos`, { method: 'POST', headers, body });
  const { id } = (await submitted.json()) as { id: string };
  service.clock.advance(10 * 60_000);
  await fetch(`${BASE}/v1/videos/${id}`, { headers }); // completed
  const content = await fetch(`${BASE}/v1/videos/${id}/content`, { headers, redirect: 'manual' });
  expect(content.status).toBe(302); // …and never asks for its Location
}

it('tells the callback of a redirect never followed, at the next request a while later', async () => {
  await redirectedAndLeft();
  service.clock.advance(5_000);
  await fetch(`${BASE}/v1/models`, { headers });
  expect(told.map((v) => v.rule)).toEqual(['follow-content-redirects']);
  expect(service.clientReport().verdicts.map((v) => v.rule)).toEqual(['follow-content-redirects']);
});

it('tells the callback of one a report settles, as the report lists it', async () => {
  told.length = 0;
  service.clientVerdicts.clear();
  await redirectedAndLeft();
  await fetch(`${BASE}/v1/models`, { headers }); // at once: the follow-up might still come
  expect(told).toEqual([]);
  const report = service.clientReport();
  expect(report.verdicts.map((v) => v.rule)).toEqual(['follow-content-redirects']);
  expect(told.map((v) => [v.rule, v.taskId])).toEqual(
    report.verdicts.map((v) => [v.rule, v.taskId]),
  );
});
