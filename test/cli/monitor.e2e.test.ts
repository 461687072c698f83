import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/index.ts';
import { type CliRun, closedPort, runVideotask } from '../helpers/cli.ts';
import { runMain } from '../helpers/cli-in-process.ts';
import { eventually } from '../helpers/eventually.ts';
import { videotaskCli } from '../helpers/built-cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SECRET = 'sk-team-secret-0123456789';
let server: RunningMockServer;
let dir: string;

function videotask(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runVideotask(args, {
    env: { ...process.env, VIDEOTASK_BASE_URL: server.url, VIDEOTASK_API_KEY: SECRET, ...env },
  });
}

/** The status of a task as its owner sees it (the test's own query, not the command's). */
async function statusOf(id: string): Promise<string> {
  const answer = await fetch(`${server.url}/v1/videos/${id}`, {
    headers: { authorization: `Bearer ${SECRET}` },
  });
  return ((await answer.json()) as { status: string }).status;
}

beforeAll(async () => {
  server = await startMockServer({
    port: 0,
    speed: 100,
    tokens: [{ key: SECRET, user: 'carol', group: 'default' }],
  });
  dir = mkdtempSync(join(tmpdir(), 'videotask-monitor-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('videotask monitor: checks that create no video task (§9)', () => {
  it('--once: authentication and the catalog; an expected model that is not listed fails', async () => {
    const before = server.service.store.size;
    const [plain, expecting] = await Promise.all([
      videotask(['monitor', '--once']),
      videotask([
        'monitor',
        '--once',
        '--api-key',
        'sk-mock-vip',
        '--expect-model',
        'alt-video-v2',
        '--expect-model',
        'video-pro-v1',
      ]),
    ]);
    expect(plain.code).toBe(0);
    expect(plain.stdout.trim().split('\n')).toEqual([
      'OK auth GET /v1/models answered 200 to the key',
      'OK catalog 2 model(s) listed for this key: video-pro-v1, video-lite-v1',
    ]);
    expect(expecting.code).toBe(1);
    expect(expecting.stdout).toMatch(
      /^FAIL model:alt-video-v2 not listed by \/v1\/models for this key: .*plugin channel \(type 61\)/m,
    );
    expect(expecting.stdout).toMatch(
      /^OK model:video-pro-v1 listed by \/v1\/models for this key$/m,
    );
    for (const line of (plain.stdout + expecting.stdout).trim().split('\n'))
      expect(line).toMatch(/^(OK|FAIL) \S+ \S/);
    expect(server.service.store.size).toBe(before);
  });

  it(
    'reports each journaled task once, never polling it to completion, never ' +
      'writing the journal, never submitting',
    async () => {
      const journal = join(dir, 'tasks.jsonl');
      // Three submissions at once, each with its own journal (one writer per file), then gathered into one.
      const prompts = ['a kite [mock:stuck]', 'a kite [mock:fail:ContentPolicy]', 'a kite'];
      const submitted = await Promise.all(
        prompts.map((prompt, i) =>
          videotask([
            'submit',
            '--model',
            'video-lite-v1',
            '--prompt',
            prompt,
            '--journal',
            `${journal}.${i}`,
          ]),
        ),
      );
      for (const [i, s] of submitted.entries()) {
        expect(s.code).toBe(0);
        appendFileSync(journal, readFileSync(`${journal}.${i}`));
      }
      const [running, failed, done] = submitted.map((s) => s.stdout.trim()) as [
        string,
        string,
        string,
      ];
      await eventually(
        async () => (await statusOf(failed)) === 'failed' && (await statusOf(done)) === 'completed',
        'the failing task failed and the other completed',
      );
      // A task the service does not know (another key's, or lost).
      const at = new Date().toISOString();
      const gone = {
        type: 'submitted',
        at,
        clientRequestId: 'vt-gone',
        taskId: 'task_gone',
        model: 'video-lite-v1',
      };
      appendFileSync(journal, `${JSON.stringify(gone)}\n`);
      const journalBefore = readFileSync(journal, 'utf8');
      const tasksBefore = server.service.store.size;

      const run = await videotask(['monitor', '--once', '--journal', journal]);
      expect(run.code).toBe(1);
      const lines = run.stdout.trim().split('\n');
      expect(lines).toContain(`OK journal ${journal}: 4 task(s) in progress, 0 settled`);
      expect(lines.find((l) => l.includes(running))).toMatch(
        new RegExp(`^OK task:${running} (queued|in_progress) \\d+% \\(video-lite-v1, submitted `),
      );
      expect(lines.find((l) => l.includes(failed))).toMatch(
        new RegExp(`^FAIL task:${failed} failed 100% .*error ContentPolicy: `),
      );
      expect(lines.find((l) => l.includes(done))).toMatch(
        new RegExp(
          `^OK task:${done} completed 100% .*record it in the journal with \`videotask wait --journal ${journal}\``,
        ),
      );
      expect(lines.find((l) => l.includes('task_gone'))).toMatch(
        /^FAIL task:task_gone not found for this key \(HTTP 404\)/,
      );
      expect(run.stdout + run.stderr).not.toContain(SECRET);

      expect(server.service.store.size).toBe(tasksBefore);
      expect(readFileSync(journal, 'utf8')).toBe(journalBefore);
    },
  );

  // A refused key is the run's input, not a failed check (issue 31 item 3: one exit status rule).
  it('exits 2 for a refused key (an input error), an unreachable service and bad usage', async () => {
    const port = await closedPort();
    const [badKey, unreachable] = await Promise.all([
      videotask(['monitor', '--once'], { VIDEOTASK_API_KEY: 'sk-wrong-000000000' }),
      videotask(['monitor', '--once', '--base-url', `http://127.0.0.1:${port}`]),
    ]);
    // Bad usage is refused before anything is asked: `main(argv)` in-process.
    const env = { VIDEOTASK_BASE_URL: server.url, VIDEOTASK_API_KEY: SECRET };
    const both = await runMain(['monitor', '--once', '--interval', '5'], env);
    const missing = join(dir, 'missing.jsonl');
    const noJournal = await runMain(['monitor', '--once', '--journal', missing], env);
    expect(badKey.code).toBe(2);
    expect(badKey.stdout).toMatch(/^FAIL auth the key was refused \(HTTP 401\)/m);
    expect(badKey.stderr).toMatch(
      /^videotask monitor: the run's input is wrong: auth: the key was/m,
    );
    expect(badKey.stdout + badKey.stderr).not.toContain('sk-wrong-000000000');
    expect(unreachable.code).toBe(2);
    expect(unreachable.stdout).toMatch(
      new RegExp(`^FAIL reach http://127\\.0\\.0\\.1:${port} is unreachable: `, 'm'),
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--once or --interval S, not both/);
    expect(noJournal.code).toBe(2);
    expect(noJournal.stderr).toMatch(/--journal .*missing\.jsonl: no such file/);
  });

  it(
    'shows the control characters of a journaled task ID instead of letting ' +
      'them act, and a damaged journal as a FAIL',
    async () => {
      const journal = join(dir, 'hostile.jsonl');
      const entry = {
        type: 'submitted',
        at: new Date().toISOString(),
        clientRequestId: 'vt-hostile',
        taskId: 'task_\u001b[2J\u009b31m',
        model: 'video-lite-v1',
      };
      appendFileSync(journal, `${JSON.stringify(entry)}\n`);
      const run = await videotask(['monitor', '--once', '--journal', journal]);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/^FAIL task:task_\\u001b\[2J\\u009b31m not found for this key/m);
      expect(run.stdout + run.stderr).not.toMatch(/[\u001b\u009b]/);

      appendFileSync(journal, 'not an entry\n');
      const damaged = await videotask(['monitor', '--once', '--journal', journal]);
      expect(damaged.code).toBe(1);
      expect(damaged.stdout).toMatch(/^FAIL journal .* cannot be read: .* is damaged at line 2/m);
    },
  );

  it("--interval repeats until SIGTERM, then exits with the last round's status", async () => {
    const before = server.service.store.size;
    const child = spawn(
      process.execPath,
      [
        videotaskCli(),
        'monitor',
        '--interval',
        '0.1',
        '--api-key',
        'sk-mock-vip',
        '--expect-model',
        'alt-video-v2',
      ],
      {
        cwd: ROOT,
        env: { ...process.env, VIDEOTASK_BASE_URL: server.url },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => resolve(code)),
    );
    await eventually(
      () => (stdout.match(/^FAIL model:alt-video-v2 /gm) ?? []).length >= 2,
      'two rounds of the monitor',
    );
    child.kill('SIGTERM');
    expect(await exited).toBe(1);
    expect(stderr).toMatch(/round 2 at /);
    expect(stderr).toMatch(/stopped; the last round's status was 1/);
    expect(server.service.store.size).toBe(before);
  });
});
