import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { shellEnv } from '../helpers/shell-env.ts';

/**
 * CI's Node 22/24 run once ran `npm test` inside `npx -p node@22 -c "…"`. npm exports the `-c` call as
 * npm_config_call, so every `npx` a test spawned (vitest, `npx videotask mock` in a consumer project)
 * ran that call instead of its own arguments: EUSAGE, or a mock that was never started. Tests spawn
 * npm and npx with shellEnv(), which drops npm's variables, and the script no longer runs under -c.
 */
describe('a child npx under an npm that exported its own call', () => {
  const saved = process.env.npm_config_call;
  afterEach(() => {
    if (saved === undefined) delete process.env.npm_config_call;
    else process.env.npm_config_call = saved;
  });

  it('runs its own command with shellEnv()', () => {
    process.env.npm_config_call = 'echo LEAKED-CALL';
    const leaked = spawnSync('npx', ['vitest', '--version'], { encoding: 'utf8' });
    expect(`${leaked.stdout}${leaked.stderr}`).toMatch(/LEAKED-CALL|EUSAGE/);
    const clean = spawnSync('npx', ['vitest', '--version'], { encoding: 'utf8', env: shellEnv() });
    expect(clean.status, clean.stderr).toBe(0);
    expect(clean.stdout).toMatch(/vitest\/\d+\.\d+/);
    expect(clean.stdout).not.toMatch(/LEAKED-CALL/);
  }, 60_000);

  it('scripts/test-node-versions.sh runs the tests outside `npx -c`', async () => {
    const { readFileSync } = await import('node:fs');
    const script = readFileSync('scripts/test-node-versions.sh', 'utf8');
    const testLines = script
      .split('\n')
      .filter((line) => /npm test|vitest run/.test(line) && !/^\s*#/.test(line));
    expect(testLines.length).toBeGreaterThan(0);
    for (const line of testLines) expect(line).not.toMatch(/npx\b.*-c\b/);
  });
});
