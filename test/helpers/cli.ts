import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { videotaskCli } from './built-cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the real `videotask` CLI (bundled from the sources: test/helpers/built-cli.ts) as a child
 * process and collects its output and exit code (99 when it was killed). `env` is the whole environment
 * the process gets; `cwd` defaults to the project root.
 */
export function runVideotask(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [videotaskCli(), ...args],
      {
        cwd: options.cwd ?? ROOT,
        env: options.env ?? process.env,
        timeout: options.timeoutMs ?? 30_000,
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

/**
 * Starts the real `videotask` CLI and stops it with `signal` once `ready` holds for its standard error
 * so far (or it exited first): its exit code (null when the signal killed it) and standard error.
 */
export async function stopVideotask(
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; ready: (stderr: string) => boolean; signal: NodeJS.Signals },
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [videotaskCli(), ...args], {
    cwd: ROOT,
    env: options.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let ready = false;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      // Asked until it holds once: what it saw then is what the caller checks.
      if (!ready && (ready = options.ready(stderr))) resolve();
    });
  });
  child.kill(options.signal);
  const code = await exited;
  return { code, stderr };
}

/** A port on 127.0.0.1 that was free a moment ago: nothing listens there (connections are refused). */
export function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
