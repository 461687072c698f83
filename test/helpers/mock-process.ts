import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { videotaskCli } from './built-cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const LISTENING = /videotask mock listening on (http:\/\/\S+)/;

/** A real `videotask mock` process, as a black-box test drives it. */
export interface MockProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
}

const running = new Set<MockProcess>();

/**
 * Starts `videotask mock ARGS…` (the CLI bundled from the sources: test/helpers/built-cli.ts);
 * `killMockProcesses()` in afterEach ends what is left.
 */
export function spawnMock(...args: string[]): MockProcess {
  return spawnMockWithEnv(process.env, ...args);
}

/** The same, with `env` as the process's whole environment. */
export function spawnMockWithEnv(env: NodeJS.ProcessEnv, ...args: string[]): MockProcess {
  const child = spawn(process.execPath, [videotaskCli(), 'mock', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const handle: MockProcess = { child, stdout: () => out, stderr: () => err, exited };
  running.add(handle);
  void exited.then(() => running.delete(handle));
  return handle;
}

export function killMockProcesses(): void {
  killMockProcessesBut([]);
}

/** Kills every mock process started here but those in `kept` (one a file shares across its tests). */
export function killMockProcessesBut(kept: readonly MockProcess[]): void {
  for (const handle of running) if (!kept.includes(handle)) handle.child.kill('SIGKILL');
}

/**
 * Waits for the listening line and for the banner line matching `until` (so what the test reads of the
 * banner is complete); returns the base URL. Fails with the output if the process exits first.
 */
export async function listening(
  handle: MockProcess,
  until: RegExp,
  timeoutMs = 15_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void handle.exited.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    const match = LISTENING.exec(handle.stdout());
    if (match !== null && until.test(handle.stdout())) return match[1]!;
    if (exitCode !== undefined)
      throw new Error(
        `exited with ${exitCode} before listening:\n${handle.stdout()}${handle.stderr()}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(
    `no start-up lines within ${timeoutMs} ms:\n${handle.stdout()}${handle.stderr()}`,
  );
}

/** The exit code, or a failure if the process has not exited within `timeoutMs`. */
export async function exitCode(handle: MockProcess, timeoutMs: number): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(`still running after ${timeoutMs} ms:\n${handle.stdout()}${handle.stderr()}`),
        ),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([handle.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
