// Issue 24 item 13, the files the mock's options name: `--secret-file`, `--admin-token-file` and
// `--config` were read with a plain readFileSync, so a FIFO with no writer hung the mock before it
// listened and `/dev/zero` was read until memory ran out (found after the state file and the journal
// were fixed). Every file an option names is now opened without waiting and must be a regular file of
// a sane size and UTF-8 text: exit 2 saying so, and nothing listens.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runVideotask } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'videotask-option-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fifo = join(dir, 'fifo');
execFileSync('mkfifo', [fifo]);
const latin1 = join(dir, 'latin1.json');
writeFileSync(latin1, Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x7d])); // {"é"} in Latin-1

it.each([
  ['--secret-file', fifo, /--secret-file .*fifo is a FIFO \(named pipe\): give a regular file/],
  ['--admin-token-file', fifo, /--admin-token-file .*fifo is a FIFO \(named pipe\)/],
  ['--config', fifo, /--config .*fifo is a FIFO \(named pipe\)/],
  ['--config', '/dev/zero', /--config \/dev\/zero is a character device/],
  ['--secret-file', dir, /--secret-file .* is a directory/],
  ['--config', latin1, /--config .*latin1\.json is not UTF-8 text/],
])('videotask mock %s %s exits 2 at once, saying what the file is', async (flag, file, message) => {
  const run = await runVideotask(['mock', '--port', '0', flag, file], { timeoutMs: 15_000 });
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(message);
  expect(run.stdout).not.toMatch(/listening/);
});

it('lint-spec --trace --document refuses a FIFO the same way', async () => {
  const run = await runVideotask(['lint-spec', '--trace', '--document', fifo], {
    timeoutMs: 15_000,
  });
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/--document .*fifo is a FIFO/);
});
