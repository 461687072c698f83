import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readProfile } from '../../src/profile/index.ts';
import { DEFAULT_KEYS, startDeployment, type RunningDeployment } from '../deployments/index.ts';
import { runVideotask } from '../helpers/cli.ts';
import { runMain } from '../helpers/cli-in-process.ts';
import { killMockProcesses, LISTENING, listening, spawnMock } from '../helpers/mock-process.ts';

// The loop as a new user runs it, with the real binary against a deployment the project never saw
// (test/deployments/problem-json.ts: RFC 9457 errors, `vt-` IDs, its own catalog): one command learns,
// one serves, one tells whether the deployment still answers as its profile.

const dir = mkdtempSync(join(tmpdir(), 'videotask-learn-cli-'));
const profileFile = join(dir, 'staging.profile.json');
let staging: RunningDeployment;
let keys: string[];
const POLL = ['--poll-initial', '0.1', '--poll-max', '0.5'];
const FAILS = ['--failing-prompt', 'a red kite that should fail'];
// The key's token may not use video-lite-v1 (§5): the profile learns how staging refuses it.
const FORBIDS = ['--forbidden-model', 'video-lite-v1'];
const [ALICE, BOB] = DEFAULT_KEYS;

beforeAll(async () => {
  staging = await startDeployment('problem-json', {
    speed: 10,
    submissionBudget: { tasks: 100, windowMs: 2_000 },
    keys: [{ ...ALICE!, models: ALICE!.models.filter((m) => m !== 'video-lite-v1') }, BOB!],
  });
  keys = ['--api-key', staging.keys[0]!.key, '--other-api-key', staging.keys[1]!.key];
});
afterEach(() => killMockProcesses());
afterAll(async () => {
  await staging.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('videotask learn, mock --profile, drift', () => {
  it('learns a deployment into a profile file, with one command', async () => {
    const run = await runVideotask(
      [
        'learn',
        '--base-url',
        staging.url,
        ...keys,
        ...FAILS,
        ...FORBIDS,
        ...POLL,
        '--out',
        profileFile,
      ],
      { timeoutMs: 90_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^learned .*staging\.profile\.json: \d+ cells from 1 run of 127\.0\.0\.1:\d+; 3 tasks/m,
    );
    expect(run.stdout).toContain(`serve it: videotask mock --profile ${profileFile}`);
    const text = readFileSync(profileFile, 'utf8');
    const profile = readProfile(text);
    expect(profile.taskId.form).toBe('vt-{upper:26}');
    expect(profile.content).toMatchObject({
      contentType: 'application/octet-stream',
      range: false,
    });
    expect(profile.answers['createVideo n/a owner']?.['forbidden-model']?.status).toBe(403);
    for (const key of staging.keys) expect(text).not.toContain(key.key);
    expect(text).toMatch(
      /^\{\n {2}"\$schema": ".*spec\/learned-profile\.schema\.json",\n {2}"version": 1,/,
    );
  }, 120_000);

  it('serves it: the mock answers in the deployment’s words', async () => {
    const mock = spawnMock('--port', '0', '--profile', profileFile, '--clock', 'manual');
    const url = await listening(
      mock,
      /task IDs vt-\{upper:26\}: too small a form .* kept by this process/,
    );
    expect(mock.stdout()).toMatch(/profile .* \(learned from 127\.0\.0\.1:\d+, /);
    const headers = { authorization: 'Bearer sk-mock-alice', 'content-type': 'application/json' };
    const body = JSON.stringify({ model: 'video-pro-v1', prompt: 'a kite' });
    const submitted = await fetch(`${url}/v1/videos`, { method: 'POST', headers, body });
    const { id } = (await submitted.json()) as { id: string };
    expect(id).toMatch(/^vt-[0-9A-Z]{26}$/);
    const missing = await fetch(`${url}/v1/videos/vt-00000000000000000000000000`, { headers });
    expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  }, 30_000);

  it('drift --against-profile finds the deployment still answering as its profile (exit 0)', async () => {
    const reports = join(dir, 'drift');
    const run = await runVideotask(
      [
        'drift',
        ...['--base-url', staging.url, ...keys, ...FAILS, ...FORBIDS, ...POLL],
        ...['--against-profile', profileFile, '--report-dir', reports],
      ],
      { timeoutMs: 90_000 },
    );
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('no difference: B answers every step as A does');
    expect(readFileSync(join(reports, 'drift-report.md'), 'utf8')).toMatch(
      /^# Drift: no difference/,
    );
  }, 120_000);

  it('drift against another deployment lists the differences and exits 1', async () => {
    const other = spawnMock('--port', '0', '--speed', '10');
    const url = await listening(other, LISTENING);
    const run = await runVideotask(
      [
        'drift',
        ...['--base-url', staging.url, ...keys, ...FAILS, ...POLL],
        ...['--against', url, '--against-api-key', 'sk-mock-alice'],
        ...[
          '--against-other-api-key',
          'sk-mock-bob',
          '--against-failing-prompt',
          'a kite [mock:fail]',
        ],
        '--tier',
        'free',
      ],
      { timeoutMs: 90_000 },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^ {2}\d+\. (.*; )?content type: A application\/problem\+json · B application\/json/m,
    );
    expect(run.stdout).toMatch(/^DRIFT: \d+ differences: /m);
    expect(run.stdout + run.stderr).not.toContain(staging.keys[0]!.key);
  }, 120_000);

  it('contract --learn FILE learns from the contract run it makes anyway', async () => {
    const file = join(dir, 'from-contract.profile.json');
    const run = await runVideotask(
      ['contract', '--base-url', staging.url, ...keys, ...FAILS, ...POLL, '--learn', file],
      { timeoutMs: 90_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Result: the deployment follows the documented behaviour/m);
    expect(run.stdout).toMatch(/^learned .*from-contract\.profile\.json: \d+ cells from 1 run/m);
    expect(readProfile(readFileSync(file, 'utf8')).lifecycle.tasks).toBe(3);
  }, 120_000);

  it('refuses a profile file that is no profile, naming the field and what to do (exit 2)', async () => {
    const bad = join(dir, 'bad.profile.json');
    const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(bad, JSON.stringify({ ...profile, taskId: { form: 'vt-{upper:0}' } }));
    // Refused before anything starts: `main(argv)` in-process, the function the process runs.
    const mock = await runMain(['mock', '--port', '0', '--profile', bad]);
    expect(mock.code).toBe(2);
    expect(mock.stderr).toMatch(
      /--profile .*bad\.profile\.json is not a usable profile: \/taskId\/form: a slot's length must be 1–256/,
    );
    expect(mock.stderr).toMatch(/learn it again \(videotask learn\)/);
    const missing = await runMain(['mock', '--profile', join(dir, 'none.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no such file\. Learn one with: videotask learn --base-url URL/);
  });

  it('says what is missing from a learn or a drift (exit 2)', async () => {
    const noOut = await runMain(['learn', '--base-url', staging.url, ...keys]);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toMatch(/--out FILE is required/);
    const lopsided = await runMain([
      'drift',
      ...['--base-url', staging.url, ...keys, '--against', staging.url, '--against-api-key', 'k'],
    ]);
    expect(lopsided.code).toBe(2);
    expect(lopsided.stderr).toMatch(/give both sides a second user's key .* or neither/);
  });
});
