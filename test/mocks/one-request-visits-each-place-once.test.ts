import { afterEach, describe, expect, it, vi } from 'vitest';
import * as neutral from '../../mocks/neutral.ts';
import type { CoreRequest, MockService, ServiceWrapper } from '../../mocks/neutral.ts';

// Issue 23: a status query with a wrapper authenticated its caller and looked its task up twice (the
// wrappers' context, then the core), and with a learned profile a third time in the replay, which also
// parsed back the JSON the route had just written. Each is now done once, where the core does it.

const ORIGIN = 'http://mock.test';
const ALICE = { authorization: 'Bearer sk-mock-alice', 'content-type': 'application/json' };
const request = (method: string, path: string, body?: object): CoreRequest => ({
  method,
  path,
  query: '',
  headers: ALICE,
  origin: ORIGIN,
  ...(body === undefined ? {} : { body: new TextEncoder().encode(JSON.stringify(body)) }),
});

function withTask(options: neutral.MockOptions): { service: MockService; id: string } {
  const service = neutral.createMockService({ clock: { mode: 'manual' }, ...options });
  const created = service.handle(
    request('POST', '/v1/videos', { model: 'video-pro-v1', prompt: 'a red kite' }),
  );
  expect(created.status).toBe(200);
  return { service, id: (JSON.parse(created.body as string) as { id: string }).id };
}

/** How often a status query authenticates, looks a task up, and parses JSON. */
function countsOfQuery(service: MockService, path: string) {
  const authenticate = vi.spyOn(service.tokens, 'authenticate');
  const get = vi.spyOn(service.store, 'get');
  const getOwned = vi.spyOn(service.store, 'getOwned');
  const parse = vi.spyOn(JSON, 'parse');
  const answer = service.handle(request('GET', path));
  const counts = {
    authenticate: authenticate.mock.calls.length,
    lookups: get.mock.calls.length + getOwned.mock.calls.length,
    parses: parse.mock.calls.length,
  };
  vi.restoreAllMocks();
  return { answer, counts };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('one status query', () => {
  it('authenticates and looks up once with a wrapper that never reads the caller or the task', () => {
    const untouched: ServiceWrapper = { after: (_request, response) => response };
    const { service, id } = withTask({ wrap: [untouched] });
    const { answer, counts } = countsOfQuery(service, `/v1/videos/${id}`);
    expect(answer.status).toBe(200);
    expect(counts).toMatchObject({ authenticate: 1, lookups: 1 });
  });

  it('hands a wrapper that reads them after the core the caller and the task the core found', () => {
    const seen: unknown[] = [];
    const reading: ServiceWrapper = {
      after: (_request, response, context) => {
        seen.push(context.caller?.user, context.task?.task.owner, context.task?.snap.status);
        return response;
      },
    };
    const { service, id } = withTask({ wrap: [reading] });
    seen.length = 0; // what it saw of the submission
    const { answer, counts } = countsOfQuery(service, `/v1/videos/${id}`);
    expect(counts).toMatchObject({ authenticate: 1, lookups: 1 });
    const body = JSON.parse(answer.body as string) as { status: string };
    expect(seen).toEqual(['alice', 'alice', body.status]);
  });

  it("still tells a wrapper of another caller's task (the core found none of its caller's)", () => {
    const seen: unknown[] = [];
    const reading: ServiceWrapper = {
      after: (_request, response, context) => {
        seen.push(context.caller?.user, context.task?.task.owner);
        return response;
      },
    };
    const { service, id } = withTask({ wrap: [reading] });
    seen.length = 0; // what it saw of the submission
    const bob = {
      ...request('GET', `/v1/videos/${id}`),
      headers: { authorization: 'Bearer sk-mock-bob' },
    };
    expect(service.handle(bob).status).toBe(404);
    expect(seen).toEqual(['bob', 'alice']);
  });

  it('authenticates and looks up once, and parses nothing, with the observed profile', () => {
    const { service, id } = withTask({ profile: 'observed' });
    const { answer, counts } = countsOfQuery(service, `/v1/videos/${id}`);
    expect(answer.status).toBe(200);
    expect(counts).toEqual({ authenticate: 1, lookups: 1, parses: 0 });
  });
});
