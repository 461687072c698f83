import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../mocks/core/route-table.ts';
import { Router, withParam } from '../../mocks/core/http/router.ts';

// The router reads a path where it lies (issue 23: the slashes found once, each segment compared in
// place); these pin down what it answers, whatever it reads the path with.

const router = new Router(ROUTES);
const ID = 'task_0123456789abcdefghijABCDEFGHIJ01';

/** The answer of a router that splits the path: what the in-place reading must agree with. */
function reference(method: string, path: string) {
  const segments = path.slice(path.indexOf('/') + 1).split('/');
  const wanted = method === 'HEAD' ? 'GET' : method;
  const allow: string[] = [];
  for (const route of ROUTES) {
    const template = route.template.split('/').slice(1);
    if (template.length !== segments.length || path.indexOf('/') < 0) continue;
    const shaped = template.every((t, i) =>
      t.startsWith('{') ? segments[i] !== '' : t === segments[i],
    );
    if (!shaped) continue;
    const params: Record<string, string> = {};
    try {
      template.forEach((t, i) => {
        if (t.startsWith('{')) params[t.slice(1, -1)] = decodeURIComponent(segments[i]!);
      });
    } catch {
      return { kind: 'bad-path' };
    }
    if (route.method === wanted) return { kind: 'found', operationId: route.operationId, params };
    allow.push(route.method);
  }
  if (allow.length === 0) return { kind: 'not-found' };
  if (allow.includes('GET')) allow.push('HEAD');
  return { kind: 'method-not-allowed', allow };
}

function answer(method: string, path: string) {
  const match = router.match(method, path);
  return match.kind === 'found'
    ? { kind: match.kind, operationId: match.route.operationId, params: match.params }
    : match;
}

describe('Router.match', () => {
  const paths = [
    `/v1/videos/${ID}`,
    `/v1/videos/${ID}/content`,
    `/v1/video/generations/${ID}`,
    '/v1/video/generations',
    '/v1/videos',
    '/v1/videos/',
    '/v1/videos//content',
    `/v1/videos/${ID}/`,
    `/v1/videos/${ID}/content/more`,
    '/v1/videos/task%5F1',
    '/v1/videos/%E0%A4%A',
    '/v1/models',
    '/alt-video/api/v3/contents/generations/tasks',
    `/alt-video/api/v3/contents/generations/tasks/${ID}`,
    '/__mock/tasks/x/outcome',
    '/__mock/family',
    '/__artifacts/abc',
    '/a/b/c/d/e/f/g/h/i/j/k/l',
    '/',
    '',
    'v1/videos',
    `http://host/v1/videos/${ID}`,
  ];
  it.each(['GET', 'HEAD', 'POST', 'PUT', 'DELETE'].flatMap((m) => paths.map((p) => [m, p])))(
    '%s %s answers as splitting the path does',
    (method, path) => {
      expect(answer(method, path)).toEqual(reference(method, path));
    },
  );

  it('finds the status query with its task ID, and tells which methods a path has', () => {
    expect(answer('GET', `/v1/videos/${ID}`)).toEqual({
      kind: 'found',
      operationId: 'getVideo',
      params: { task_id: ID },
    });
    expect(router.match('PUT', '/__mock/clock/advance')).toEqual({
      kind: 'method-not-allowed',
      allow: ['POST'],
    });
  });

  it('answers each path on its own, one after another (nothing carried from the last)', () => {
    const long = `/alt-video/api/v3/contents/generations/tasks/${ID}`;
    expect(answer('GET', long)).toMatchObject({ operationId: 'getPluginTask' });
    expect(answer('GET', '/v1/models')).toMatchObject({ operationId: 'listModels' });
    expect(answer('GET', '/a/b/c/d/e/f/g/h')).toEqual({ kind: 'not-found' });
    expect(answer('GET', `/v1/videos/${ID}`)).toMatchObject({ params: { task_id: ID } });
  });

  it('declares the paths of its routes, with any method', () => {
    expect(router.declares(`/v1/videos/${ID}/content`)).toBe(true);
    expect(router.declares('/v1/videos/%E0%A4%A')).toBe(true);
    expect(router.declares('/v1/videos//content')).toBe(false);
    expect(router.declares('/a/b/c/d/e/f/g/h/i/j')).toBe(false);
  });
});

describe('a path asked again (a polling loop)', () => {
  it('finds the same route and parameters, which no caller can change', () => {
    const fresh = new Router(ROUTES);
    const path = `/v1/videos/${ID}`;
    const first = fresh.match('GET', path);
    const again = fresh.match('GET', `/v1/videos/${ID.slice(0)}`);
    expect(again).toEqual(first);
    expect(again.kind === 'found' && Object.isFrozen(again.params)).toBe(true);
  });

  it('answers another method or path of its own, whatever was asked last', () => {
    const fresh = new Router(ROUTES);
    const path = `/v1/videos/${ID}`;
    fresh.match('GET', path);
    for (const [method, asked] of [
      ['PUT', path],
      ['HEAD', path],
      ['GET', `/v1/videos/${ID}x`],
      ['GET', '/v1/videos'],
    ] as const)
      expect(answer(method, asked)).toEqual(reference(method, asked));
    expect(fresh.match('PUT', path).kind).toBe('method-not-allowed');
  });
});

describe('a path with one parameter set (the learned replay reads task IDs back in the mock form)', () => {
  it('sets that segment, encoded, and keeps every other segment as written', () => {
    const template = '/{plugin_name}/api/v3/contents/generations/tasks/{task_id}';
    const path = '/my%20plugin/api/v3/contents/generations/tasks/vtsk-abc';
    const set = withParam(template, path, 'task_id', ID);
    expect(set).toBe(`/my%20plugin/api/v3/contents/generations/tasks/${ID}`);
    const match = router.match('GET', set);
    expect(match.kind === 'found' && match.params).toEqual({
      plugin_name: 'my plugin',
      task_id: ID,
    });
    expect(
      withParam('/v1/videos/{task_id}/content', '/v1/videos/a%2Fb/content', 'task_id', 'x/y'),
    ).toBe('/v1/videos/x%2Fy/content');
  });

  it('leaves a path whose template has no such parameter as it is', () => {
    expect(withParam('/v1/models', '/v1/models', 'task_id', ID)).toBe('/v1/models');
  });
});
