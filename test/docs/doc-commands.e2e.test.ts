import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  LISTENING,
  listening,
  spawnMockWithEnv,
  type MockProcess,
} from '../helpers/mock-process.ts';
import { blocksOf, docFiles, localized, npmStartFlags, ROOT, type Block } from './doc-blocks.ts';

/**
 * Every block of README.md and docs/*.md marked runnable, run for real against this checkout (the
 * convention: docs/architecture.md, "Docs that cannot drift"). Each block runs in its own temporary
 * folder against the mock `npm start` runs, on `--port 0` (or with the flags of a
 * `<!-- doc-test: mock … -->` comment instead; blocks asking for the same flags share one); `npx videotask`
 * runs the CLI bundled from the sources (test/helpers/built-cli.ts), and the documented address
 * http://127.0.0.1:4010 becomes the mock's.
 */
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
/** Where tsx finds msw and the other packages a TypeScript block imports. */
const TS_DIR = join(ROOT, 'node_modules', '.cache', 'videotask-doc-test');
/** The mock a block gets unless a `<!-- doc-test: mock FLAGS -->` comment names other flags. */
const DEFAULT_MOCK_FLAGS = npmStartFlags();
/** A block runs for seconds; a loaded machine gets room, a hang still fails. */
const BLOCK_TIMEOUT_MS = 50_000;

const RUNNABLE = docFiles()
  .flatMap(blocksOf)
  .filter((b) => b.marker === 'runnable');
const folders: string[] = [];
const mocks = new Map<string, { process: MockProcess; url: Promise<string> }>();
afterAll(async () => {
  for (const { process } of mocks.values()) process.child.kill('SIGTERM');
  await Promise.all([...mocks.values()].map(({ process }) => process.exited));
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** The address of the mock started with these flags (started on first use). */
function mockFor(flags: readonly string[]): Promise<string> {
  const key = flags.join(' ');
  let mock = mocks.get(key);
  if (mock === undefined) {
    const chosen = flags.length > 0 ? flags : DEFAULT_MOCK_FLAGS;
    const started = spawnMockWithEnv(cleanEnv({}), '--port', '0', ...chosen);
    mock = { process: started, url: listening(started, LISTENING, 30_000) };
    mocks.set(key, mock);
  }
  return mock.url;
}

/** The environment a reader's shell would have: no key or address left over from ours. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VIDEOTASK_')),
  );
  return { ...env, NO_COLOR: '1', ...extra };
}

interface Run {
  readonly code: number | string;
  readonly output: string;
  /** What a failure shows: the ends of both streams (the last command's verdict is at the end). */
  readonly ends: string;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, timeout: BLOCK_TIMEOUT_MS }, (error, stdout, stderr) => {
      const code = error === null ? 0 : (error.code ?? error.signal ?? 'killed');
      const ends = `stdout ends:\n${stdout.slice(-4000)}\nstderr ends:\n${stderr.slice(-2000)}`;
      resolve({ code, output: `${stdout}${stderr}`, ends });
    });
  });
}

/** What a TypeScript block says it prints: each `// → TEXT` comment. */
function promises(block: Block): string[] {
  if (block.lang !== 'ts') return [];
  return [...block.text.matchAll(/\/\/ → (.+?)(?: \(.*\))?$/gm)].map((m) => m[1] ?? '');
}

async function runBlock(block: Block, cwd: string, url: string): Promise<Run> {
  const env = cleanEnv({ VIDEOTASK_BASE_URL: url });
  const source = localized(block, url);
  if (block.lang === 'sh') return run('bash', ['-e', '-o', 'pipefail', '-c', source], cwd, env);
  mkdirSync(TS_DIR, { recursive: true });
  const folder = mkdtempSync(join(TS_DIR, 'run-'));
  folders.push(folder);
  const file = join(folder, `${block.where.replace(/\W/g, '-')}.mts`);
  writeFileSync(file, source);
  return run(TSX, [file], cwd, env);
}

describe.concurrent('runnable blocks of the docs', () => {
  it('finds them in README.md and docs/', () => {
    expect(RUNNABLE.filter((b) => b.file === 'README.md').length).toBeGreaterThanOrEqual(3);
    expect(RUNNABLE.every((b) => ['sh', 'ts'].includes(b.lang))).toBe(true);
  });

  it.each(RUNNABLE.map((b) => [b.where, b] as const))(
    '%s runs as written',
    async (_where, block) => {
      const cwd = mkdtempSync(join(tmpdir(), 'videotask-doc-'));
      folders.push(cwd);
      const result = await runBlock(block, cwd, await mockFor(block.mockFlags));
      expect(result.code, `${block.where} exited ${result.code}; ${result.ends}`).toBe(0);
      for (const promised of promises(block)) expect(result.output).toContain(promised);
    },
    BLOCK_TIMEOUT_MS + 30_000,
  );
});
