import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/generated/routes.ts';
import { controlSpec, serviceSpec } from '../../src/spec/load-spec.ts';
import { fillTemplate, readRoutes } from '../../src/spec/routes.ts';
import type { OpenApiDocument } from '../../src/spec/spec-types.ts';

/** A spec of one operation with the given security, over the given schemes. */
function spec(
  security: OpenApiDocument['security'],
  schemes: Record<string, Record<string, unknown>>,
): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/x/{id}': { get: { operationId: 'getX', responses: {}, ...(security && { security }) } },
    },
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

  it('fills a template with encoded parameters and names one it lacks', () => {
    expect(
      fillTemplate('/{plugin_name}/t/{task_id}', { plugin_name: 'alt', task_id: 'a/b c' }),
    ).toBe('/alt/t/a%2Fb%20c');
    expect(() => fillTemplate('/v1/videos/{task_id}', {})).toThrow(
      '/v1/videos/{task_id} needs the path parameter task_id',
    );
  });
});
