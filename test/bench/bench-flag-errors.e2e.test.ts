import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// A benchmark given a wrong flag printed node's stack trace (parseArgs's error, or a number check
// thrown at the top level). Every bench now tells it in one line, with what to do next, and exits 2.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function bench(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', ...args],
      { cwd: ROOT, timeout: 60_000 },
      (error, _stdout, stderr) => {
        resolve({ code: typeof error?.code === 'number' ? error.code : 0, stderr });
      },
    );
  });
}

it.each([
  [['bench/hot-path.ts', '--rounds', 'many'], /--rounds wants a positive integer, got "many"/],
  [['bench/million-tasks.ts', '--bogus'], /Unknown option '--bogus'/],
  [['bench/contract-suite.ts', '--runs', '0'], /--runs wants a positive integer, got "0"/],
])('%j: one line naming the flag, exit 2, no stack', async (args, message) => {
  const { code, stderr } = await bench(args);
  expect(code).toBe(2);
  expect(stderr).toMatch(message);
  expect(stderr).toMatch(/\(--help lists its flags\)\n$/);
  expect(stderr).not.toMatch(/\n\s+at /);
});
