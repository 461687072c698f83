import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleVideo, startMockServer, type RunningMockServer } from '../../mocks/index.ts';
import type { VerificationRun } from '../../cli/verification-record.ts';
import { type CliRun, closedPort, runVideotask } from '../helpers/cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/videotask.js');
const FAMILY = ['alt-video-v2', 'alt-video-v2-fast', 'alt-video-v2.5'];
const FAST = ['--poll-initial', '0.05', '--poll-max', '0.2', '--timeout', '20'];
const SECRET = 'sk-team-secret-0123456789';
let dir: string;
const servers: RunningMockServer[] = [];

/** Runs the real CLI in `cwd` (a fresh directory: the default --report-dir is relative to it). */
function videotask(args: string[], cwd: string): Promise<CliRun> {
  const env = { ...process.env };
  delete env['VIDEOTASK_API_KEY'];
  delete env['VIDEOTASK_BASE_URL'];
  return runVideotask(args, { env, cwd });
}

/** The record the run wrote in `reportDir`: exactly one JSON and one Markdown file, nothing temporary. */
function readRecord(reportDir: string): { run: VerificationRun; md: string; raw: string } {
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

function tasksByModel(server: RunningMockServer): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const task of server.service.store.values())
    counts[task.model] = (counts[task.model] ?? 0) + 1;
  return counts;
}

