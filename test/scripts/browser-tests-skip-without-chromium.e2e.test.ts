import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shellEnv } from '../helpers/shell-env.ts';

/**
 * Issue 13: `npm test` must not fail on a developer's machine that cannot install chromium (not root, not
 * Debian): the browser tests skip there, saying why, and fail only in CI (`CI=true`). Before, the pretest
 * script exited 1 for anyone not root and the /docs test threw in `beforeAll`.
 */
const NOWHERE = '/nonexistent/chromium';

function run(command: string, args: string[], env: Record<string, string>) {
  const { CI: _ci, ...inherited } = shellEnv();
  const result = spawnSync(command, args, {
    env: { ...inherited, CHROMIUM_PATH: NOWHERE, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('browser tests without chromium', () => {
  it('pretest goes on for a user who cannot install it, and fails in CI', () => {
    // A copy the other user can read: the checkout itself may sit in a private folder (mktemp -d).
    const folder = mkdtempSync(join(tmpdir(), 'videotask-chromium-'));
    const script = join(folder, 'ensure-chromium.sh');
    copyFileSync('scripts/ensure-chromium.sh', script);
    chmodSync(folder, 0o755);
    chmodSync(script, 0o755);
    const asNobody = ['--reuid=65534', '--regid=65534', '--clear-groups', 'bash'];
    const local = run('setpriv', [...asNobody, script], {});
    expect(local.code, local.output).toBe(0);
    expect(local.output).toMatch(/browser tests will skip/);
    const ci = run('setpriv', [...asNobody, script], { CI: 'true' });
    expect(ci.code, ci.output).toBe(1);
    expect(ci.output).toMatch(/CI=true/);
    rmSync(folder, { recursive: true, force: true });
  });

  it('the /docs page test skips and says why, and fails in CI', () => {
    const vitest = ['vitest', 'run', 'test/docs/docs-page.e2e.test.ts'];
    const local = run('npx', vitest, {});
    expect(local.code, local.output).toBe(0);
    expect(local.output).toMatch(/skipping the browser tests: \/nonexistent\/chromium is missing/);
    expect(local.output).toMatch(/skipped/);
    const ci = run('npx', vitest, { CI: 'true' });
    expect(ci.code, ci.output).not.toBe(0);
    expect(ci.output).toMatch(/\/nonexistent\/chromium is missing/);
  }, 120_000);
});
