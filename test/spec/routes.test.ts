import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/generated/routes.ts';
import { controlSpec, serviceSpec } from '../../src/spec/load-spec.ts';
import { operationsWith, roleOf } from '../../src/spec/route-roles.ts';
import { fillTemplate, readRoutes } from '../../src/spec/routes.ts';
import type { OpenApiDocument } from '../../src/spec/spec-types.ts';

/** A spec of one operation with the given security, over the given schemes. */
function spec(
  security: OpenApiDocument['security'],
  schemes: Record<string, Record<string, unknown>>,
  role: Record<string, unknown> = { 'x-role': { kind: 'query', form: 'openai', family: 'any' } },
): OpenApiDocument {
  const operation = { operationId: 'getX', responses: {}, 'x-source': '§4.2', ...role };
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: { '/x/{id}': { get: { ...operation, ...(security && { security }) } } },
    components: { securitySchemes: schemes as never },
  };
}
const BEARER = { type: 'http', scheme: 'bearer' };

describe('the route table generated from the specs (decisions/030)', () => {
  it('lists every operation of both specs with its method, template and access', () => {
    const read = [...readRoutes(serviceSpec), ...readRoutes(controlSpec)];
    expect(read.map(({ operationId, ...route }) => [operationId, route])).toEqual(
      Object.entries(OPERATIONS),
    );
    expect(OPERATIONS.getVideo).toEqual({
      method: 'GET',
      template: '/v1/videos/{task_id}',
      access: 'service',
      role: { kind: 'query', form: 'openai', family: 'any', section: '§4.2' },
    });
    expect(OPERATIONS.headVideoContent.method).toBe('HEAD');
    expect(OPERATIONS.resetMock.access).toBe('control');
    expect(OPERATIONS.getMockArtifact.access).toBe('public');
  });

  it("reads the access from the x-access of the schemes an operation's security names", () => {
    const schemes = { key: { ...BEARER, 'x-access': 'service' } };
    expect(readRoutes(spec([{ key: [] }], schemes))[0]?.access).toBe('service');
    expect(readRoutes(spec([{}, { key: [] }], schemes))[0]?.access).toBe('service');
    expect(readRoutes(spec([{}], schemes))[0]?.access).toBe('public');
    expect(readRoutes(spec(undefined, schemes))[0]?.access).toBe('public');
    expect(readRoutes({ ...spec(undefined, schemes), security: [{ key: [] }] })[0]?.access).toBe(
      'service',
    );
  });

  it('refuses a scheme without x-access, or schemes that mean different access', () => {
    expect(() => readRoutes(spec([{ key: [] }], { key: BEARER }))).toThrow(
      'GET /x/{id} (getX): security scheme key needs x-access (service | control | public), got undefined',
    );
    const two = {
      a: { ...BEARER, 'x-access': 'service' },
      b: { ...BEARER, 'x-access': 'control' },
    };
    expect(() => readRoutes(spec([{ a: [] }, { b: [] }], two))).toThrow(
      'GET /x/{id} (getX): its security schemes mean different access: service, control',
    );
  });

  it("reads each operation's x-role with its x-source as the section (decisions/057)", () => {
    const schemes = { key: { ...BEARER, 'x-access': 'service' } };
    expect(readRoutes(spec([{ key: [] }], schemes))[0]?.role).toEqual({
      kind: 'query',
      form: 'openai',
      family: 'any',
      section: '§4.2',
    });
    const content = { 'x-role': { kind: 'content', family: 'any' } };
    expect(readRoutes(spec([{ key: [] }], schemes, content))[0]?.role).toEqual({
      kind: 'content',
      family: 'any',
      section: '§4.2',
    });
  });

  it('refuses an operation a service key calls without x-role, or a role it cannot have', () => {
    const schemes = { key: { ...BEARER, 'x-access': 'service' } };
    const refused = (role: Record<string, unknown>) => () =>
      readRoutes(spec([{ key: [] }], schemes, role));
    expect(refused({})).toThrow(
      'GET /x/{id} (getX): an operation a service key calls needs x-role',
    );
    expect(refused({ 'x-role': { kind: 'poll', family: 'any' } })).toThrow(
      'GET /x/{id} (getX): x-role.kind must be one of submit | query | content | catalog | artifact, got "poll"',
    );
    expect(refused({ 'x-role': { kind: 'query', family: 'any' } })).toThrow(
      'GET /x/{id} (getX): x-role.form must be one of openai | wrapper | native, got undefined',
    );
    expect(refused({ 'x-role': { kind: 'content', form: 'openai', family: 'any' } })).toThrow(
      'GET /x/{id} (getX): x-role.form is for submit and query only',
    );
    expect(
      refused({ 'x-role': { kind: 'catalog', family: 'any' }, 'x-source': undefined }),
    ).toThrow('GET /x/{id} (getX): an operation with x-role needs its x-source');
  });

  it('selects operations by role, in the specs order', () => {
    expect(operationsWith({ kind: 'submit', form: 'openai' })).toEqual([
      'createVideoGeneration',
      'createVideo',
    ]);
    expect(operationsWith({ family: 'second' })).toEqual(['createPluginTask', 'getPluginTask']);
    expect(operationsWith({ kind: ['query', 'content'], family: 'any' })).toEqual([
      'getVideo',
      'getVideoGeneration',
      'getVideoContent',
    ]);
    expect(roleOf('headVideoContent')).toBeUndefined();
    expect(roleOf('getMockArtifact')?.kind).toBe('artifact');
  });

  it('fills a template with encoded parameters and names one it lacks', () => {
    expect(
      fillTemplate('/{plugin_name}/t/{task_id}', { plugin_name: 'alt', task_id: 'a/b c' }),
    ).toBe('/alt/t/a%2Fb%20c');
    expect(() => fillTemplate('/v1/videos/{task_id}', {})).toThrow(
      '/v1/videos/{task_id} needs the path parameter task_id',
    );
  });
});
