import { describe, expect, it } from 'vitest';
import { DOCUMENTED_POLL } from '../../contracts/target.ts';
import { pollSettings } from '../../src/client/poll-schedule.ts';
import { RECOMMENDED_POLLING, readPolling, serviceSpec } from '../../src/spec/index.ts';
import { readServiceDocument } from '../helpers/service-document.ts';

describe('x-polling (§8)', () => {
  it("states §8's recommended loop, marked as the document's recommendation", () => {
    expect(RECOMMENDED_POLLING).toEqual({
      basis: { documented: true, source: '§8' },
      initialIntervalMs: 5_000,
      factor: 1.5,
      maxIntervalMs: 30_000,
      maxAttempts: 60,
      totalTimeoutRequired: true,
    });
    expect(serviceSpec['x-polling']).toMatchObject({ 'x-recommendation': true });
    const section8 = readServiceDocument().split('## 8.')[1]!.split('## 9.')[0]!;
    for (const phrase of [
      'first interval 5 seconds',
      'a factor of 1.5',
      'ceiling of 30 seconds',
      'at most 60 attempts',
      'A total timeout must be set',
      'recommendations, not server-enforced values',
    ])
      expect(section8).toContain(phrase);
  });

  it("is where the reference client's defaults come from", () => {
    expect(pollSettings()).toMatchObject({
      initialIntervalMs: RECOMMENDED_POLLING.initialIntervalMs,
      factor: RECOMMENDED_POLLING.factor,
      maxIntervalMs: RECOMMENDED_POLLING.maxIntervalMs,
      maxAttempts: RECOMMENDED_POLLING.maxAttempts,
    });
  });

  it("is where the contract suite's documented schedule comes from", () => {
    expect(DOCUMENTED_POLL).toMatchObject({
      initialIntervalMs: RECOMMENDED_POLLING.initialIntervalMs,
      factor: RECOMMENDED_POLLING.factor,
      maxIntervalMs: RECOMMENDED_POLLING.maxIntervalMs,
      maxAttempts: RECOMMENDED_POLLING.maxAttempts,
    });
  });

  it.each([
    [
      'a ceiling below the first interval',
      { maxIntervalSeconds: 1 },
      /maxIntervalSeconds must be ≥/,
    ],
    ['a shrinking factor', { factor: 0.5 }, /factor must be a number ≥ 1/],
    ['a fractional attempt count', { maxAttempts: 2.5 }, /maxAttempts must be whole/],
    ['no recommendation marking', { 'x-recommendation': undefined }, /x-recommendation/],
  ])('refuses %s', (_name, change, message) => {
    const polling = { ...(serviceSpec['x-polling'] as object), ...change };
    expect(() => readPolling({ ...serviceSpec, 'x-polling': polling })).toThrow(message);
  });
});
