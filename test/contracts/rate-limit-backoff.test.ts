import { describe, expect, it } from 'vitest';
import { backoffMs, LONGEST_WAIT_MS, waitOut } from '../../contracts/checks/rate-limited.ts';
import type { Exchange } from '../../contracts/http-recorder.ts';
import { backoffDelay } from '../../src/client/retry.ts';

// Issue 23: the suite's 429 backoff is the typed client's `backoffDelay` with the suite's numbers
// (2 s doubling to 60 s, no jitter), so it never asks again sooner than the 429's Retry-After (§7
// "retry with exponential backoff"); a Retry-After past its budget for one 429 is not waited at all.

const refused = (retryAfter?: string): Exchange =>
  ({
    status: 429,
    startedAt: Date.UTC(2026, 10, 22),
    headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  }) as unknown as Exchange;

describe("the suite's backoff after a 429", () => {
  it('without Retry-After is 2 s, 4 s, 8 s, … up to a minute', () => {
    expect([1, 2, 3, 6, 7, 12].map((n) => backoffMs(refused(), n))).toEqual([
      2_000, 4_000, 8_000, 60_000, 60_000, 60_000,
    ]);
  });

  it("is the client's formula, never shorter than Retry-After, still growing after it", () => {
    expect(backoffMs(refused('1'), 1)).toBe(2_000);
    expect(backoffMs(refused('5'), 1)).toBe(5_000);
    expect(backoffMs(refused('5'), 4)).toBe(16_000);
    expect(backoffMs(refused('90'), 1)).toBe(90_000);
    const same = { baseDelayMs: 2_000, maxDelayMs: 60_000, jitter: 0, random: () => 0.5 };
    for (const n of [1, 2, 5, 9])
      expect(backoffMs(refused('7'), n)).toBe(backoffDelay(n, same, 7_000));
  });

  it('a Retry-After past the budget for one 429 is neither waited nor cut short', async () => {
    const lines: string[] = [];
    let slept = 0;
    const ctx = {
      limits: { remainingMs: () => 15 * 60_000, signal: undefined, stopped: undefined },
      clock: {
        sleep: (ms: number) => {
          slept += ms;
          return Promise.resolve();
        },
      },
      progress: (line: string) => lines.push(line),
    } as unknown as Parameters<typeof waitOut>[0];
    expect(await waitOut(ctx, refused('600'), 1, 'task a')).toBe(false);
    expect(slept).toBe(0);
    expect(lines).toEqual([
      `task a: rate limited (429) for 600 s, longer than the ${LONGEST_WAIT_MS / 1000} s ` +
        'the run waits for one: not asked again',
    ]);
    expect(await waitOut(ctx, refused('30'), 1, 'task a')).toBe(true);
    expect(slept).toBe(30_000);
  });
});
