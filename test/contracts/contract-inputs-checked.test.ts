import { describe, expect, it } from 'vitest';
import { exitStatus } from '../../cli/commands/contract-target.ts';
import { runContract, TargetError } from '../../contracts/index.ts';
import { runMain } from '../helpers/cli-in-process.ts';
import { BASE_TARGET, checkInProcess } from '../contracts/support/in-process.ts';

// Issue 22, "the suite checks its own inputs": a wrong input is exit 2, never a verdict. Before:
// an --other-api-key the deployment refuses made every §5 ownership cell "observed" and PASS (its
// probes were refused like any invalid key's) and the run exited 0; the same key twice read as a §5
// failure; a --model typo spent the budget on refused submissions and failed catalog.lists-model
// (exit 1); verify-family recorded a typo as a failed rollout step; and a bad VIDEOTASK_BASE_URL was
// reported as "--base-url …", a flag the user never typed.
//
// In-process: the contract runs against the bundled service, and the command line as `main(argv)` decides
// it before it sends anything. The two command lines that run against a deployment are in
// contract-inputs-checked.e2e.test.ts.

/** `videotask ARGS` in-process with no VIDEOTASK_* variable but `env`'s. */
const videotask = (args: string[], env: Record<string, string> = {}) => {
  const unset = Object.keys(process.env).filter((name) => name.startsWith('VIDEOTASK_'));
  return runMain(args, { ...Object.fromEntries(unset.map((name) => [name, undefined])), ...env });
};

describe('an --other-api-key the deployment refuses', () => {
  it('leaves the other-user cells unobserved, says so, and exits 2', async () => {
    const { report, service } = await checkInProcess({}, { otherApiKey: 'sk-nobody-0000-1111' });
    const other = report.coverage.cells.filter(
      (c) => c.caller === 'other' && !c.route.includes('Plugin'),
    );
    expect(other.length).toBeGreaterThan(0);
    for (const cell of other) {
      expect(cell.observed).toBe(false);
      expect(cell.reason).toBe('the other key was refused (HTTP 401 on GET /v1/models)');
    }
    for (const id of ['owner.status', 'owner.content']) {
      const result = report.results.find((r) => r.id === id)!;
      expect(result.outcome).toBe('skip');
      expect(result.skipped).toMatch(/the other key was refused/);
    }
    expect(report.inputErrors).toEqual([
      expect.stringMatching(/^--other-api-key sk-…1111 was refused by the deployment \(HTTP 401/),
    ]);
    const status = exitStatus(report);
    expect(status.code).toBe(2);
    expect(status.why).toMatch(/^the run's input is wrong: --other-api-key sk-…1111/);
    // The rest of the run still took place: its tasks were followed.
    expect(report.tasksCreated).toBe(2);
    expect(service.store.size).toBe(2);
  });

  it('is only a note under --tier free, which asks no ownership cell', async () => {
    const { report } = await checkInProcess(
      {},
      { otherApiKey: 'sk-nobody-0000-1111', tier: 'free' },
    );
    expect(report.inputErrors).toEqual([]);
    expect(report.notes).toContainEqual(
      expect.stringMatching(/--other-api-key sk-…1111 was refused/),
    );
    expect(exitStatus(report).code).toBe(0);
  });

  it('a valid second key is used as before', async () => {
    const { report } = await checkInProcess();
    expect(report.inputErrors).toEqual([]);
    expect(report.results.find((r) => r.id === 'owner.status')!.outcome).toBe('pass');
  });
});

describe('the same key as both users', () => {
  it('is refused before anything is sent', async () => {
    let sent = 0;
    const run = runContract(
      { ...BASE_TARGET, otherApiKey: ` ${BASE_TARGET.apiKey}` },
      { fetch: () => Promise.reject(new Error(`sent ${++sent}`)) },
    );
    await expect(run).rejects.toThrow(TargetError);
    await expect(run).rejects.toThrow(/--other-api-key is the same key as --api-key/);
    expect(sent).toBe(0);
  });

  it('is a usage error on the command line (exit 2)', async () => {
    const run = await videotask([
      'contract',
      '--api-key',
      'sk-mock-bob',
      '--other-api-key',
      'sk-mock-bob',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--other-api-key is the same key as --api-key/);
    expect(run.stdout).not.toMatch(/FAIL/);
  });
});

describe('a --model the catalog does not list', () => {
  it('stops before submitting anything, listing the catalog, as an input error', async () => {
    const { report, service } = await checkInProcess({}, { model: 'video-pro-v2' });
    expect(service.store.size).toBe(0);
    expect(report.tasksCreated).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.inputErrors).toEqual([
      '--model video-pro-v2 is not listed by GET /v1/models for this key (it lists ' +
        'video-pro-v1, video-lite-v1), so nothing was submitted. Check --model / VIDEOTASK_MODEL ' +
        "for a typo, or the key's group and permissions (§5).",
    ]);
    expect(report.results.find((r) => r.id === 'catalog.lists-model')!.outcome).toBe('skip');
    // No submission at all: not even the refusal probes, which a broken deployment could accept.
    const posts = report.coverage.cells.filter((c) => c.route.startsWith('create'));
    for (const cell of posts) expect(cell.observed).toBe(false);
    expect(exitStatus(report).code).toBe(2);
  });

  it('and a failing model likewise', async () => {
    const { report, service } = await checkInProcess({}, { failing: { model: 'vidoe-lite-v1' } });
    expect(service.store.size).toBe(0);
    expect(report.inputErrors).toEqual([
      expect.stringMatching(/^--failing-model vidoe-lite-v1 is not listed by GET \/v1\/models/),
    ]);
    expect(report.results.find((r) => r.id === 'catalog.lists-model')!.outcome).toBe('pass');
    expect(exitStatus(report).code).toBe(2);
  });
});

describe('a value from VIDEOTASK_BASE_URL', () => {
  it.each([
    [{ VIDEOTASK_BASE_URL: 'ftp://x' }, /VIDEOTASK_BASE_URL must be an http or https URL, got ftp/],
    [
      { VIDEOTASK_BASE_URL: 'http://127.0.0.1:9/v1' },
      /VIDEOTASK_BASE_URL "http:\/\/127\.0\.0\.1:9\/v1" ends in \/v1/,
    ],
  ])('is named as the variable in errors (%o)', async (env, message) => {
    for (const args of [
      ['contract', '--api-key', 'sk-x-123456789'],
      ['status', 'task_x', '--api-key', 'sk-x-123456789'],
    ]) {
      const run = await videotask(args, env);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toMatch(/--base-url/);
    }
  });

  it('and so are the other variables the suite reads', async () => {
    const noKey = await videotask(['contract'], { VIDEOTASK_BASE_URL: 'http://127.0.0.1:9' });
    expect(noKey.stderr).toMatch(
      /--api-key \(or VIDEOTASK_API_KEY\) is required with VIDEOTASK_BASE_URL/,
    );
    const tier = await videotask(['contract'], { VIDEOTASK_TIER: 'gold' });
    expect(tier.stderr).toMatch(/VIDEOTASK_TIER must be free or lifecycle, got "gold"/);
    const budget = await videotask(['contract'], { VIDEOTASK_BUDGET: 'two' });
    expect(budget.stderr).toMatch(/VIDEOTASK_BUDGET must be an integer, got "two"/);
    for (const run of [noKey, tier, budget]) expect(run.code).toBe(2);
    // A flag still names the flag.
    const flag = await videotask(['contract', '--budget', 'two']);
    expect(flag.stderr).toMatch(/--budget must be an integer, got "two"/);
  });
});
