import { describe, expect, it } from 'vitest';
import { createMockService, type MockService } from '../../mocks/index.ts';
import { RenderedTasks, sameJson } from '../../mocks/core/render/rendered-tasks.ts';
import { snapshot } from '../../mocks/core/plan/snapshot.ts';
import { coreRequest } from '../helpers/core-client.ts';

describe('sameJson: whether JSON.stringify makes the same text of both', () => {
  const cases: [string, unknown, unknown][] = [
    ['equal flat objects', { a: 1, b: 'x' }, { a: 1, b: 'x' }],
    ['nested objects and arrays', { a: { b: [1, { c: null }] } }, { a: { b: [1, { c: null }] } }],
    ['the same keys in another order', { a: 1, b: 2 }, { b: 2, a: 1 }],
    ['a member more', { a: 1 }, { a: 1, b: 2 }],
    ['another leaf', { a: { b: 1 } }, { a: { b: 2 } }],
    ['a number and its string', { a: 1 }, { a: '1' }],
    ['arrays of other lengths', [1, 2], [1, 2, 3]],
    ['an array and an object', { a: [] }, { a: {} }],
    ['an undefined member (left out of the text)', { a: undefined }, { a: undefined }],
    ['NaN (written null)', { a: Number.NaN }, { a: Number.NaN }],
    ['a Date (its toJSON)', { a: new Date(0) }, { a: new Date(0) }],
    ['a Date and an empty object', { a: new Date(0) }, { a: {} }],
    ['an array and an object of its items', { a: [1] }, { a: { 0: 1 } }],
    ['nested empty containers', [[], {}], [{}, []]],
    ['a member after a nested object', { a: { b: 1 } }, { a: { b: 1 }, c: 2 }],
    ['a member moved out of a nested object', { a: { b: 1, c: 2 } }, { a: { b: 1 }, c: 2 }],
    ['a left-out member and a missing one', { a: 1, b: undefined }, { a: 1 }],
    [
      'a missing item and an undefined one (both null)',
      new Array<number>(3).fill(1, 0, 1),
      [1, undefined, undefined],
    ],
    ['a key and the same text as a value', { a: 'b' }, { b: 'a' }],
  ];
  it.each(cases)('%s', (_name, a, b) => {
    // Never "same" when the texts differ; "different" may be conservative (a miss costs a stringify).
    if (sameJson(a, b)) expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    if (JSON.stringify(a) !== JSON.stringify(b)) expect(sameJson(a, b)).toBe(false);
  });

  it('calls the plain cases that matter the same', () => {
    expect(
      sameJson({ a: 1, b: { c: [1, 'x', true, null] } }, { a: 1, b: { c: [1, 'x', true, null] } }),
    ).toBe(true);
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson([{ a: [] }, 'x'], [{ a: [] }, 'x'])).toBe(true);
  });

  it('calls objects different when Object.prototype has a key (for…in finds it, JSON.stringify not)', () => {
    Object.defineProperty(Object.prototype, 'added', {
      value: 1,
      enumerable: true,
      configurable: true,
    });
    let same: boolean;
    try {
      same = sameJson({ a: 1 }, { a: 1 });
    } finally {
      delete (Object.prototype as Record<string, unknown>)['added'];
    }
    expect(same).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1 })).toBe(true);
  });
});

describe('RenderedTasks', () => {
  it('gives every body its own text, the kept one while the body stays the same', () => {
    const rendered = new RenderedTasks();
    const bodies = [
      { id: 't', status: 'queued', progress: 0 },
      { id: 't', status: 'queued', progress: 0 },
      { id: 't', status: 'in_progress', progress: 10 },
      { id: 't', status: 'in_progress', progress: 10, metadata: { url: '' } },
      { id: 't', status: 'completed', progress: 100, metadata: { url: 'http://a.test/x' } },
      { id: 't', status: 'completed', progress: 100, metadata: { url: 'http://b.test/x' } },
    ];
    const texts = bodies.map((body) => rendered.text('t', structuredClone(body)));
    expect(texts).toEqual(bodies.map((body) => JSON.stringify(body)));
    expect(rendered.size).toBe(1);
  });

  it('keeps at most its capacity, forgetting the oldest task first', () => {
    const rendered = new RenderedTasks(2);
    for (const id of ['a', 'b', 'c']) rendered.text(id, { id });
    expect(rendered.size).toBe(2);
    expect(rendered.text('a', { id: 'a', again: true })).toBe('{"id":"a","again":true}');
    expect(rendered.size).toBe(2);
  });

  it('keeps a copy: a body changed after its text was made changes nothing it answers later', () => {
    const rendered = new RenderedTasks();
    const body = { id: 't', error: { code: 'X' } };
    rendered.text('t', body);
    body.error.code = 'Y';
    expect(rendered.text('t', { id: 't', error: { code: 'Y' } })).toBe(
      '{"id":"t","error":{"code":"Y"}}',
    );
    expect(rendered.text('t', { id: 't', error: { code: 'X' } })).toBe(
      '{"id":"t","error":{"code":"X"}}',
    );
  });
});

describe('status answers while a task changes (RenderedTasks in the service)', () => {
  it('answer each poll with the text of what the task is at that moment', () => {
    const service = createMockService({ clock: { mode: 'manual' }, seed: 'polls' });
    const id = submitVia(service, 'http://a.test');
    const task = service.store.get(id)!;
    const statuses = new Set<string>();
    for (let step = 0; step < 40; step++) {
      const now = snapshot(task.createdAt, task.plan, service.clock.now());
      for (const path of [`/v1/videos/${id}`, `/v1/video/generations/${id}`]) {
        const first = getVia(service, path, 'http://a.test');
        expect(getVia(service, path, 'http://a.test')).toBe(first);
        const body = JSON.parse(first) as { status?: string; progress?: number; data?: object };
        expect(JSON.stringify(body)).toBe(first);
        if (body.data === undefined)
          expect(body).toMatchObject({ status: now.status, progress: now.progress });
      }
      statuses.add(now.status);
      service.clock.advance(3_000);
    }
    expect(statuses.size).toBeGreaterThan(2);
  });

  it('gives each origin its own result URL for the same completed task', () => {
    const service = createMockService({ clock: { mode: 'manual' }, seed: 'origins' });
    const id = submitVia(service, 'http://a.test');
    service.clock.advance(600_000);
    const urlVia = (origin: string) =>
      (JSON.parse(getVia(service, `/v1/videos/${id}`, origin)) as { metadata?: { url: string } })
        .metadata?.url;
    expect(urlVia('http://a.test')).toMatch(/^http:\/\/a\.test\//);
    expect(urlVia('http://b.test')).toMatch(/^http:\/\/b\.test\//);
    expect(urlVia('http://a.test')).toMatch(/^http:\/\/a\.test\//);
  });
});

function submitVia(service: MockService, origin: string): string {
  const body = { model: 'video-lite-v1', prompt: 'tide' };
  const submitted = service.handle(coreRequest('POST', '/v1/videos', { body, origin }));
  return (JSON.parse(submitted.body as string) as { id: string }).id;
}

/** The answer's text, as the hosts send it. */
function getVia(service: MockService, path: string, origin: string): string {
  return service.handle(coreRequest('GET', path, { origin })).body as string;
}
