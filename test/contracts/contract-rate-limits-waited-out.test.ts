import { describe, expect, it } from 'vitest';
import { exitStatus } from '../../cli/commands/contract-target.ts';
import type { ContractReport } from '../../contracts/index.ts';
import { failures } from '../contracts/helpers.ts';
import { firstSubmissionsRateLimited, looksRateLimited } from '../contracts/support/deployments.ts';
import { checkInProcess } from '../contracts/support/in-process.ts';

// Found by the held-out deployments (decisions/022). problem-json answered a submission 429 with
// Retry-After; the suite waited and created the task on its next try, but passed only the last answer
// on, so `rate-limit.retry-after` was skipped ("no 429 was seen"). The redirector, rate limited at
// each task's first look, had every task dropped (the first look is outside the §8 poller, whose
// retries never saw the 429), and the run still exited 0, "following the documented behaviour" with
// no task followed. §7 asks clients to retry a 429 with backoff: the suite must do so itself.

const result = (report: ContractReport, id: string) => report.results.find((r) => r.id === id)!;

describe('a 429 the suite waits out', () => {
  it('at submission is judged by rate-limit.retry-after, in the submission cell', async () => {
    const { report } = await checkInProcess(
      { defects: [firstSubmissionsRateLimited(2)] },
      // Each submission sent counts against the budget, a rate-limited one too (decisions/024).
      { budget: 4 },
    );
    expect(report.tasksCreated).toBe(2);
    const rateLimit = result(report, 'rate-limit.retry-after');
    expect(rateLimit).toMatchObject({ outcome: 'pass', passes: 2 });
    const submit = report.coverage.cells.find(
      (c) => c.route === 'createVideoGeneration' && c.caller === 'owner',
    )!;
    expect(submit.rules['rate-limit-retry-after']).toBe('pass');
    expect(failures(report)).toEqual([]);
  });

  it("at a task's first look is waited out, and every task followed to its end", async () => {
    const { report } = await checkInProcess({ defects: [looksRateLimited(3)] }, { budget: 2 });
    expect(report.tasksCreated).toBe(2);
    expect(result(report, 'sequence.reaches-end').passes).toBe(2);
    expect(result(report, 'rate-limit.retry-after').passes).toBeGreaterThanOrEqual(6);
    expect(report.noTaskFollowed).toBeUndefined();
    expect(exitStatus(report).code).toBe(0);
    const completed = report.coverage.cells.find(
      (c) => c.route === 'getVideo' && c.state === 'completed' && c.caller === 'owner',
    )!;
    expect(completed.observed).toBe(true);
  });

  it('on every look leaves no task followed: not green, exit 2 with the reason', async () => {
    const { report } = await checkInProcess(
      { defects: [looksRateLimited(Number.POSITIVE_INFINITY)] },
      { budget: 2 },
    );
    expect(report.tasksCreated).toBe(2);
    expect(result(report, 'sequence.reaches-end').passes).toBe(0);
    expect(report.noTaskFollowed).toMatch(
      new RegExp(
        '^no task could be followed to its end: of the 2 task\\(s\\) created, 2 because its ' +
          'queries were rate limited \\(429\\) past every wait the run had time for \\(see the notes',
      ),
    );
    const status = exitStatus(report);
    expect(status.code).toBe(2);
    expect(status.why).toMatch(/^no task could be followed to its end: .*coverage: /);
    expect(report.notes.filter((n) => /was not followed to its end/.test(n))).toHaveLength(2);
    const queued = report.coverage.cells.find(
      (c) => c.route === 'getVideo' && c.state === 'queued' && c.caller === 'owner',
    )!;
    expect(queued.reason).toBe(report.noTaskFollowed);
  });
});
