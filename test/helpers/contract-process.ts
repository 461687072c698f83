import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { videotaskCli } from './built-cli.ts';
import type { CliRun } from './cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs `videotask contract ARGS` as a child process, calling `onLine` with each line it prints on
 * stderr (its progress: `  … task_… queued 0%`) and the process's pid, as the lines come; resolves with
 * its output and exit code (99 when killed at `timeoutMs`).
 */
export function runContractWatching(
  args: readonly string[],
  onLine: (line: string, pid: number) => void,
  timeoutMs = 60_000,
): Promise<CliRun> {
  const child = spawn(process.execPath, [videotaskCli(), 'contract', ...args], {
    cwd: ROOT,
  });
  let stdout = '';
  let stderr = '';
  let partial = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    for (const line of lines) onLine(line, child.pid!);
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 99, stdout, stderr });
    }),
  );
}

/**
 * For a mock on a manual clock (`videotask mock --clock manual`): a line watcher that moves the clock
 * on by ten simulated minutes once the suite has printed `queued` for `tasks` tasks. The suite prints a
 * state after that state's probes ran, so each task's queued state is probed however long the machine
 * takes, and every task completes after the move. Resolves `moved` with the control API's status.
 */
export function holdQueued(
  mockUrl: string,
  tasks: number,
): { onLine: (line: string) => void; moved: Promise<number> } {
  let queued = 0;
  let move: (status: number) => void = () => {};
  const moved = new Promise<number>((resolve) => (move = resolve));
  const onLine = (line: string) => {
    if (!/^ {2}… task_\w+ queued 0%$/.test(line) || ++queued !== tasks) return;
    void fetch(`${mockUrl}/__mock/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ms: 10 * 60_000 }),
    }).then((answer) => move(answer.status));
  };
  return { onLine, moved };
}
