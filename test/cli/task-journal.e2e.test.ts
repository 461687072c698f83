import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FAST, taskCliFixture } from '../helpers/task-cli.ts';
import { videotaskCli } from '../helpers/built-cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { videotask, submitted, server, dir } = taskCliFixture();

/** Resolves once `read()` matches `pattern`, checking every 5 ms. */
function whenOutput(read: () => string, pattern: RegExp): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (pattern.test(read())) {
        clearInterval(timer);
        resolve();
      }
    }, 5);
  });
}

describe('a journal survives kill -9 (§8)', () => {
  it('picks up every task after the waiting process is killed mid-poll, and nothing is submitted twice', async () => {
    const journal = join(dir(), 'tasks.jsonl');
    const before = server().service.store.size;
    const ids: string[] = [];
    // Slow tasks (queued 30–90 s, then minutes running: ≥ 5 s real at 40×) stay unfinished while a
    // loaded machine spawns the CLIs; the clock is advanced past them once the waiter is killed.
    for (let i = 0; i < 3; i++)
      ids.push(await submitted('video-lite-v1', `kite ${i} [mock:slow]`, '--journal', journal));
    const waiter = spawn(
      process.execPath,
      [videotaskCli(), 'wait', '--journal', journal, ...FAST],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          VIDEOTASK_BASE_URL: server().url,
          VIDEOTASK_API_KEY: 'sk-mock-alice',
        },
      },
    );
    let output = '';
    waiter.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // Kill it as soon as it has polled once: mid-poll, with every task unfinished.
    await whenOutput(() => output, /task_/);
    waiter.kill('SIGKILL');
    await new Promise((resolve) => waiter.once('exit', resolve));
    const state = readFileSync(journal, 'utf8');
    expect(state.match(/"type":"final"/g) ?? []).toHaveLength(0);
    server().service.clock.advance(10 * 60_000);

    const again = await videotask(['wait', '--journal', journal, ...FAST]);
    expect(again.code).toBe(0);
    for (const id of ids) expect(again.stdout).toMatch(new RegExp(`${id} completed 100%`));
    expect(readFileSync(journal, 'utf8').match(/"type":"final"/g)).toHaveLength(3);
    // The mock counted every submission by its client request ID: exactly one each, and no other task.
    const clientRequestIds = [
      ...readFileSync(journal, 'utf8').matchAll(
        /"type":"submitted","at":"[^"]+","clientRequestId":"([^"]+)"/g,
      ),
    ].map((m) => m[1]!);
    expect(clientRequestIds).toHaveLength(3);
    for (const id of clientRequestIds)
      expect(server().service.submissionsByClientRequestId.get(id)).toBe(1);
    expect(server().service.store.size - before).toBe(3);
    // A third wait has nothing to do.
    const third = await videotask(['wait', '--journal', journal, ...FAST]);
    expect(third.stderr).toMatch(/0 task\(s\) followed, 3 already settled/);
  });

  it('writes a torn-safe journal: an unconfirmed submission is recorded and never resubmitted', async () => {
    const journal = join(dir(), 'torn.jsonl');
    const submitting = {
      type: 'submitting',
      at: '2026-11-22T00:00:00.000Z',
      clientRequestId: 'vt-lost',
      model: 'video-pro-v1',
      endpoint: 'generations',
    };
    // The next line was cut off by a crash while it was being written.
    writeFileSync(journal, `${JSON.stringify(submitting)}\n{"type":"subm`);
    const run = await videotask(['wait', '--journal', journal, ...FAST]);
    // 4: nothing failed, but a submission must be checked by hand, and scripts must notice.
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/cut off by a crash/);
    expect(run.stderr).toMatch(/check by hand: Request vt-lost/);
    expect(server().service.submissionsByClientRequestId.has('vt-lost')).toBe(false);
  });
});
