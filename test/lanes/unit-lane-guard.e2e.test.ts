import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The guard in a real vitest run: a throwaway project whose only setup file is the unit lane's guard,
// with a test that swallows the refused spawn, a file that starts a server while it is imported, and a
// test that does neither.
const VITEST = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));
const GUARD = fileURLToPath(new URL('./unit-lane-guard.ts', import.meta.url));

const FILES: Record<string, string> = {
  'vitest.config.mjs':
    "export default { test: { include: ['*.test.ts'], globals: true, " +
    `setupFiles: [${JSON.stringify(GUARD)}] } };\n`,
  'swallows.test.ts': `import { spawnSync } from 'node:child_process';
it('swallows a refused spawn', () => { try { spawnSync('git', ['status']); } catch {} });
it('does nothing', () => {});\n`,
  'serves.test.ts': `import { createServer } from 'node:http';
try { createServer().listen(0); } catch {}
it('passes by itself', () => {});\n`,
  'clean.test.ts': `it('adds', () => { if (1 + 1 !== 2) throw new Error('no'); });\n`,
};

interface Report {
  testResults: {
    name: string;
    status: string;
    message: string;
    assertionResults: { title: string; status: string; failureMessages: string[] }[];
  }[];
}

let dir = '';
let report: Report;
let output = '';
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'videotask-lane-'));
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
  const out = join(dir, 'report.json');
  const run = await new Promise<string>((resolve) => {
    const args = [VITEST, 'run', '--root', dir, '--reporter=json', `--outputFile=${out}`];
    execFile(process.execPath, args, { cwd: dir, timeout: 60_000 }, (_error, stdout, stderr) =>
      resolve(stdout + stderr),
    );
  });
  report = JSON.parse(readFileSync(out, 'utf8')) as Report;
  // Every failure message the run reported, with what it printed.
  output = [
    run,
    ...report.testResults.flatMap((r) => [
      r.message,
      ...r.assertionResults.flatMap((a) => a.failureMessages),
    ]),
  ].join('\n');
}, 70_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string) => report.testResults.find((r) => r.name.endsWith(name))!;
const statuses = (name: string) =>
  Object.fromEntries(file(name).assertionResults.map((a) => [a.title, a.status]));

describe('the unit lane guard in a vitest run', () => {
  it('fails the test that swallowed a refused spawn, and only that one', () => {
    expect(statuses('swallows.test.ts'), output).toEqual({
      'swallows a refused spawn': 'failed',
      'does nothing': 'passed',
    });
    expect(output).toMatch(
      /unit lane: .*swallows\.test\.ts called child_process\.spawnSync\(git\)/,
    );
    expect(output).toContain('name its file *.e2e.test.ts');
  });

  it('fails a file that started a server while it was imported', () => {
    expect(file('serves.test.ts').status, output).toBe('failed');
    expect(output).toMatch(/unit lane: .*serves\.test\.ts called Server\.listen\(\)/);
  });

  it('passes a file that starts nothing', () => {
    expect(statuses('clean.test.ts')).toEqual({ adds: 'passed' });
  });
});
