import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createHandlers,
  createMockService,
  startMockServer,
  type RunningMockServer,
} from '../../mocks/index.ts';
import { SpecValidators, controlSpec } from '../../src/spec/index.ts';
import { exchange, type Exchange } from '../helpers/http-exchange.ts';

// Issue 14 item 1: every route, /__mock/* included, answered `Access-Control-Allow-Origin: *`, and a
// control write took any body type. A form on any web site wiped the mock (`POST /__mock/reset` with
// `Content-Type: text/plain` is a CORS "simple request", sent without asking) and any page could read
// `GET /__mock/tasks` (every user's tasks).
const EVIL = 'https://evil.example';
const controlError = new SpecValidators(controlSpec).schema('ControlError');
let server: RunningMockServer;

beforeAll(async () => {
  server = await startMockServer({ port: 0, clock: { mode: 'manual' }, seed: 1 });
});
afterAll(() => server.close());

async function submit(): Promise<void> {
  const answer = await exchange(`${server.url}/v1/video/generations`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-mock-alice', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'video-pro-v1', prompt: 'a kite' }),
  });
  expect(answer.status).toBe(200);
}

function expectControlError(answer: Exchange, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(controlError.validateFull(answer.json).errors).toEqual([]);
  expect(answer.json).toMatchObject({ error: { code } });
}

it('refuses the reproduction: a cross-site text/plain POST /__mock/reset resets nothing', async () => {
  await submit();
  const before = server.service.store.size;
  const answer = await exchange(`${server.url}/__mock/reset`, {
    method: 'POST',
    headers: { origin: EVIL, 'content-type': 'text/plain' },
    body: 'x',
  });
  expect(answer.status).toBeGreaterThanOrEqual(400);
  expect(answer.status).toBeLessThan(500);
  expect(answer.json).not.toMatchObject({ reset: true });
  expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  expect(server.service.store.size).toBe(before);
});

it('answers a control write without Content-Type: application/json with 415 JSON, Origin or not', async () => {
  await submit();
  const before = server.service.store.size;
  for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
    const headers: Record<string, string> =
      contentType === undefined ? {} : { 'content-type': contentType };
    const answer = await exchange(`${server.url}/__mock/reset`, { method: 'POST', headers });
    expectControlError(answer, 415, 'unsupported_media_type');
    expect(server.service.store.size).toBe(before);
  }
  const json = await exchange(`${server.url}/__mock/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: '{"ms":1000}',
  });
  expect(json.status).toBe(200);
});

it('gives no other origin a control answer to read: no CORS header, and a 403', async () => {
  await submit();
  const answer = await exchange(`${server.url}/__mock/tasks`, { headers: { origin: EVIL } });
  expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  expectControlError(answer, 403, 'forbidden');
  expect(answer.text).not.toContain('task_');
});

it('answers no CORS preflight on the control API', async () => {
  const answer = await exchange(`${server.url}/__mock/reset`, {
    method: 'OPTIONS',
    headers: {
      origin: EVIL,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    },
  });
  expect(answer.status).toBeGreaterThanOrEqual(400);
  expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  expect(answer.headers['access-control-allow-methods']).toBeUndefined();
});

it('keeps CORS on the service routes, for a front-end page that calls the mock directly', async () => {
  const read = await exchange(`${server.url}/v1/models`, {
    headers: { origin: 'http://localhost:3000', authorization: 'Bearer sk-mock-alice' },
  });
  expect(read.status).toBe(200);
  expect(read.headers['access-control-allow-origin']).toBe('*');
  const preflight = await exchange(`${server.url}/v1/videos`, {
    method: 'OPTIONS',
    headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers['access-control-allow-origin']).toBe('*');
});

it('leaves the in-process msw host as it was: no Origin or content-type rule there', async () => {
  const service = createMockService({ clock: { mode: 'manual' } });
  const msw = setupServer(...createHandlers(service));
  msw.listen({ onUnhandledRequest: 'error' });
  try {
    const reset = await fetch('http://mock.test/__mock/reset', { method: 'POST' });
    expect(reset.status).toBe(200);
    const tasks = await fetch('http://mock.test/__mock/tasks', { headers: { origin: EVIL } });
    expect(tasks.status).toBe(200);
  } finally {
    msw.close();
  }
});
