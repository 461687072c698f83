import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from '../../mocks/core/http/router.ts';
import { jsonOf, withJson } from '../../mocks/defects/support.ts';
import * as node from '../../mocks/index.ts';
import * as neutral from '../../mocks/neutral.ts';
import type { CoreRequest, ServiceWrapper, WrapContext } from '../../mocks/neutral.ts';
import OBSERVED from '../../mocks/profiles/observed.json' with { type: 'json' };
import { coreRequest } from '../helpers/core-client.ts';

// decisions/029: the core takes wrappers and knows no defect; names are resolved on the Node side; the
// wrappers' context is built once per request, from the one route match the core makes.

const submission = (): CoreRequest =>
  coreRequest('POST', '/v1/videos', { body: { model: 'video-pro-v1', prompt: 'kite' } });
const get = (path: string): CoreRequest => coreRequest('GET', path);
const health = (service: { handle(request: CoreRequest): { body?: unknown } }) =>
  JSON.parse(service.handle(get('/__mock/health')).body as string) as { defects: string[] };

/** A wrapper that stamps every JSON answer of a service operation, and notes what it was told. */
function stamping(name?: string): ServiceWrapper & { seen: WrapContext[] } {
  const seen: WrapContext[] = [];
  return {
    ...(name === undefined ? {} : { name }),
    seen,
    before(request, context) {
      seen.push(context);
      return request;
    },
    after(_request, response, context) {
      seen.push(context);
      const body = jsonOf(response);
      return body === undefined || context.operationId === undefined
        ? response
        : withJson(response, { ...body, wrapped: context.operationId });
    },
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the environment-neutral entry', () => {
  it('takes wrapper objects: each rewrites the answers, told the operation', () => {
    const wrapper = stamping('stamp');
    const service = neutral.createMockService({ clock: { mode: 'manual' }, wrap: [wrapper] });
    const answer = service.handle(submission());
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body as string)).toMatchObject({ wrapped: 'createVideo' });
    expect(health(service).defects).toEqual(['stamp']);
  });

  it('refuses defects (names or objects): naming and resolving them is the Node entry’s', () => {
    for (const defects of [['no-progress'], [stamping('x')]]) {
      const options = { defects } as unknown as neutral.MockOptions;
      const where = /defects are named and resolved in Node.*'videotask\/mocks'.*wrap: \[/;
      expect(() => neutral.createMockService(options)).toThrow(where);
      expect(() => neutral.createHandlers(options)).toThrow(where);
    }
  });
});

describe('the Node entry', () => {
  it('resolves defect names and plays them around the core, before the given wrappers', () => {
    const wrapper = stamping();
    const service = node.createMockService({
      clock: { mode: 'manual' },
      defects: ['auth-skipped'],
      wrap: [wrapper],
    });
    expect(service.defects).toEqual(['auth-skipped']);
    expect(health(service).defects).toEqual(['auth-skipped']);
    // auth-skipped: the catalog answers without a key (§5 broken); the stamp sees the answer after it.
    const models = service.handle(coreRequest('GET', '/v1/models', { key: null }));
    expect(models.status).toBe(200);
    expect(JSON.parse(models.body as string)).toMatchObject({ wrapped: 'listModels' });
  });

  it('names an unknown defect and where to find the known ones', () => {
    expect(() => node.createMockService({ defects: ['nope'] })).toThrow(
      /Unknown defect "nope".*--list-defects/,
    );
  });
});

describe("the wrappers' context", () => {
  it('is built once per request from the one route match, and every hook gets that same object', () => {
    const match = vi.spyOn(Router.prototype, 'match');
    const [first, second] = [stamping('first'), stamping('second')];
    const service = neutral.createMockService({ clock: { mode: 'manual' }, wrap: [first, second] });
    match.mockClear();
    const created = JSON.parse(service.handle(submission()).body as string) as { id: string };
    expect(match).toHaveBeenCalledTimes(1);
    match.mockClear();
    service.handle(get(`/v1/videos/${created.id}`));
    expect(match).toHaveBeenCalledTimes(1);
    const asked = first.seen.slice(2);
    expect([...asked, ...second.seen.slice(2)].every((c) => c === asked[0])).toBe(true);
    expect(asked[0]).toMatchObject({
      operationId: 'getVideo',
      taskId: created.id,
      caller: { user: 'alice' },
      task: { task: { owner: 'alice' } },
    });
  });

  it('is the same one match with a learned profile replaying the answers', () => {
    const match = vi.spyOn(Router.prototype, 'match');
    const wrapper = stamping();
    const profile = { ...OBSERVED, name: 'staging' } as never;
    const service = neutral.createMockService({
      clock: { mode: 'manual' },
      profile,
      wrap: [wrapper],
    });
    match.mockClear();
    const answer = service.handle(submission());
    expect(answer.status).toBe(200);
    expect(match).toHaveBeenCalledTimes(1);
    expect(wrapper.seen[0]).toBe(wrapper.seen[1]);
  });

  it('describes the request as it arrived when a wrapper sends it elsewhere (the core matches that)', () => {
    const match = vi.spyOn(Router.prototype, 'match');
    const seen: WrapContext[] = [];
    const service = neutral.createMockService({
      clock: { mode: 'manual' },
      wrap: [
        {
          before: (request, context) => (seen.push(context), { ...request, path: '/v1/models' }),
        },
      ],
    });
    match.mockClear();
    const answer = service.handle(get('/v1/videos/task_nope'));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body as string)).toMatchObject({ object: 'list' });
    expect(seen[0]).toMatchObject({
      operationId: 'getVideo',
      taskId: 'task_nope',
      task: undefined,
    });
    expect(match).toHaveBeenCalledTimes(2);
  });
});
