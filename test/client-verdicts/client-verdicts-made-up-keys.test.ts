// Issue 33 item 7: 100 made-up keys blinded the client judge. Each Bearer key took a caller slot on its
// first request (a 401), so after 100 of them every later caller was only counted: a known caller's
// violations were not reported and assertNoClientViolations passed. A key the token directory does not
// know is no caller now: its requests are counted apart (limits.requestsOfUnknownKeys), and a full table
// of known callers says so in the report.
import { expect, it } from 'vitest';
import { renderClientSummary } from '../../mocks/core/client-verdicts/report-text.ts';
import { assertNoClientViolations, createMockService } from '../../mocks/index.ts';
import { coreWire } from '../client-verdicts/wire.ts';

const KITE = { model: 'video-pro-v1', prompt: 'a red kite' };

it('still judges a known caller after 100 made-up keys, and says what it did not count', async () => {
  const service = createMockService({ clock: { mode: 'manual' }, seed: 'made-up-keys' });
  for (let n = 0; n < 100; n++) {
    const answer = await coreWire(service, `sk-made-up-${n}`).call('GET', '/v1/models');
    expect(answer.status).toBe(401);
  }
  const alice = coreWire(service, 'sk-mock-alice');
  const { id } = (await alice.call('POST', '/v1/videos', { body: KITE })).body as { id: string };
  await alice.advance(10_000);
  await alice.call('GET', `/v1/videos/${id}`); // told in_progress…
  await alice.call('POST', '/v1/videos', { body: KITE }); // …and submitted again (§3 rule 1)

  const report = service.clientReport();
  expect(report.verdicts.map((v) => [v.rule, v.user])).toEqual([['no-resubmission', 'alice']]);
  expect(report.counts.callers).toBe(1);
  expect(report.limits).toMatchObject({
    requestsOfUnknownKeys: 100,
    requestsOfUntrackedCallers: 0,
  });
  expect(() => assertNoClientViolations(service)).toThrow(/no-resubmission/);
  expect(renderClientSummary(report)).toMatch(/100 request\(s\) with keys the mock does not know/);
});

it('says so when the table of known callers is full, and judges the callers it holds', async () => {
  const service = createMockService({
    clock: { mode: 'manual' },
    seed: 'full-table',
    clientVerdicts: { limits: { maxCallers: 1 } },
  });
  await coreWire(service, 'sk-mock-bob').call('GET', '/v1/models');
  await coreWire(service, 'sk-mock-alice').call('GET', '/v1/models');
  const report = service.clientReport();
  expect(report.limits.requestsOfUntrackedCallers).toBe(1);
  expect(renderClientSummary(report)).toMatch(/caller table is full/);
});
