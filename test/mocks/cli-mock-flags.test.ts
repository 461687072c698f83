import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/cli-in-process.ts';

// `videotask mock` refuses a bad flag value before it reads a file, opens a state file or listens:
// exit 2, naming the flag and what it takes, and the hint to its help. These ran as one process each
// (27 processes, 0.4–0.8 s of CPU apiece: issue 36 item 6); they are `main(argv)` in-process now,
// the function the process runs. test/mocks/cli-mock.e2e.test.ts still starts the real process once
// with a bad flag, to show the exit status and that nothing listens.

const HELP_HINT = 'Run `videotask mock --help` for its options.';

/** `videotask mock --port 0 FLAGS…` (or the flags alone when they give a port): its standard error. */
async function refused(...flags: string[]): Promise<string> {
  const port = flags.includes('--port') ? [] : ['--port', '0'];
  const run = await runMain(['mock', ...port, ...flags]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(HELP_HINT);
  expect(run.stdout).toBe('');
  return run.stderr;
}

describe('videotask mock refuses a bad flag value with exit 2, before it starts anything', () => {
  it.each(['0', 'abc', '-1', '1.5', '999', ''])('--workers=%j', async (value) => {
    const stderr = await refused(`--workers=${value}`);
    expect(stderr).toContain('--workers must be a number of processes from 1 to 256');
    expect(stderr).toContain('or auto');
  });

  it.each(['0', 'abc', '-1', '0.05', ''])('--worker-timeout=%j', async (value) => {
    const stderr = await refused('--workers', '2', `--worker-timeout=${value}`);
    expect(stderr).toMatch(/--worker-timeout must be (a number|at least 0\.1)/);
  });

  it.each(['0/2', '3/2', '1/0', '1/257', 'a/b', '1', ''])('--replica=%j', async (value) => {
    const stderr = await refused(`--replica=${value}`);
    expect(stderr).toContain('--replica must be K/N');
    expect(stderr).toContain('(e.g. --replica 1/2 and --replica 2/2)');
  });

  it.each([
    { args: ['--speed', '0'], message: /--speed must be/ },
    { args: ['--port', 'http'], message: /--port must be an integer/ },
    { args: ['--bogus'], message: /--bogus/ },
  ])('$args, naming the flag', async ({ args, message }) => {
    expect(await refused(...args)).toMatch(message);
  });

  it.each([
    ['--max-connections', '0'],
    ['--max-connections-per-address', 'many'],
  ])('%s %s, naming the flag', async (flag, value) => {
    expect(await refused(flag, value)).toContain(flag);
  });

  it.each([
    [['--secret', 'x', '--secret-file', 'y'], /give --secret or --secret-file, not both/],
    [
      ['--secret-file', '/no/such/secret'],
      /cannot read --secret-file \/no\/such\/secret: no such file/,
    ],
    [['--secret', ''], /--secret must not be empty/],
  ])('%j, saying what to do', async (args, message) => {
    expect(await refused(...args)).toMatch(message);
  });
});
