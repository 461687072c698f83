/**
 * Runs a `videotask` command line in this process: `main(argv)` of cli/main.ts, the function the
 * `videotask` process runs (cli/run.ts sets its exit code to what `main` returns), with what it prints
 * collected. For what a command decides before it touches a network or a file (a flag's value refused
 * with exit 2, a help text), so a unit test checks it without starting a process; the e2e tests start
 * the real binary for what only a process shows (signals, exit on a closed pipe, a server's lifetime).
 */
import { format } from 'node:util';
import { vi } from 'vitest';
import { main } from '../../cli/main.ts';

export interface InProcessRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `main(argv)` with `env` set for its duration (a name mapped to undefined is removed) and console.log
 * and console.error collected as the process would print them, one line per call.
 */
export async function runMain(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): Promise<InProcessRun> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi
    .spyOn(console, 'log')
    .mockImplementation((...args) => void out.push(format(...args)));
  const error = vi
    .spyOn(console, 'error')
    .mockImplementation((...args) => void err.push(format(...args)));
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  try {
    const code = await main(argv);
    const text = (lines: string[]) => lines.map((line) => `${line}\n`).join('');
    return { code, stdout: text(out), stderr: text(err) };
  } finally {
    log.mockRestore();
    error.mockRestore();
    vi.unstubAllEnvs();
  }
}
