// Issue 20: `response.clientViolations` read the judge's one reused list, so calling it after the
// service had answered another request gave that request's violations (or none). Each answer's
// violations are now a list of their own.
import { expect, it } from 'vitest';
import { createMockService } from '../../mocks/index.ts';

it("keeps an answer's violations after the service answered another request", () => {
  const service = createMockService({ clock: { mode: 'manual' } });
  const ask = (headers: Record<string, string>) =>
    service.handle({ method: 'GET', path: '/v1/models', query: '', headers, origin: 'http://m' });
  const keyless = ask({});
  const keyed = ask({ authorization: 'Bearer sk-mock-alice' });
  expect(keyed.clientViolations).toBeUndefined();
  expect(keyless.clientViolations?.().map((v) => v.rule)).toEqual(['authorization-header']);
});
