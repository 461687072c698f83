import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { runMain } from '../helpers/cli-in-process.ts';
import {
  killMockProcesses,
  listening,
  spawnMockWithEnv,
  type MockProcess,
} from '../helpers/mock-process.ts';

// Issue 14 item 3: `--admin-token` could only be given on the command line, where `ps` shows it to every
// user of the machine. It now also comes from VIDEOTASK_ADMIN_TOKEN or --admin-token-file, never
// appears in the process's argv or output, and is compared in constant time.
const TOKEN = 'adm-9f3c2e7b1d4a6058';
const dir = mkdtempSync(join(tmpdir(), 'videotask-admin-token-'));
const { VIDEOTASK_ADMIN_TOKEN: _inherited, ...cleanEnv } = process.env;
afterEach(killMockProcesses);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function argvOf(handle: MockProcess): string {
  return readFileSync(`/proc/${handle.child.pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
}

async function expectGuarded(handle: MockProcess): Promise<void> {
  const base = await listening(handle, /control API/);
  const health = (authorization?: string) =>
    fetch(`${base}/__mock/health`, {
      headers: authorization === undefined ? {} : { authorization },
    }).then((r) => r.status);
  expect(await health()).toBe(403);
  expect(await health('Bearer wrong-token-000000')).toBe(403);
  expect(await health(`Bearer ${TOKEN}`)).toBe(200);
  expect(argvOf(handle)).not.toContain(TOKEN);
  expect(handle.stdout()).toMatch(/admin token required/);
  expect(`${handle.stdout()}${handle.stderr()}`).not.toContain(TOKEN);
}

it('takes the token from VIDEOTASK_ADMIN_TOKEN: not on argv, never printed', async () => {
  const mock = spawnMockWithEnv({ ...cleanEnv, VIDEOTASK_ADMIN_TOKEN: TOKEN }, '--port', '0');
  await expectGuarded(mock);
});

it('takes the token from --admin-token-file (first line, newline dropped)', async () => {
  const file = join(dir, 'token');
  writeFileSync(file, `${TOKEN}\n`);
  chmodSync(file, 0o600);
  const mock = spawnMockWithEnv(cleanEnv, '--port', '0', '--admin-token-file', file);
  await expectGuarded(mock);
});

it('refuses an unreadable or empty token file, and two sources at once, as usage errors (exit 2)', async () => {
  const empty = join(dir, 'empty');
  writeFileSync(empty, '\n');
  const cases = [
    ['--admin-token-file', join(dir, 'missing')],
    ['--admin-token-file', empty],
    ['--admin-token', TOKEN, '--admin-token-file', empty],
  ];
  // Refused before anything starts: `main(argv)` in-process, the function the process runs.
  for (const args of cases) {
    const run = await runMain(['mock', '--port', '0', ...args], {
      VIDEOTASK_ADMIN_TOKEN: undefined,
    });
    expect(run.code, args.join(' ')).toBe(2);
    expect(run.stderr).toMatch(/admin-token/);
    expect(`${run.stdout}${run.stderr}`).not.toContain(TOKEN);
  }
});
