import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../mocks/core/route-table.ts';
import { Router } from '../../mocks/core/http/router.ts';
import { OPERATIONS } from '../../src/generated/routes.ts';

describe('the mock serves every operation of the generated route table (decisions/030)', () => {
  it('has one route per operation but HEAD, as the specs declare it', () => {
    const served = Object.entries(OPERATIONS).filter(([, route]) => route.method !== 'HEAD');
    expect(ROUTES.map(({ handle: _, ...route }) => route)).toEqual(
      served.map(([operationId, { method, template, access }]) => ({
        operationId,
        method,
        template,
        access,
      })),
    );
    expect(ROUTES.every((route) => typeof route.handle === 'function')).toBe(true);
  });

  it('serves each HEAD operation from the GET of its path', () => {
    const router = new Router(ROUTES);
    for (const [operationId, { method, template }] of Object.entries(OPERATIONS)) {
      if (method !== 'HEAD') continue;
      const match = router.match('HEAD', template.replace(/\{[^}]+\}/g, 'x'));
      expect(match.kind, operationId).toBe('found');
    }
  });
});
