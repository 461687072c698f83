// Issue 33 item 12: a learned profile's name was printed raw in `videotask mock`'s start-up banner,
// so a hand-edited (or shared) profile could send terminal escapes (clear the screen, retitle the
// window, reorder the text) to whoever started the mock. A name is now printable text (refused at load
// otherwise, naming the field), and the banner prints a profile's name, host and file through
// `printable`, on one line.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { runVideotask } from '../helpers/cli.ts';
import { killMockProcesses, listening, spawnMock } from '../helpers/mock-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'videotask-profile-name-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(killMockProcesses);

const OBSERVED = JSON.parse(
  readFileSync(new URL('../../mocks/profiles/observed.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

function profileFile(name: string, changes: Record<string, unknown>): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify({ ...OBSERVED, ...changes }));
  return file;
}

it('refuses a name with a terminal escape at load, naming the field', async () => {
  const file = profileFile('escape.json', { name: 'staging\u001b]0;owned\u0007\u001b[2J' });
  const run = await runVideotask(['mock', '--port', '0', '--profile', file], { timeoutMs: 20_000 });
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(
    /escape\.json is not a usable profile: \/name: must be printable text/,
  );
  expect(run.stderr + run.stdout).not.toMatch(/\u001b/);
});

it('prints what else a file holds (bidi overrides, escapes in the host) as escapes, on one line', async () => {
  const file = profileFile('bidi.json', {
    name: 'staging \u202egnitset',
    target: { host: 'staging\u001b[31m.example:443', runs: 1 },
  });
  const mock = spawnMock('--port', '0', '--profile', file);
  await listening(mock, /profile .* clock/);
  const line = mock
    .stdout()
    .split('\n')
    .find((l) => l.startsWith('  profile '))!;
  expect(line).toContain('staging \\u202egnitset (learned from staging\\u001b[31m.example:443');
  expect(mock.stdout()).not.toMatch(/[\u001b\u202e]/);
});
