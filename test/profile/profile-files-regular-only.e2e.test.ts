// Issue 33 item 8, the profile files: `mock --profile`, `drift --against-profile`, `learn --out` and
// `contract --learn` read a profile with a plain readFileSync, so a FIFO with no writer hung the
// command before it did anything, `/dev/zero` was read until memory ran out (3.5 GB in 4 s), and a
// profile of any size was loaded. They now follow the one rule for a file the project reads
// (src/node/input-file.ts, the option files' rule): a regular file of at most 16 MiB and UTF-8 text,
// or exit 2 at once saying what the file is; nothing listens, nothing is asked, nothing is written.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runVideotask } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'videotask-profile-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fifo = join(dir, 'fifo.json');
execFileSync('mkfifo', [fifo]);
const huge = join(dir, 'huge.json');
writeFileSync(huge, '');
truncateSync(huge, 17 * 2 ** 20); // sparse: no disk spent
// A learn or a drift never gets as far as asking this address: the file is refused first.
const target = ['--base-url', 'http://127.0.0.1:9', '--api-key', 'sk-profile-files-0123456789'];

it.each([
  [['mock', '--port', '0', '--profile', fifo], /--profile .*fifo\.json is a FIFO \(named pipe\)/],
  [
    ['mock', '--port', '0', '--profile', '/dev/zero'],
    /--profile \/dev\/zero is a character device/,
  ],
  [['mock', '--port', '0', '--profile', huge], /--profile .*huge\.json is larger than 16777216/],
  [['drift', ...target, '--against-profile', fifo], /--against-profile .*fifo\.json is a FIFO/],
  [['learn', ...target, '--out', fifo], /--out .*fifo\.json is a FIFO/],
  [['learn', ...target, '--fresh', '--out', fifo], /--out .*fifo\.json is a FIFO/],
  [['contract', ...target, '--learn', fifo], /--learn .*fifo\.json is a FIFO/],
])('videotask %j exits 2 at once, saying what the file is', async (args, message) => {
  const run = await runVideotask(args, { timeoutMs: 20_000 });
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(message);
  expect(run.stdout).not.toMatch(/listening/);
});
