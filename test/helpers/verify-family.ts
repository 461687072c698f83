import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/index.ts';
import type { VerificationRun } from '../../cli/verify-family/record.ts';
import { type CliRun, runVideotask } from './cli.ts';

/** What `videotask verify-family` tests share: the family, fast polling and a team's secret key. */
export const FAMILY = ['alt-video-v2', 'alt-video-v2-fast', 'alt-video-v2.5'];
export const FAST = ['--poll-initial', '0.05', '--poll-max', '0.2', '--poll-timeout', '20'];
export const SECRET = 'sk-team-secret-0123456789';

/** Runs the real CLI in `cwd` (a fresh directory: the default --report-dir is relative to it). */
export function videotask(args: string[], cwd: string): Promise<CliRun> {
  const env = { ...process.env };
  delete env['VIDEOTASK_API_KEY'];
  delete env['VIDEOTASK_BASE_URL'];
  return runVideotask(args, { env, cwd });
}

/** `videotask verify-family --base-url URL --api-key KEY …rest` in `cwd`. */
export function verifyFamily(
  url: string,
  apiKey: string,
  rest: string[],
  cwd: string,
): Promise<CliRun> {
  return videotask(['verify-family', '--base-url', url, '--api-key', apiKey, ...rest], cwd);
}

/** A model ID as a regular-expression source (`alt-video-v2\\.5`). */
export function escaped(model: string): string {
  return model.replace('.', '\\.');
}

/** A pattern for the summary line of `model` that goes on with `rest` (itself a pattern). */
export function modelLine(model: string, rest: string): RegExp {
  return new RegExp(`^${escaped(model)} +${rest}`, 'm');
}

/** The record the run wrote in `reportDir`: exactly one JSON and one Markdown file, nothing temporary. */
export function readRecord(reportDir: string): { run: VerificationRun; md: string; raw: string } {
  const files = readdirSync(reportDir).sort();
  expect(files).toHaveLength(2);
  expect(files[0]).toMatch(/^verification-\d{4}-\d{2}-\d{2}T\d{6}Z\.json$/);
  expect(files[1]).toBe(files[0]!.replace(/\.json$/, '.md'));
  const raw = readFileSync(join(reportDir, files[0]!), 'utf8');
  return {
    run: JSON.parse(raw) as VerificationRun,
    md: readFileSync(join(reportDir, files[1]!), 'utf8'),
    raw,
  };
}

export function tasksByModel(server: RunningMockServer): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const task of server.service.store.values())
    counts[task.model] = (counts[task.model] ?? 0) + 1;
  return counts;
}

/** Binds the family on a running mock (`PUT /__mock/family`), as an administrator's §9 steps 1–2. */
export async function bind(server: RunningMockServer): Promise<void> {
  const answer = await fetch(`${server.url}/__mock/family`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ bound: true }),
  });
  expect(await answer.json()).toMatchObject({ bound: true, channelType: 61 });
}

/**
 * Registers the hooks of one test file: mocks it starts are closed and its scratch directory is
 * removed after all its tests.
 */
export function verifyFamilyFixture(): {
  mock: (options?: Parameters<typeof startMockServer>[0]) => Promise<RunningMockServer>;
  freshDir: (name: string) => string;
} {
  let dir: string;
  const servers: RunningMockServer[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'videotask-verify-'));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    mock: async (options = {}) => {
      const server = await startMockServer({
        port: 0,
        speed: 100,
        tokens: [{ key: SECRET, user: 'carol', group: 'vip' }],
        ...options,
      });
      servers.push(server);
      return server;
    },
    freshDir: (name) => {
      const path = join(dir, name);
      rmSync(path, { recursive: true, force: true });
      return mkdtempSync(`${path}-`);
    },
  };
}
