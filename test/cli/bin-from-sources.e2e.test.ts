import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { videotaskCli } from '../helpers/built-cli.ts';
import { buildCli } from '../setup/built-cli.ts';

/**
 * The e2e tests run the CLI bundled once per run (test/setup/built-cli.ts, decisions/060); a user of the
 * checkout runs bin/videotask.js, which loads the TypeScript sources through tsx. These keep that path
 * tested and hold the two to the same answers, for commands that read files beside the sources (the
 * spec, package.json) and one that loads a command's module on demand.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/videotask.js', import.meta.url));

async function output(entry: string, args: readonly string[]) {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [entry, ...args], {
    cwd: ROOT,
    timeout: 30_000,
  });
  return { stdout, stderr };
}

describe('bin/videotask.js in a checkout and the bundled CLI the tests run', () => {
  it.each(['--version', '--help', 'lint-spec', 'mock --list-defects'])(
    'answer `videotask %s` alike',
    async (command) => {
      const args = command.split(' ');
      const [fromSources, bundled] = await Promise.all([
        output(BIN, args),
        output(videotaskCli(), args),
      ]);
      expect(fromSources.stdout).not.toBe('');
      expect(bundled).toEqual(fromSources);
    },
  );

  it('is built from the sources as they are: the same sources give the same bundle', async () => {
    expect(await buildCli()).toBe(videotaskCli());
  });
});
