import { execFile } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shellEnv } from '../helpers/shell-env.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The consumer's own files (scripts, tsconfigs, tests, the browser page), copied into the project. */
const CONSUMER_FILES = fileURLToPath(new URL('./consumer', import.meta.url));
/** Tools a client team has installed; linked from this repository instead of installed again. */
const LINKED_TOOLS = ['typescript', 'vitest', 'jest'];

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface Tarball {
  readonly file: string;
  /** Bytes of the .tgz and of its files unpacked, and how many files it holds. */
  readonly size: number;
  readonly unpackedSize: number;
  readonly files: readonly string[];
  /** Each file's bytes, by its path in the tarball. */
  readonly fileSizes: ReadonlyMap<string, number>;
}

/** A throw-away project outside this repository that has installed the packed tarball. */
export interface ConsumerProject {
  readonly dir: string;
  readonly tarball: Tarball;
  /** What `npm install <tarball>` printed, into an empty project. */
  readonly installOutput: string;
  readonly timings: Readonly<Record<'pack' | 'install', number>>;
  run(command: string, args: readonly string[], options?: RunOptions): Promise<Run>;
  remove(): void;
}

interface RunOptions {
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

function run(command: string, args: readonly string[], options: RunOptions): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env: shellEnv(options.env),
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : 99,
          stdout,
          stderr,
        }),
    );
  });
}

async function must(step: string, result: Promise<Run>): Promise<Run> {
  const done = await result;
  if (done.code !== 0)
    throw new Error(`${step} exited ${done.code}:\n${done.stdout}\n${done.stderr}`);
  return done;
}

/** A devDependency's exact version, so the consumer installs what this repository tests with. */
function devVersion(name: string): string {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  return `${name}@${manifest.devDependencies[name]}`;
}

const NPM_QUIET = ['--no-audit', '--no-fund', '--prefer-offline'];

/**
 * `npm pack` (its `prepack` builds dist/ afresh from the sources), then a new project in a temporary
 * folder that installs the tarball alone (the output is kept: it must show no warning of ours), then
 * msw and @types/node (the consumer's own choices), then the consumer files of ./consumer.
 */
export async function createConsumerProject(): Promise<ConsumerProject> {
  const base = mkdtempSync(join(tmpdir(), 'videotask-package-'));
  const dir = join(base, 'app');
  const at = (cwd: string) => ({ cwd });
  let started = Date.now();
  const packed = await must(
    'npm pack',
    // Its prepack builds dist/ (70 s at a load average of 16 on the shared 2 cores): more than the
    // 120 s a step gets by default when the machine is busier still.
    run('npm', ['pack', '--json', '--pack-destination', base], { ...at(ROOT), timeoutMs: 300_000 }),
  );
  const [manifest] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as {
    filename: string;
    size: number;
    unpackedSize: number;
    files: { path: string; size: number }[];
  }[];
  const tarball: Tarball = {
    file: join(base, manifest!.filename),
    size: manifest!.size,
    unpackedSize: manifest!.unpackedSize,
    files: manifest!.files.map((f) => f.path),
    fileSizes: new Map(manifest!.files.map((f) => [f.path, f.size])),
  };
  const pack = Date.now() - started;
  started = Date.now();
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  const installed = await must(
    'npm install',
    run('npm', ['install', ...NPM_QUIET, tarball.file], at(dir)),
  );
  const own = ['msw', '@types/node'].map(devVersion);
  await must('npm install msw', run('npm', ['install', ...NPM_QUIET, ...own], at(dir)));
  for (const tool of LINKED_TOOLS)
    symlinkSync(join(ROOT, 'node_modules', tool), join(dir, 'node_modules', tool), 'dir');
  cpSync(CONSUMER_FILES, dir, { recursive: true });
  return {
    dir,
    tarball,
    installOutput: `${installed.stdout}${installed.stderr}`,
    timings: { pack, install: Date.now() - started },
    run: (command, args, options = {}) => run(command, args, { cwd: dir, ...options }),
    remove: () => rmSync(base, { recursive: true, force: true }),
  };
}
