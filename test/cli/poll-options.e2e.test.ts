import { describe, expect, it } from 'vitest';
import { FAST, taskCliFixture } from '../helpers/task-cli.ts';

/**
 * The `--poll-*` flags (issue 23) as a `videotask wait` process obeys them; the parser and every
 * command's help text: poll-options.test.ts, in-process.
 */
describe('wait with the flags', () => {
  const { videotask, submitted } = taskCliFixture();

  it.each([['--poll-attempts']])(
    'stops after %s queries of a task that never finishes: exit 3, not resubmitted',
    async (flag) => {
      const stuck = await submitted('video-pro-v1', 'x [mock:stuck]');
      const run = await videotask(['wait', stuck, ...FAST, flag, '2']);
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(/within 2 attempts \(2 queries, last status \w+\)/);
    },
  );

  // 0.1.0 was never released: the older spellings are gone (issue 36 item 4), refused as any unknown flag.
  it.each([['--timeout'], ['--max-attempts']])(
    'refuses %s, an older spelling, with exit 2',
    async (flag) => {
      const run = await videotask(['wait', 'task_x', flag, '9']);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(flag);
    },
  );
});
