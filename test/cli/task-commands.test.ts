import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleVideo, startMockServer, type RunningMockServer } from '../../mocks/index.ts';
import { type CliRun, runVideotask } from '../helpers/cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FAST = ['--poll-initial', '0.05', '--poll-max', '0.2'];
let server: RunningMockServer;
let dir: string;

function videotask(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runVideotask(args, {
    env: {
      ...process.env,
      VIDEOTASK_BASE_URL: server.url,
      VIDEOTASK_API_KEY: 'sk-mock-alice',
      ...env,
    },
  });
}

beforeAll(async () => {
  // 40× real time: a task lives 0.5–1.7 s.
  server = await startMockServer({
    port: 0,
    speed: 40,
    seed: 'cli',
    tokens: [{ key: 'sk-team-secret-0123456789', user: 'carol', group: 'default' }],
  });
  dir = mkdtempSync(join(tmpdir(), 'videotask-cli-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('submit, status, wait, download', () => {
  it('submits, shows, waits for and downloads a task', async () => {
    const submitted = await videotask([
      'submit',
      '--model',
      'video-pro-v1',
      '--prompt',
      'a kite',
      '--metadata',
      '{"duration":5}',
      '--endpoint',
      'videos',
    ]);
    expect(submitted.code).toBe(0);
    const id = submitted.stdout.trim();
    expect(id).toMatch(/^task_[0-9A-Za-z]{32}$/);
    const status = await videotask(['status', id, '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ id, model: 'video-pro-v1' });
    expect((await videotask(['status', id, '--wrapper'])).stdout).toMatch(
      new RegExp(`^${id}  (QUEUED|IN_PROGRESS|SUCCESS)`),
    );
    const waited = await videotask(['wait', id, ...FAST]);
    expect(waited.code).toBe(0);
    expect(waited.stdout).toMatch(new RegExp(`${id} completed 100%`));
    const file = join(dir, 'video.mp4');
    const downloaded = await videotask(['download', id, '-o', file]);
    expect(downloaded.code).toBe(0);
    const sha = createHash('sha256').update(readFileSync(file)).digest('hex');
    expect(sha).toBe(sampleVideo().sha256);
    expect(downloaded.stdout.trim()).toBe(`${sha}  ${file}`);
    expect((await videotask(['download', id, '-o', file])).code).toBe(2);
    expect((await videotask(['download', id, '-o', file, '--force'])).code).toBe(0);
  });

  it('exits 1 with the error code for a failed task, and 3 when the wait times out', async () => {
    const failed = (
      await videotask([
        'submit',
        '--model',
        'video-pro-v1',
        '--prompt',
        'x [mock:fail:ContentPolicy]',
      ])
    ).stdout.trim();
    const waitFailed = await videotask(['wait', failed, ...FAST]);
    expect(waitFailed.code).toBe(1);
    expect(waitFailed.stdout).toMatch(/failed 100% .* error ContentPolicy/);
    const stuck = (
      await videotask(['submit', '--model', 'video-pro-v1', '--prompt', 'x [mock:stuck]'])
    ).stdout.trim();
    const waitStuck = await videotask(['wait', stuck, ...FAST, '--timeout', '0.5']);
    expect(waitStuck.code).toBe(3);
    expect(waitStuck.stderr).toMatch(/wait again later .* Do not resubmit/);
  });

  it('leaves no file when a download fails, and says why', async () => {
    const id = (
      await videotask(['submit', '--model', 'video-pro-v1', '--prompt', 'x [mock:slow]'])
    ).stdout.trim();
    const file = join(dir, 'early.mp4');
    const early = await videotask(['download', id, '-o', file]);
    expect(early.code).toBe(1);
    expect(early.stderr).toMatch(/not completed yet/);
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('.part'))).toEqual([]);
  });

  it.each([
    ['an empty prompt', ['submit', '--model', 'm', '--prompt', ' '], 2, /--prompt is required/],
    [
      'metadata that is not JSON',
      ['submit', '--model', 'm', '--prompt', 'p', '--metadata', '{duration:5}'],
      2,
      /--metadata must be a JSON object/,
    ],
    [
      'a bad endpoint',
      ['submit', '--model', 'm', '--prompt', 'p', '--endpoint', 'v2'],
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
      'a model the key may not use',
      ['submit', '--model', 'video-ultra', '--prompt', 'p'],
      1,
      /No available channel for model video-ultra.*\n.*check the name against `\/v1\/models`/,
    ],
    ['a refused key', ['status', 'task_x'], 1, /check --api-key/],
  ])('explains %s and exits non-zero', async (_name, args, code, message) => {
    const run = await videotask(
      args,
      _name === 'a refused key' ? { VIDEOTASK_API_KEY: 'sk-wrong-000000000' } : {},
    );
    expect(run.code).toBe(code);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toContain('sk-wrong-000000000');
  });

  it('never prints the API key, even in errors', async () => {
    const run = await videotask(['submit', '--model', 'video-ultra', '--prompt', 'p', '--json'], {
      VIDEOTASK_API_KEY: 'sk-team-secret-0123456789',
    });
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).not.toContain('sk-team-secret-0123456789');
  });

  it('explains an unreachable service', async () => {
    const run = await videotask(['status', 'task_x'], { VIDEOTASK_BASE_URL: 'http://127.0.0.1:9' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/is the service at http:\/\/127\.0\.0\.1:9 up\?/);
  });
});

describe('a journal survives kill -9 (§8)', () => {
  it('picks up every task after the waiting process is killed mid-poll, and nothing is submitted twice', async () => {
    const journal = join(dir, 'tasks.jsonl');
    const before = server.service.store.size;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (
          await videotask([
            'submit',
            '--model',
            'video-lite-v1',
            '--prompt',
            `kite ${i}`,
            '--journal',
            journal,
          ])
        ).stdout.trim(),
      );
    const waiter = spawn(
      process.execPath,
      ['bin/videotask.js', 'wait', '--journal', journal, ...FAST],
      {
        cwd: ROOT,
        env: { ...process.env, VIDEOTASK_BASE_URL: server.url, VIDEOTASK_API_KEY: 'sk-mock-alice' },
      },
    );
    let output = '';
    waiter.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // Kill it as soon as it has polled once: mid-poll, with every task unfinished.
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (/task_/.test(output)) {
          clearInterval(timer);
          resolve();
        }
      }, 5);
    });
    waiter.kill('SIGKILL');
    await new Promise((resolve) => waiter.once('exit', resolve));
    const state = readFileSync(journal, 'utf8');
    expect(state.match(/"type":"final"/g) ?? []).toHaveLength(0);

    const again = await videotask(['wait', '--journal', journal, ...FAST]);
    expect(again.code).toBe(0);
    for (const id of ids) expect(again.stdout).toMatch(new RegExp(`${id} completed 100%`));
    expect(readFileSync(journal, 'utf8').match(/"type":"final"/g)).toHaveLength(3);
    // The mock counted every submission by its request ID: exactly one each, and no other task.
    const requestIds = [
      ...readFileSync(journal, 'utf8').matchAll(
        /"type":"submitted","at":"[^"]+","requestId":"([^"]+)"/g,
      ),
    ].map((m) => m[1]!);
    expect(requestIds).toHaveLength(3);
    for (const requestId of requestIds)
      expect(server.service.submissionsByRequestId.get(requestId)).toBe(1);
    expect(server.service.store.size - before).toBe(3);
    // A third wait has nothing to do.
    const third = await videotask(['wait', '--journal', journal, ...FAST]);
    expect(third.stderr).toMatch(/0 task\(s\) followed, 3 already settled/);
  });

  it('writes a torn-safe journal: an unconfirmed submission is recorded and never resubmitted', async () => {
    const journal = join(dir, 'torn.jsonl');
    writeFileSync(
      journal,
      '{"type":"submitting","at":"2026-11-22T00:00:00.000Z","requestId":"vt-lost","model":"video-pro-v1","endpoint":"generations"}\n{"type":"subm',
    );
    const run = await videotask(['wait', '--journal', journal, ...FAST]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/cut off by a crash/);
    expect(run.stderr).toMatch(/check by hand: Request vt-lost/);
    expect(server.service.submissionsByRequestId.has('vt-lost')).toBe(false);
  });
});
