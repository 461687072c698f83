// Issue 20: `response.clientViolations` read the judge's one reused list, so calling it after the
// service had answered another request gave that request's violations (or none). Each answer's
// violations are now a list of their own.
import { expect, it } from 'vitest';
import { createMockService } from '../../mocks/index.ts';
import { coreRequest } from '../helpers/core-client.ts';

it("keeps an answer's violations after the service answered another request", () => {
  const service = createMockService({ clock: { mode: 'manual' } });
  const ask = (key: string | null) => service.handle(coreRequest('GET', '/v1/models', { key }));
  const keyless = ask(null);
  const keyed = ask('sk-mock-alice');
  expect(keyed.clientViolations).toBeUndefined();
  expect(keyless.clientViolations?.().map((v) => v.rule)).toEqual(['authorization-header']);
});
