import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/cli-in-process.ts';

/**
 * Issue 22 ("Day-one friction"), the CLI: bare `videotask` printed help and exited 0; `-V` was an
 * unknown command. In-process (`main(argv)`); the rest of the day-one fixes run as processes against a
 * mock in cli-day-one.e2e.test.ts.
 */
const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

describe('the bare command', () => {
  it('prints the help and exits 2 without a command', async () => {
    const bare = await runMain([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/Usage: videotask <command> \[options\]/);
    expect(bare.stdout).toBe('');
  });

  it.each(['-V', '--version'])('prints the version with %s', async (flag) => {
    const printed = await runMain([flag]);
    expect(printed.code).toBe(0);
    expect(printed.stdout.trim()).toBe(VERSION);
  });
});
