import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { videotaskCli } from '../../helpers/built-cli.ts';
import { eventually } from '../../helpers/eventually.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** A real process a test started, and what it printed so far. */
export interface Started {
  readonly child: ChildProcess;
  /** The URL its ready line named. */
  readonly url: string;
  output(): string;
  readonly exited: Promise<number | null>;
  /** Sends SIGTERM (or `signal`) and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const running = new Set<ChildProcess>();

/** Ends every process a test file started and left running (afterAll). */
export function stopAll(): void {
  for (const child of running) child.kill('SIGKILL');
}

/**
 * Starts `node ARGS…` in the repository (with `env` added to this process's environment) and waits
 * for `ready` (its first group: a URL) on stdout.
 */
export async function start(
  args: readonly string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv = {},
): Promise<Started> {
  const child = spawn(process.execPath, [...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  let code: number | null | undefined;
  void exited.then((c) => (code = c));
  await eventually(
    () => {
      if (code !== undefined) throw new Error(`${args.join(' ')} exited with ${code}:\n${out}`);
      return ready.test(out);
    },
    `${args.join(' ')} to print ${ready}:\n${out}`,
  );
  return {
    child,
    url: ready.exec(out)![1]!,
    output: () => out,
    exited,
    stop: (signal = 'SIGTERM') => {
      child.kill(signal);
      return exited;
    },
  };
}

/** `videotask mock ARGS…` */
export const startMock = (...args: string[]) =>
  start([videotaskCli(), 'mock', '--port', '0', ...args], /listening on (http:\/\/\S+)/);

/** `videotask proxy ARGS…` */
export const startProxyProcess = (...args: string[]) =>
  start(
    [videotaskCli(), 'proxy', '--port', '0', ...args],
    /videotask proxy listening on (http:\/\/\S+)/,
  );

/** The small deployment written for these tests (small-deployment.ts), at base path `base`. */
export const startSmallDeployment = (base: string) =>
  start(
    ['--import', 'tsx', 'test/proxy/support/small-deployment.ts', '--base', base],
    /small deployment listening on (http:\/\/\S+)/,
  );
