// `videotask mock` as a child process of a benchmark: spawned, tracked, and ready once it prints its
// listening line.
import { spawn, type ChildProcess } from 'node:child_process';
import { track } from './processes.ts';

const LISTENING = /videotask mock listening on (http:\/\/\S+)/;
/** How much of the child's output is kept for an error message. */
const KEPT_OUTPUT = 4000;
const LISTEN_TIMEOUT_MS = 30_000;

/**
 * Spawns `node bin/videotask.js mock ARGS…` in `rootDir` (tracked: killed if the benchmark ends first)
 * and resolves with its URL once it listens; rejects with its last output if it exits first or does
 * not listen within 30 s.
 */
export async function startMockChild(
  rootDir: string,
  args: readonly string[],
): Promise<{ child: ChildProcess; url: string }> {
  const child = track(
    spawn(process.execPath, ['bin/videotask.js', 'mock', ...args], {
      cwd: rootDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-KEPT_OUTPUT));
  child.stderr!.on('data', keep);
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the mock did not listen within 30 s:\n${output}`)),
      LISTEN_TIMEOUT_MS,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      keep(chunk);
      const match = LISTENING.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        resolveUrl(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the mock exited with ${code} before listening:\n${output}`));
    });
  });
  child.stdout!.resume();
  return { child, url };
}
