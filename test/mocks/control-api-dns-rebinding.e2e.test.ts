import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/index.ts';
import { exchange } from '../helpers/http-exchange.ts';

// Issue 14 item 1: the control API checked only the socket's address. Under DNS rebinding a page of
// evil.example, its name re-pointed at 127.0.0.1, talks to the mock from the developer's own browser:
// loopback peer, same origin for the browser, `Host: evil.example:PORT`.
let server: RunningMockServer;
let guarded: RunningMockServer;

beforeAll(async () => {
  server = await startMockServer({ port: 0, clock: { mode: 'manual' } });
  guarded = await startMockServer({ port: 0, adminToken: 'admin-secret-1234' });
});
afterAll(() => Promise.all([server.close(), guarded.close()]));

const health = (target: RunningMockServer, host: string, authorization?: string) =>
  exchange(`${target.url}/__mock/health`, {
    headers: { host, ...(authorization === undefined ? {} : { authorization }) },
  });

it('refuses the control API under a Host that names another site', async () => {
  for (const host of [
    `evil.example:${server.port}`,
    'evil.example',
    `localhost:${server.port + 1}`,
  ]) {
    const answer = await health(server, host);
    expect(answer.status, host).toBe(403);
    expect(answer.json).toMatchObject({ error: { code: 'forbidden' } });
    expect(JSON.stringify(answer.json)).toMatch(/Host/);
  }
});

it('answers under the address it listens on and the loopback names, with its port', async () => {
  for (const host of [
    `127.0.0.1:${server.port}`,
    '127.0.0.1',
    `localhost:${server.port}`,
    `LOCALHOST:${server.port}`,
    `[::1]:${server.port}`,
  ])
    expect((await health(server, host)).status, host).toBe(200);
});

it('serves the service routes under any Host (they carry no control power)', async () => {
  const answer = await exchange(`${server.url}/v1/models`, {
    headers: { host: `evil.example:${server.port}`, authorization: 'Bearer sk-mock-alice' },
  });
  expect(answer.status).toBe(200);
});

it('with --admin-token, answers any Host that brings the token, and no Host without it', async () => {
  const host = `mock.internal:${guarded.port}`;
  expect((await health(guarded, host, 'Bearer admin-secret-1234')).status).toBe(200);
  expect((await health(guarded, host)).status).toBe(403);
  expect((await health(guarded, `127.0.0.1:${guarded.port}`)).status).toBe(403);
});
