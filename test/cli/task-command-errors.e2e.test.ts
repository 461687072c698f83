import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMockServer } from '../../mocks/index.ts';
import { TEAM_SECRET, submitArgs, taskCliFixture } from '../helpers/task-cli.ts';

const { videotask } = taskCliFixture();
const WRONG_KEY = 'sk-wrong-000000000';

describe('submit, status, wait, download: what goes wrong is explained', () => {
  it.each([
    ['an empty prompt', submitArgs('m', ' '), 2, /--prompt is required/],
    [
      'metadata that is not JSON',
      submitArgs('m', 'p', '--metadata', '{duration:5}'),
      2,
      /--metadata must be a JSON object/,
    ],
    [
      'a bad endpoint',
      submitArgs('m', 'p', '--endpoint', 'v2'),
      2,
      /--endpoint must be generations or videos/,
    ],
    [
      'wait with both an ID and a journal',
      ['wait', 'task_x', '--journal', 'j'],
      2,
      /one task ID or --journal/,
    ],
    ['download without -o', ['download', 'task_x'], 2, /-o FILE is required/],
    [
      'a journal that is a directory',
      submitArgs('m', 'p', '--journal', tmpdir()),
      2,
      /--journal .* is a directory/,
    ],
    [
      'a journal in a directory that does not exist',
      submitArgs('m', 'p', '--journal', join(tmpdir(), 'no-such-dir-vt', 'j')),
      2,
      /the directory .*no-such-dir-vt does not exist/,
    ],
    [
      'a model the key may not use',
      submitArgs('video-ultra', 'p'),
      1,
      /No available channel for model video-ultra.*\n.*check the name against `\/v1\/models`/,
    ],
    ['a refused key', ['status', 'task_x'], 1, /check --api-key/],
  ])('explains %s and exits non-zero', async (_name, args, code, message) => {
    const run = await videotask(
      args,
      _name === 'a refused key' ? { VIDEOTASK_API_KEY: WRONG_KEY } : {},
    );
    expect(run.code).toBe(code);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toContain(WRONG_KEY);
  });

  it('never prints the API key, even in errors', async () => {
    const run = await videotask(submitArgs('video-ultra', 'p', '--json'), {
      VIDEOTASK_API_KEY: TEAM_SECRET,
    });
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).not.toContain(TEAM_SECRET);
  });

  it("explains the gateway's 400 task_not_exist as a task that is not yours or does not exist", async () => {
    const observed = await startMockServer({
      port: 0,
      speed: 40,
      seed: 'hints',
      profile: 'observed',
    });
    try {
      const env = { VIDEOTASK_BASE_URL: observed.url };
      const bobs = await videotask(submitArgs('video-pro-v1', 'a kite'), {
        ...env,
        VIDEOTASK_API_KEY: 'sk-mock-bob',
      });
      const run = await videotask(['status', bobs.stdout.trim()], env);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/\(HTTP 400, task_not_exist\)/);
      expect(run.stderr).toMatch(/→ this task is not yours or does not exist/);
      expect(run.stderr).not.toMatch(/fix the request/);
    } finally {
      await observed.close();
    }
  });

  it('explains an unreachable service', async () => {
    const run = await videotask(['status', 'task_x'], { VIDEOTASK_BASE_URL: 'http://127.0.0.1:9' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/is the service at http:\/\/127\.0\.0\.1:9 up\?/);
  });
});
