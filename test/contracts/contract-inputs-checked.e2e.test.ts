import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runVideotask, type CliRun } from '../helpers/cli.ts';
import { verifyFamily, verifyFamilyFixture } from '../helpers/verify-family.ts';

// Issue 22, "the suite checks its own inputs": a wrong input is exit 2, never a verdict. Before:
// an --other-api-key the deployment refuses made every §5 ownership cell "observed" and PASS (its
// probes were refused like any invalid key's) and the run exited 0; the same key twice read as a §5
// failure; a --model typo spent the budget on refused submissions and failed catalog.lists-model
// (exit 1); verify-family recorded a typo as a failed rollout step; and a bad VIDEOTASK_BASE_URL was
// reported as "--base-url …", a flag the user never typed.
//
// The runs that meet a deployment, as processes; what is decided in-process (the contract runs against
// the bundled service, a flag or variable refused): contract-inputs-checked.test.ts.

const videotask = (args: string[], env: Record<string, string> = {}): Promise<CliRun> => {
  const clean = { ...process.env };
  for (const name of Object.keys(clean)) if (name.startsWith('VIDEOTASK_')) delete clean[name];
  return runVideotask(args, { env: { ...clean, ...env }, timeoutMs: 60_000 });
};

describe('a --model the catalog does not list', () => {
  it('exits 2 on the command line, naming the catalog’s models', async () => {
    const run = await videotask(['contract', '--model', 'video-pro-v2']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "videotask contract: the run's input is wrong: --model video-pro-v2 is not listed by " +
        'GET /v1/models for this key (it lists video-pro-v1, video-lite-v1)',
    );
    expect(run.stdout).toMatch(/^input error {2}--model video-pro-v2/m);
    expect(run.stdout).toMatch(/0 task\(s\) created/);
  });
});

describe('verify-family --model', () => {
  const { mock, freshDir } = verifyFamilyFixture();

  it('a typo (neither listed nor a second-family ID) exits 2 before submitting or recording', async () => {
    const server = await mock({ familyBound: true });
    const cwd = freshDir('typo');
    const run = await verifyFamily(server.url, 'sk-mock-vip', ['--model', 'alt-vdeo-v2'], cwd);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /--model alt-vdeo-v2 is neither listed by \/v1\/models for this key nor a second-family model ID/,
    );
    expect(run.stderr).toMatch(/the catalog lists video-pro-v1, video-lite-v1, alt-video-v2/);
    expect(server.service.store.size).toBe(0);
    const records = join(cwd, 'verification-records');
    expect(existsSync(records) ? readdirSync(records) : []).toEqual([]);
  });
});
