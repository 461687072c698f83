import { describe, expect, it } from 'vitest';
import { FAST, taskCliFixture } from '../helpers/task-cli.ts';

/**
 * The `--poll-*` flags (issue 23) as a `videotask wait` process obeys them; the parser and every
 * command's help text: poll-options.test.ts, in-process.
 */
describe('wait with the flags', () => {
  const { videotask, submitted } = taskCliFixture();

  it.each([['--poll-attempts'], ['--max-attempts']])(
    'stops after %s queries of a task that never finishes: exit 3, not resubmitted',
    async (flag) => {
      const stuck = await submitted('video-pro-v1', 'x [mock:stuck]');
      const run = await videotask(['wait', stuck, ...FAST, flag, '2']);
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(/within 2 attempts \(2 queries, last status \w+\)/);
    },
  );

  it('refuses both spellings of one flag with exit 2', async () => {
    const run = await videotask(['wait', 'task_x', '--poll-timeout', '9', '--timeout', '9']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/give --poll-timeout or --timeout, not both/);
  });
});
