import { describe, expect, it } from 'vitest';
import { parseDriftFlags, targets } from '../../cli/commands/drift.ts';
import { learnTarget, parseLearnFlags } from '../../cli/commands/learn.ts';
import { DOCUMENTED_POLL } from '../../contracts/index.ts';
import { checkInProcess, VIRTUAL_POLL } from '../contracts/support/in-process.ts';

// Issue 23: `learn` and `drift` typed their own partial copy of the polling flags, so
// `--poll-attempts`/`--poll-timeout` worked on `contract` and were refused by
// `learn` and `drift` as unknown flags. Every command running the suite's observation now reads
// `POLL_FLAGS` (cli/poll-options.ts) through `TARGET_FLAGS`, and the numbers reach the §8 poller.

const A = ['--base-url', 'http://a.test', '--api-key', 'sk-a'];

describe('the --poll-* flags of learn and drift', () => {
  it('learn --poll-attempts N --poll-timeout S set the polling of its run', () => {
    const { values } = parseLearnFlags([...A, '--out', 'a.profile.json', '--poll-attempts', '7']);
    expect(learnTarget(values).target.poll).toEqual({ ...DOCUMENTED_POLL, maxAttempts: 7 });
    const timed = parseLearnFlags([...A, '--out', 'a.json', '--poll-timeout', '90']).values;
    expect(learnTarget(timed).target.poll.timeoutMs).toBe(90_000);
  });

  it('drift --poll-timeout S --poll-attempts N set the polling of both sides', () => {
    const { values } = parseDriftFlags([
      ...A,
      ...['--against', 'http://b.test', '--against-api-key', 'sk-b'],
      ...['--poll-timeout', '45', '--poll-attempts', '9'],
    ]);
    const { a, b } = targets(values, undefined);
    for (const side of [a, b])
      expect(side.poll).toMatchObject({ timeoutMs: 45_000, maxAttempts: 9 });
  });

  it('a bad value is a usage error naming the flag, as on contract', () => {
    const { values } = parseLearnFlags([...A, '--out', 'a.json', '--poll-attempts', '1.5']);
    expect(() => learnTarget(values)).toThrow(/--poll-attempts must be an integer/);
  });

  it("the run's polling stops at the attempts it was given (the poller learn runs reads them)", async () => {
    const { report } = await checkInProcess({}, { poll: { ...VIRTUAL_POLL, maxAttempts: 2 } });
    const reachesEnd = report.results.find((r) => r.id === 'sequence.reaches-end')!;
    expect(reachesEnd.outcome).not.toBe('pass');
    expect(JSON.stringify(reachesEnd)).toMatch(/after 2 polls/);
  });
});
