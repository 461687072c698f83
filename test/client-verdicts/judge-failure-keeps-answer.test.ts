// Issue 33 item 1, second sentence: a failure of the client judge must never take the answer or the
// process with it. Before, `observe` ran outside any catch: whatever threw in the observer or the judge
// reached the host (a dead process, a worker gone, a 500 with a stack in msw). Now the request is
// answered as if judging were off and counted in the report's limits, with the first reason.
import { expect, it } from 'vitest';
import { createClock } from '../../mocks/core/clock.ts';
import { createClientVerdicts } from '../../mocks/core/client-verdicts/client-verdicts.ts';
import { renderClientSummary } from '../../mocks/core/client-verdicts/report-text.ts';
import { serviceContract } from '../../src/spec/index.ts';

it('counts a request the judging failed on, and returns no verdict for it', () => {
  const { validators, lifecycle } = serviceContract();
  let broken = false;
  const verdicts = createClientVerdicts(
    {
      clock: createClock({ mode: 'manual', start: Date.UTC(2026, 10, 22) }),
      shared: {
        get generation() {
          if (broken) throw new RangeError('Maximum call stack size exceeded');
          return 0;
        },
        familyBound: false,
      },
      validators,
      lifecycle,
      store: { get: () => undefined },
      tokens: { authenticate: () => undefined },
    },
    {},
  );
  const request = {
    method: 'GET',
    path: '/v1/models',
    query: '',
    headers: { authorization: 'Bearer sk-mock-alice' },
    origin: 'http://mock.test',
  };
  const response = { status: 200, headers: {}, body: '{}' };
  const route = { operationId: 'listModels' };
  expect(verdicts.observe(request, response, route, undefined)).toBeUndefined();
  broken = true;
  expect(() => verdicts.observe(request, response, route, undefined)).not.toThrow();
  broken = false;
  const report = verdicts.report();
  expect(report.limits.requestsNotJudged).toBe(1);
  expect(report.limits.firstJudgeFailure).toBe('RangeError: Maximum call stack size exceeded');
  expect(renderClientSummary(report)).toContain('1 request(s) the judging failed on');
});
