import { describe, expect, it } from 'vitest';
import type { ContractReport } from '../../contracts/index.ts';
import { failures } from './helpers.ts';
import {
  firstSubmissionsRateLimited,
  OLDER_CONTENT_ROUTE,
  UPSTREAM_429_NO_RETRY_AFTER,
} from './support/deployments.ts';
import { checkInProcess, FULL_MOCK, FULL_TARGET } from './support/in-process.ts';

const result = (report: ContractReport, id: string) => report.results.find((r) => r.id === id)!;
const warnings = (report: ContractReport) =>
  report.results.filter((r) => r.outcome === 'warn').map((r) => r.id);

describe("a completed task's bytes", () => {
  it('are judged by length, by two ranges and against a HEAD where the deployment answers them', async () => {
    const { report } = await checkInProcess(FULL_MOCK, FULL_TARGET);
    expect(result(report, 'content.length-matches').passes).toBeGreaterThanOrEqual(9);
    expect(result(report, 'content.range-reassembles').passes).toBe(3);
    expect(result(report, 'content.head-agrees').passes).toBe(3);
  });

  it('are not judged on HEAD and Range by a deployment that answers neither, which passes, saying so', async () => {
    const { report } = await checkInProcess({ defects: [OLDER_CONTENT_ROUTE] }, { strict: true });
    expect(failures(report)).toEqual([]);
    expect(result(report, 'content.range-reassembles')).toMatchObject({
      outcome: 'skip',
      skipped: 'Range answered HTTP 200, not honoured (not judged)',
    });
    expect(result(report, 'content.head-agrees').skipped).toBe(
      'HEAD answered HTTP 405 (not judged)',
    );
    expect(report.notes).toContain(
      'content: Range answered HTTP 200, not honoured, so content.range-reassembles was not judged',
    );
    // Not a gap in the coverage: the rules apply only to a deployment that honours Range or HEAD.
    expect(report.coverage.line).not.toMatch(/not judged/);
  });

  it('are followed through a redirect, HEAD included', async () => {
    const { report } = await checkInProcess({ contentRedirect: true }, { strict: true });
    expect(failures(report)).toEqual([]);
    expect(result(report, 'content.head-agrees').passes).toBe(2);
    expect(result(report, 'content.range-reassembles').passes).toBe(2);
  });
});

describe('a 429', () => {
  it(
    'is recorded wherever it is seen, with its Retry-After, and never read ' +
      'as a verdict on anything else',
    async () => {
      const { report } = await checkInProcess({ rateLimit: { requests: 12, windowMs: 1000 } });
      expect(result(report, 'rate-limit.retry-after').passes).toBeGreaterThan(0);
      expect(failures(report)).toEqual([]);
      expect(warnings(report)).toEqual([]);
      expect(report.ok).toBe(true);
    },
  );

  it('without Retry-After warns, and fails under --strict', async () => {
    const lenient = await checkInProcess({ defects: [UPSTREAM_429_NO_RETRY_AFTER] });
    expect(result(lenient.report, 'rate-limit.retry-after')).toMatchObject({ outcome: 'warn' });
    expect(result(lenient.report, 'rate-limit.retry-after').violations[0]!.message).toBe(
      "POST /v1/video/generations with the owner's key answered 429 without Retry-After",
    );
    expect(lenient.report.ok).toBe(true);
    const strict = await checkInProcess(
      { defects: [UPSTREAM_429_NO_RETRY_AFTER] },
      { strict: true },
    );
    expect(strict.report.ok).toBe(false);
  });

  it('at submission is waited out (Retry-After) and the submission tried again', async () => {
    // Every submission sent counts against the budget, a rate-limited one too (issue 24 item 5):
    // three 429s and the two tasks.
    const { report, service } = await checkInProcess(
      { defects: [firstSubmissionsRateLimited(3)] },
      { budget: 5 },
    );
    expect(failures(report)).toEqual([]);
    expect(report.tasksCreated).toBeGreaterThan(0);
    expect(service.store.size).toBe(report.tasksCreated);
    expect(result(report, 'submission.both-paths').passes).toBeGreaterThan(0);
    expect(report.coverage.line).not.toMatch(/rate limited/);
  });

  it('at submission, every time, leaves the lifecycle unobserved, as rate limited, and creates nothing', async () => {
    const { report, service } = await checkInProcess({ defects: [UPSTREAM_429_NO_RETRY_AFTER] });
    expect(service.store.size).toBe(0);
    expect(result(report, 'submission.both-paths').outcome).toBe('skip');
    const queued = report.coverage.cells.find(
      (c) => c.route === 'getVideo' && c.state === 'queued' && c.caller === 'owner',
    )!;
    expect(queued.reason).toBe('rate limited (429) at submission');
  });
});