async function mock(
  options: Parameters<typeof startMockServer>[0] = {},
): Promise<RunningMockServer> {
  const server = await startMockServer({
    port: 0,
    speed: 100,
    tokens: [{ key: SECRET, user: 'carol', group: 'vip' }],
    ...options,
  });
  servers.push(server);
  return server;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'videotask-verify-'));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe('videotask verify-family: the rehearsal on the mock (§9 steps 3–5)', () => {
  it('fails at step 3 against the unbound family (the mock default), with the binding advice and a record, and creates no task', async () => {
    const server = await mock();
    const cwd = freshDir('unbound');
    const run = await videotask(
      ['verify-family', '--base-url', server.url, '--api-key', 'sk-mock-vip', ...FAST],
      cwd,
    );
    expect(run.code).toBe(1);
    for (const model of FAMILY)
      expect(run.stdout).toMatch(
        new RegExp(
          `^${model.replace('.', '\\.')} +FAILED +at step 3 \\(catalog lists the model\\): /v1/models does not list ${model.replace('.', '\\.')} for this token`,
          'm',
        ),
      );
    expect(run.stdout).toContain(
      'plugin channel (type 61) using the enabled plugin version (1.0.5)',
    );
    expect(run.stdout).toMatch(/3 of 3 model\(s\) failed .*do not update the verification date/);
    expect(server.service.store.size).toBe(0);

    // The default --report-dir is ./verification-records.
    const { run: record, md, raw } = readRecord(join(cwd, 'verification-records'));
    expect(record).toMatchObject({
      kind: 'videotask verify-family',
      baseUrl: server.url,
      apiKey: 'sk-…-vip',
      dryRun: false,
      ok: false,
      exitCode: 1,
    });
    expect(record.models.map((m) => m.model)).toEqual(FAMILY);
    for (const m of record.models) {
      expect(m).toMatchObject({
        ok: false,
        taskId: null,
        requestId: null,
        finalStatus: null,
        failedStep: { step: 3, name: 'catalog lists the model' },
      });
      expect(m.steps.map((s) => [s.step, s.outcome])).toEqual([
        [3, 'failed'],
        [3, 'skipped'],
        [4, 'skipped'],
        [4, 'skipped'],
        [4, 'skipped'],
        [4, 'skipped'],
        [5, 'skipped'],
      ]);
      expect(m.steps[1]!.detail).toMatch(/nothing was submitted/);
      expect(m.advice).toMatch(/type 61.*1\.0\.5.*group.*grant the test token the model.*price/);
    }
    expect(md).toMatch(/\*\*failed\*\* for 3 of 3 model\(s\)/);
    expect(md).toMatch(/\*\*Failed at step 3 \(catalog lists the model\)\.\*\*/);
    expect(md).toMatch(
      /\*\*Next:\*\* §9 steps 1–2: bind the video channel to the plugin with a plugin channel \(type 61\)/,
    );
    expect(run.stdout + run.stderr + raw + md).not.toContain('sk-mock-vip');
  });

  it('--dry-run checks the catalog only: creates no task and writes nothing', async () => {
    const server = await mock();
    const cwd = freshDir('dry');
    const unbound = await videotask(
      ['verify-family', '--base-url', server.url, '--api-key', 'sk-mock-vip', '--dry-run'],
      cwd,
    );
    expect(unbound.code).toBe(1);
    expect(unbound.stdout).toMatch(
      /Dry run: 3 of 3 model\(s\) not listed; nothing was submitted or written/,
    );
    await bind(server);
    const bound = await videotask(
      ['verify-family', '--base-url', server.url, '--api-key', 'sk-mock-vip', '--dry-run'],
      cwd,
    );
    expect(bound.code).toBe(0);
    for (const model of FAMILY)
      expect(bound.stdout).toMatch(
        new RegExp(
          `^${model.replace('.', '\\.')} +passed +listed by /v1/models \\(dry run: nothing submitted\\)`,
          'm',
        ),
      );
    expect(server.service.store.size).toBe(0);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('passes once the family is bound (PUT /__mock/family): one task per model, downloaded, checked and recorded', async () => {
    const server = await mock();
    await bind(server);
    const cwd = freshDir('bound');
    const reportDir = join(cwd, 'records');
    const run = await videotask(
      [
        'verify-family',
        '--base-url',
        server.url,
        '--api-key',
        'sk-mock-vip',
        '--report-dir',
        reportDir,
        ...FAST,
      ],
      cwd,
    );
    expect(run.stderr).not.toMatch(/failed/);
    expect(run.code).toBe(0);
    const { sha256 } = sampleVideo();
    for (const model of FAMILY)
      expect(run.stdout).toMatch(
        new RegExp(
          `^${model.replace('.', '\\.')} +passed +task_\\w{32} completed; 6592 bytes, ISO BMFF \\(ftyp\\), sha256 ${sha256}`,
          'm',
        ),
      );
    expect(run.stdout).toMatch(
      /All 3 model\(s\) passed: update the verification date of the catalog and of the service document to \d{4}-\d{2}-\d{2} \(§9 step 5\)/,
    );

    // Exactly one task per model, each asking for the assumed smallest duration (4 s).
    expect(tasksByModel(server)).toEqual({
      'alt-video-v2': 1,
      'alt-video-v2-fast': 1,
      'alt-video-v2.5': 1,
    });
    expect([...server.service.store.values()].map((t) => t.seconds)).toEqual([4, 4, 4]);

    const { run: record, md, raw } = readRecord(reportDir);
    expect(record).toMatchObject({
      ok: true,
      exitCode: 0,
      settings: { endpoint: 'POST /v1/videos', seconds: 4, pluginName: null },
    });
    expect(record.settings.secondsSource).toMatch(/^assumed: .*§8/);
    const ids = new Set([...server.service.store.values()].map((t) => t.id));
    for (const m of record.models) {
      expect(m).toMatchObject({
        ok: true,
        finalStatus: 'completed',
        bytes: 6592,
        sha256,
        containerSignature: 'ISO BMFF (ftyp)',
        contentType: 'video/mp4',
        errorCode: null,
        failedStep: null,
      });
      expect(ids.has(m.taskId!)).toBe(true);
      expect(m.requestId).toMatch(/^vf-/);
      expect(server.service.submissionsByRequestId.get(m.requestId!)).toBe(1);
      for (const t of [m.timings.submitMs, m.timings.toFinalStateMs, m.timings.downloadMs])
        expect(t).toBeGreaterThanOrEqual(0);
      expect(m.steps.map((s) => s.outcome)).toEqual([
        'passed',
        'passed',
        'passed',
        'passed',
        'passed',
        'skipped',
        'passed',
      ]);
      // The documented profile shows no usage or charge: said so, nothing invented.
      expect(m.usage).toEqual({
        exposed: false,
        detail: expect.stringMatching(
          /^the service exposes no usage or charge information \(the document doesn't show it, §4/,
        ),
        fields: {},
      });
      expect(m.steps[1]!.detail).toMatch(/metadata\.duration 4 s \(an assumption/);
    }
    expect(md).toMatch(/\*\*passed\*\* for all 3 models/);
    expect(md).toMatch(
      /Every model passed: update the verification date of the catalog and of the service document to \d{4}-\d{2}-\d{2}\./,
    );
    expect(run.stdout + run.stderr + raw + md).not.toContain('sk-mock-vip');
  });

  it('fails at step 3 for a token of the default group: the bound family is not listed for it', async () => {
    const server = await mock({ familyBound: true });
    const cwd = freshDir('alice');
    const run = await videotask(
      [
        'verify-family',
        '--base-url',
        server.url,
        '--api-key',
        'sk-mock-alice',
        '--model',
        'alt-video-v2',
        ...FAST,
      ],
      cwd,
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^alt-video-v2 +FAILED +at step 3 \(catalog lists the model\): \/v1\/models does not list alt-video-v2 for this token \(it lists video-pro-v1, video-lite-v1\)/m,
    );
    expect(server.service.store.size).toBe(0);
    const { run: record } = readRecord(join(cwd, 'verification-records'));
    expect(record.models[0]!.failedStep).toEqual({ step: 3, name: 'catalog lists the model' });
  });

  it('fails at step 4 when the task fails: the record keeps the task ID, the error code and the redacted message', async () => {
    const server = await mock({ familyBound: true, failureRate: 1 });
    const cwd = freshDir('failing');
    const run = await videotask(
      [
        'verify-family',
        '--base-url',
        server.url,
        '--api-key',
        SECRET,
        '--model',
        'alt-video-v2',
        '--model',
        'alt-video-v2',
        '--seconds',
        '6',
        ...FAST,
      ],
      cwd,
    );
    expect(run.code).toBe(1);
    // Never more than one task per model, even when the model is named twice.
    expect(tasksByModel(server)).toEqual({ 'alt-video-v2': 1 });
    const [task] = [...server.service.store.values()];
    expect(task!.seconds).toBe(6);
    const code = task!.plan.errorCode!;
    expect(run.stdout).toMatch(
      new RegExp(
        `^alt-video-v2 +FAILED +at step 4 \\(poll to the final state\\): task ${task!.id} failed after \\d+ queries: ${code}: `,
        'm',
      ),
    );
    expect(run.stdout).toContain(
      `next: the task failed with ${code}. Keep this record (§9 step 5) and investigate by the task's error message`,
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
  });

  it('against `videotask mock --family-bound --profile observed`: passes and reports the charge fields the gateway exposes, raw', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'mock', '--port', '0', '--speed', '100', '--family-bound', '--profile', 'observed'],
      { cwd: ROOT },
    );
    try {
      const url = await listeningUrl(child);
      const cwd = freshDir('spawned');
      const run = await videotask(
        [
          'verify-family',
          '--base-url',
          url,
          '--api-key',
          'sk-mock-vip',
          '--model',
          'alt-video-v2-fast',
          '--plugin-name',
          'alt-video',
          ...FAST,
        ],
        cwd,
      );
      expect(run.code).toBe(0);
      const { run: record } = readRecord(join(cwd, 'verification-records'));
      const m = record.models[0]!;
      expect(m).toMatchObject({
        ok: true,
        finalStatus: 'completed',
        bytes: 6592,
        sha256: sampleVideo().sha256,
      });
      // The observed gateway's wrapper carries `quota` in `data`; the plugin's native path carries `usage`.
      expect(m.usage.exposed).toBe(true);
      expect(Object.keys(m.usage.fields).sort()).toEqual(['native.usage', 'wrapper.data.quota']);
      expect(m.steps.find((s) => s.name === 'usage and charge')).toMatchObject({
        outcome: 'passed',
        detail: expect.stringMatching(/wrapper\.data\.quota = [\d.]+/),
      });
      const tasks = (await (await fetch(`${url}/__mock/tasks`)).json()) as {
        tasks: { model: string }[];
      };
      expect(tasks.tasks.map((t) => t.model)).toEqual(['alt-video-v2-fast']);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('exits 2, creating nothing, for bad usage, an unreachable service or a refused key', async () => {
    const server = await mock({ familyBound: true });
    const cwd = freshDir('usage');
    const port = await closedPort();
    const [badSeconds, unreachable, refused] = await Promise.all([
      videotask(
        [
          'verify-family',
          '--base-url',
          server.url,
          '--api-key',
          'sk-mock-vip',
          '--seconds',
          'four',
        ],
        cwd,
      ),
      videotask(
        ['verify-family', '--base-url', `http://127.0.0.1:${port}`, '--api-key', SECRET],
        cwd,
      ),
      videotask(
        ['verify-family', '--base-url', server.url, '--api-key', 'sk-wrong-000000000'],
        cwd,
      ),
    ]);
    expect(badSeconds.code).toBe(2);
    expect(badSeconds.stderr).toMatch(/--seconds must be a number/);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(
      /the service at http:\/\/127\.0\.0\.1:\d+ is unreachable: .*\n {2}→ nothing was submitted and no record was written/,
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
});

function freshDir(name: string): string {
  const path = join(dir, name);
  rmSync(path, { recursive: true, force: true });
  return mkdtempSync(`${path}-`);
}

async function bind(server: RunningMockServer): Promise<void> {
  const answer = await fetch(`${server.url}/__mock/family`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ bound: true }),
  });
  expect(await answer.json()).toMatchObject({ bound: true, channelType: 61 });
}

function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`videotask mock exited with ${code}: ${out}`)));
  });
}
