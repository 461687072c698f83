import { describe, expect, it } from 'vitest';
import { RunLimits, STOP_AFTER_UNANSWERED } from '../../contracts/run-limits.ts';
import { CREATED_THEN_500, lostAnswer } from './support/deployments.ts';
import { checkInProcess } from './support/in-process.ts';

function manualTime() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('the run limits', () => {
  it('stop the run at its deadline, saying how long it had, and abort what waits', () => {
    const time = manualTime();
    const limits = new RunLimits(time, 120_000);
    expect(limits.requestLimitMs(30_000)).toBe(30_000);
    time.advance(100_000);
    expect(limits.requestLimitMs(30_000)).toBe(20_000);
    expect(limits.stopped).toBeUndefined();
    time.advance(20_000);
    expect(limits.stopped).toBe('the run reached its deadline (120 s: --poll-timeout plus 60 s)');
    expect(limits.signal.aborted).toBe(true);
  });

  it(`stop after ${STOP_AFTER_UNANSWERED} requests in a row without an answer, and only then`, () => {
    const limits = new RunLimits(manualTime(), 1e9);
    limits.record(false, 'ECONNRESET');
    limits.record(false, 'ECONNRESET');
    limits.record(true);
    limits.record(false, 'ECONNRESET');
    limits.record(false, 'ECONNRESET');
    expect(limits.stopped).toBeUndefined();
    limits.record(false, 'no answer within the request time limit');
    expect(limits.stopped).toBe(
      'the target stopped answering (3 requests in a row got no answer; the ' +
        'last: no answer within the request time limit)',
    );
  });
});

describe('a run against a deployment whose submissions go unanswered', () => {
  it('never judges an unanswered request, as passed or failed', async () => {
    const { report } = await checkInProcess({ defects: [lostAnswer()] }, { budget: 2 });
    expect(report.results.find((r) => r.id === 'submission.both-paths')).toMatchObject({
      outcome: 'skip',
    });
    expect(report.ok).toBe(true);
    expect(report.unconfirmed.map((u) => u.answered)).toEqual([
      'no answer: UND_ERR_SOCKET',
      'no answer: UND_ERR_SOCKET',
    ]);
    const queued = report.coverage.cells.find(
      (c) => c.route === 'getVideo' && c.state === 'queued' && c.caller === 'owner',
    )!;
    expect(queued.reason).toBe('no submission was confirmed (see the unconfirmed submissions)');
  });

  it('says a submission answered 500 did not accept the task, and that it may exist', async () => {
    const { report } = await checkInProcess({ defects: [CREATED_THEN_500] }, { budget: 2 });
    const paths = report.results.find((r) => r.id === 'submission.both-paths')!;
    expect(paths.outcome).toBe('fail');
    expect(paths.violations[0]!.message).toBe(
      '/v1/video/generations did not accept a valid task (via POST ' +
        '/v1/video/generations) with HTTP 500: unconfirmed, it may have created a task',
    );
  });
});
