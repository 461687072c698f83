import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closedPort } from '../helpers/cli.ts';
import {
  FAST,
  SECRET,
  modelLine,
  readRecord,
  tasksByModel,
  verifyFamily,
  verifyFamilyFixture,
} from '../helpers/verify-family.ts';

const { mock, freshDir } = verifyFamilyFixture();

describe('videotask verify-family: where a rollout stops (§9 steps 3–5)', () => {
  it('fails at step 3 for a token of the default group: the bound family is not listed for it', async () => {
    const server = await mock({ familyBound: true });
    const cwd = freshDir('alice');
    const run = await verifyFamily(
      server.url,
      'sk-mock-alice',
      ['--model', 'alt-video-v2', ...FAST],
      cwd,
    );
    expect(run.code).toBe(1);
    const notListed =
      '/v1/models does not list alt-video-v2 for this token \\(it lists video-pro-v1, video-lite-v1\\)';
    expect(run.stdout).toMatch(
      modelLine('alt-video-v2', `FAILED +at step 3 \\(catalog lists the model\\): ${notListed}`),
    );
    expect(server.service.store.size).toBe(0);
    const { run: record } = readRecord(join(cwd, 'verification-records'));
    expect(record.models[0]!.failedStep).toEqual({ step: 3, name: 'catalog lists the model' });
  });

  it(
    'fails at step 4 when the task fails: the record keeps the task ID, the error code and the ' +
      'redacted message',
    async () => {
      const server = await mock({ familyBound: true, failureRate: 1 });
      const cwd = freshDir('failing');
      const twice = ['--model', 'alt-video-v2', '--model', 'alt-video-v2'];
      const run = await verifyFamily(
        server.url,
        SECRET,
        [...twice, '--seconds', '6', ...FAST],
        cwd,
      );
      expect(run.code).toBe(1);
      // Never more than one task per model, even when the model is named twice.
      expect(tasksByModel(server)).toEqual({ 'alt-video-v2': 1 });
      const [task] = [...server.service.store.values()];
      expect(task!.seconds).toBe(6);
      const code = task!.plan.errorCode!;
      const failedTask = `task ${task!.id} failed after \\d+ queries: ${code}: `;
      expect(run.stdout).toMatch(
        modelLine('alt-video-v2', `FAILED +at step 4 \\(poll to the final state\\): ${failedTask}`),
      );
      expect(run.stdout).toContain(
        `next: the task failed with ${code}. Keep this record (§9 step 5) and investigate by the ` +
          "task's error message",
      );
      const { run: record, md, raw } = readRecord(join(cwd, 'verification-records'));
      const m = record.models[0]!;
      expect(record.models).toHaveLength(1);
      expect(record.settings.secondsSource).toBe('given with --seconds');
      expect(m).toMatchObject({
        ok: false,
        taskId: task!.id,
        finalStatus: 'failed',
        errorCode: code,
        errorMessage: task!.plan.errorMessage,
        bytes: null,
        sha256: null,
        failedStep: { step: 4, name: 'poll to the final state' },
      });
      expect(m.steps.map((s) => s.outcome)).toEqual([
        'passed',
        'passed',
        'failed',
        'skipped',
        'skipped',
        'skipped',
        'skipped',
      ]);
      expect(m.steps[3]!.detail).toMatch(/the task failed, there is no video/);
      expect(md).toMatch(new RegExp(`Error \`${code}\``));
      expect(run.stdout + run.stderr + raw + md).not.toContain(SECRET);
      expect(raw).toContain('sk-…6789');
    },
  );

  it('exits 2, creating nothing, for bad usage, an unreachable service or a refused key', async () => {
    const server = await mock({ familyBound: true });
    const cwd = freshDir('usage');
    const port = await closedPort();
    const [badSeconds, unreachable, refused] = await Promise.all([
      verifyFamily(server.url, 'sk-mock-vip', ['--seconds', 'four'], cwd),
      verifyFamily(`http://127.0.0.1:${port}`, SECRET, [], cwd),
      verifyFamily(server.url, 'sk-wrong-000000000', [], cwd),
    ]);
    expect(badSeconds.code).toBe(2);
    expect(badSeconds.stderr).toMatch(/--seconds must be a number/);
    expect(unreachable.code).toBe(2);
    const nothingDone = '\\n {2}→ nothing was submitted and no record was written';
    expect(unreachable.stderr).toMatch(
      new RegExp(`the service at http://127\\.0\\.0\\.1:\\d+ is unreachable: .*${nothingDone}`),
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/the key sk-…0000 was refused .*\(HTTP 401\)/);
    expect(unreachable.stderr + refused.stderr + refused.stdout).not.toMatch(
      /sk-team-secret-0123456789|sk-wrong-000000000/,
    );
    expect(server.service.store.size).toBe(0);
    // The report directory is prepared before anything else, but no record is written.
    expect(readdirSync(join(cwd, 'verification-records'))).toEqual([]);
  });

  // Issue 31 item 3: a test token without quota is the run's input, not a rollout step that failed:
  // exit 2 and the model's record says so (inputError), never exit 1 alone.
  it("exits 2 for a test token whose quota is spent, recording the model's input error", async () => {
    const broke = 'sk-vip-broke-0123456789';
    const server = await mock({
      familyBound: true,
      tokens: [{ key: broke, user: 'dave', group: 'vip', quota: 'exhausted' }],
    });
    const cwd = freshDir('broke');
    const run = await verifyFamily(server.url, broke, ['--model', 'alt-video-v2', ...FAST], cwd);
    expect(run.code, run.stdout).toBe(2);
    expect(run.stdout).toMatch(
      /alt-video-v2: the run's input is wrong \(the test token's permission or quota/,
    );
    const { run: record } = readRecord(join(cwd, 'verification-records'));
    expect(record.exitCode).toBe(2);
    expect(record.models[0]!.inputError).toMatch(/^POST \/v1\/videos was refused: .*quota/);
    expect(server.service.store.size).toBe(0);
  });
});
