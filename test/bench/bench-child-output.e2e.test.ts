import { spawn } from 'node:child_process';
import { expect, it } from 'vitest';
import { outputOf } from '../../bench/lib/processes.ts';

// http-throughput --together ran three wrk at once and one "failed (exit 0)" with no output: the bench
// read wrk's output when the process exited, before its pipe was drained. A child's output is now
// read to the end of its pipes.
it('reads all a child wrote just before it exited', async () => {
  const size = 1 << 20; // far more than a pipe holds: most of it is still unread at the exit
  const child = spawn(
    process.execPath,
    ['-e', `process.stdout.write('x'.repeat(${size}) + '\\nWRK_JSON {}\\n')`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const { code, output } = await outputOf(child);
  expect(code).toBe(0);
  expect(output.length).toBe(size + '\nWRK_JSON {}\n'.length);
  expect(output).toMatch(/^WRK_JSON \{\}$/m);
});
