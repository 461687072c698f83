import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';

// `million-tasks --state` wrote its figures beside the plain run's (`-state.json`) by comparing
// `--out` with the default's text, so an `--out bench/results/million-tasks.json` the user gave was
// ignored. `--out` now has no default of its own there: a path given is the path written.
const BENCH = fileURLToPath(new URL('../../bench/million-tasks.ts', import.meta.url));
const TSX = pathToFileURL(fileURLToPath(import.meta.resolve('tsx'))).href;
const cwd = mkdtempSync(join(tmpdir(), 'videotask-million-out-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function run(args: string[]): Promise<number> {
  const argv = ['--expose-gc', '--import', TSX, BENCH, '--tasks', '2000', '--ops', '200', ...args];
  return new Promise((resolve) => {
    execFile(process.execPath, argv, { cwd, timeout: 120_000 }, (error) =>
      resolve(typeof error?.code === 'number' ? error.code : error === null ? 0 : 1),
    );
  });
}

const written = (name: string) => join(cwd, 'bench', 'results', name);

it('with --state, an --out the user gave is where the figures go, whatever its name', async () => {
  expect(await run(['--state', '--out', 'bench/results/million-tasks.json'])).toBe(0);
  const figures = JSON.parse(readFileSync(written('million-tasks.json'), 'utf8')) as object;
  expect(figures).toHaveProperty('stateFile');
  expect(existsSync(written('million-tasks-state.json'))).toBe(false);
}, 150_000);

it('with --state and no --out, the figures go beside the plain run’s', async () => {
  expect(await run(['--state'])).toBe(0);
  expect(existsSync(written('million-tasks-state.json'))).toBe(true);
}, 150_000);
