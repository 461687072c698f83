import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/index.ts';
import { type CliRun, runVideotask } from './cli.ts';

/** Fast §8 polling for the task commands against a mock at 40× real time. */
export const FAST = ['--poll-initial', '0.05', '--poll-max', '0.2'];
export const TEAM_SECRET = 'sk-team-secret-0123456789';

/** `submit --model MODEL --prompt PROMPT …rest`. */
export function submitArgs(model: string, prompt: string, ...rest: string[]): string[] {
  return ['submit', '--model', model, '--prompt', prompt, ...rest];
}

export interface TaskCli {
  /** Runs the real CLI against this file's mock as alice; `env` overrides the environment. */
  readonly videotask: (args: string[], env?: Record<string, string>) => Promise<CliRun>;
  /** Submits and returns the task ID the command printed. */
  readonly submitted: (model: string, prompt: string, ...rest: string[]) => Promise<string>;
  readonly server: () => RunningMockServer;
  /** A scratch directory, removed after the file's tests. */
  readonly dir: () => string;
}

/**
 * Registers the hooks of one test file: a mock at 40× real time (a task lives 0.5–1.7 s) with a team
 * key besides the built-in ones, and a scratch directory; both go away after the file's tests.
 */
export function taskCliFixture(): TaskCli {
  let server: RunningMockServer;
  let dir: string;
  beforeAll(async () => {
    server = await startMockServer({
      port: 0,
      speed: 40,
      seed: 'cli',
      tokens: [{ key: TEAM_SECRET, user: 'carol', group: 'default' }],
    });
    dir = mkdtempSync(join(tmpdir(), 'videotask-cli-'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const videotask = (args: string[], env: Record<string, string> = {}) =>
    runVideotask(args, {
      env: {
        ...process.env,
        VIDEOTASK_BASE_URL: server.url,
        VIDEOTASK_API_KEY: 'sk-mock-alice',
        ...env,
      },
    });
  return {
    videotask,
    submitted: async (model, prompt, ...rest) =>
      (await videotask(submitArgs(model, prompt, ...rest))).stdout.trim(),
    server: () => server,
    dir: () => dir,
  };
}
