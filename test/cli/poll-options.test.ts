import { describe, expect, it } from 'vitest';
import {
  documentedPolling,
  pollHelp,
  pollOptions,
  type PollFlagValues,
} from '../../cli/poll-options.ts';
import { UsageError } from '../../cli/options.ts';
import { RECOMMENDED_POLLING } from '../../src/spec/polling.ts';
import { runMain } from '../helpers/cli-in-process.ts';

/**
 * The `--poll-*` flags (issue 23): one parser and one help text for `wait`, `contract` and
 * `verify-family`, their defaults read from the spec's `x-polling` (they were parsed three ways, one
 * help text with its defaults written out by hand). In-process: the parser, and each command's help
 * as `main(argv)` prints it; poll-options.e2e.test.ts runs `videotask wait` with the flags.
 */
const DEFAULTS = documentedPolling(1_800_000);

describe('pollOptions', () => {
  it("takes §8's numbers from the spec's x-polling when no flag is given", () => {
    expect(pollOptions({}, DEFAULTS)).toEqual({
      initialIntervalMs: RECOMMENDED_POLLING.initialIntervalMs,
      factor: RECOMMENDED_POLLING.factor,
      maxIntervalMs: RECOMMENDED_POLLING.maxIntervalMs,
      maxAttempts: RECOMMENDED_POLLING.maxAttempts,
      timeoutMs: 1_800_000,
    });
  });

  it.each<[PollFlagValues, object]>([
    [
      { 'poll-initial': '0.5', 'poll-max': '2' },
      { initialIntervalMs: 500, maxIntervalMs: 2000 },
    ],
    [{ 'poll-factor': '2' }, { factor: 2 }],
    [{ 'poll-attempts': '3' }, { maxAttempts: 3 }],
    [{ 'poll-timeout': '90' }, { timeoutMs: 90_000 }],
  ])('reads %o', (values, expected) => {
    expect(pollOptions(values, DEFAULTS)).toMatchObject(expected);
  });

  it.each<[PollFlagValues, RegExp]>([
    [{ 'poll-initial': 'soon' }, /--poll-initial must be a number, got "soon"/],
    [{ 'poll-factor': '0.5' }, /--poll-factor must be at least 1/],
    [{ 'poll-attempts': '1.5' }, /--poll-attempts must be an integer/],
    [{ 'poll-timeout': '0' }, /--poll-timeout must be at least/],
    [{ 'poll-max': '1' }, /--poll-max \(1 s\) must be at least --poll-initial \(5 s\)/],
  ])('refuses %o with a usage error naming the flag', (values, message) => {
    expect(() => pollOptions(values, DEFAULTS)).toThrow(UsageError);
    expect(() => pollOptions(values, DEFAULTS)).toThrow(message);
  });
});

describe('the help of every command that polls', () => {
  it.each(['wait', 'contract', 'learn', 'drift', 'verify-family'])(
    'lists the same --poll-* flags with the x-polling defaults (%s)',
    async (command) => {
      const run = await runMain([command, '--help']);
      expect(run.code).toBe(0);
      const block = pollHelp(0).split('\n').slice(0, 4).join('\n');
      expect(run.stdout).toContain(block);
      expect(run.stdout).toMatch(/--poll-timeout S +total seconds allowed per task \(default \d+/);
    },
  );
});
