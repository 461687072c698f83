import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closedPort, runVideotask, type CliRun } from '../helpers/cli.ts';

// Issue 14 item 8: `wait --journal /typo/missing.jsonl` succeeded with "0 task(s) followed", a
// directory gave "EISDIR … please report it", and "1 to check by hand" exited 0, so scripts missed it.
let dir: string;
let baseUrl: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'videotask-wait-journal-'));
  baseUrl = `http://127.0.0.1:${await closedPort()}`;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const wait = (...args: string[]): Promise<CliRun> =>
  runVideotask(['wait', ...args], {
    env: { ...process.env, VIDEOTASK_BASE_URL: baseUrl, VIDEOTASK_API_KEY: 'sk-mock-alice' },
  });

it('exits 2 with "no such file" for a journal that does not exist', async () => {
  const run = await wait('--journal', join(dir, 'typo', 'missing.jsonl'));
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/--journal .*missing\.jsonl: no such file/);
  expect(run.stderr).not.toMatch(/task\(s\) followed/);
});

it('exits 2 saying a directory is not a journal', async () => {
  const run = await wait('--journal', dir);
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/is a directory: give the journal file inside it/);
  expect(run.stderr).not.toMatch(/EISDIR|please report it/);
});

it('exits 4 when submissions are left to check by hand', async () => {
  const journal = join(dir, 'unconfirmed.jsonl');
  writeFileSync(
    journal,
    [
      '{"type":"submitting","at":"2026-11-22T00:00:01.000Z","requestId":"vt-1",' +
        '"model":"video-pro-v1","endpoint":"generations"}',
      '{"type":"unconfirmed","at":"2026-11-22T00:00:31.000Z","requestId":"vt-1","reason":"RequestTimeoutError"}',
      '',
    ].join('\n'),
  );
  const run = await wait('--journal', journal);
  expect(run.code).toBe(4);
  expect(run.stderr).toMatch(/0 task\(s\) followed, 0 already settled, 1 to check by hand/);
});
