import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIMING } from '../../mocks/core/plan/plan.ts';
import { blocksOf, localized, ROOT, type Block } from '../docs/doc-blocks.ts';
import { listening, LISTENING, type MockProcess } from '../helpers/mock-process.ts';

/**
 * Issue 22 ("Day-one friction"): `npm start` served at real speed, so the README's quick start (submit,
 * wait, download) took up to a minute, and the admin quick start asked for a second mock with
 * `--family-bound` on the same port. Now `npm start` is `videotask mock --speed 100`, and the admin
 * quick start binds the family on the running mock (control API): both quick starts run, one after
 * the other, against the one mock `npm install && npm start` gives.
 */
const readme = blocksOf('README.md').filter((b) => b.lang === 'sh' && b.marker === 'runnable');
const clientQuickStart = readme.find((b) => b.text.includes('npx videotask download'))!;
const adminQuickStart = readme.find((b) => b.text.includes('npx videotask verify-family'))!;

let npmStart: MockProcess;
let url: string;
const folders: string[] = [];

beforeAll(async () => {
  // `npm start` itself (its own process group, so that stopping it stops the mock npm started too).
  const child = spawn('npm', ['start', '--silent', '--', '--port', '0'], {
    cwd: ROOT,
    env: readerEnv({}),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  npmStart = { child, stdout: () => out, stderr: () => err, exited };
  url = await listening(npmStart, LISTENING, 30_000);
}, 60_000);

afterAll(async () => {
  if (npmStart?.child.pid !== undefined) process.kill(-npmStart.child.pid, 'SIGTERM');
  await npmStart?.exited;
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** The environment a reader's shell has: none of our VIDEOTASK_* settings. */
function readerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VIDEOTASK_')),
  );
  return { ...env, NO_COLOR: '1', ...extra };
}

function runBlock(block: Block): Promise<{ code: number | string; output: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'videotask-quick-start-'));
  folders.push(cwd);
  const script = localized(block, url);
  const env = readerEnv({ VIDEOTASK_BASE_URL: url });
  return new Promise((resolve) =>
    execFile(
      'bash',
      ['-e', '-o', 'pipefail', '-c', script],
      { cwd, env, timeout: 120_000 },
      (e, o, r) =>
        resolve({ code: e === null ? 0 : (e.code ?? e.signal ?? 'killed'), output: `${o}${r}` }),
    ),
  );
}

describe("the README's quick starts against `npm start`", () => {
  it('serves at a speed where the slowest default task takes about a second', async () => {
    const health = (await (await fetch(`${url}/__mock/health`)).json()) as {
      clock: { mode: string; speed: number };
    };
    expect(health.clock.mode).toBe('real');
    const slowestMs = (DEFAULT_TIMING.queueMs[1] + DEFAULT_TIMING.runMs[1]) / health.clock.speed;
    expect(slowestMs).toBeLessThanOrEqual(1_000);
  });

  it('run one after the other on that one mock: client teams, then admins', async () => {
    // The doc-tests run blocks without a `doc-test: mock` comment against `npm start`'s mock, too.
    expect(clientQuickStart.mockFlags).toEqual([]);
    expect(adminQuickStart.mockFlags).toEqual([]);
    const client = await runBlock(clientQuickStart);
    expect(client.code, client.output).toBe(0);
    const admin = await runBlock(adminQuickStart);
    expect(admin.code, admin.output).toBe(0);
    expect(admin.output).toMatch(/OK/);
  }, 240_000);
});
