// Issue 14 item 6: one 100 MB line took 8.4 s and 565 MB to load (a Buffer.concat per 1 MiB chunk:
// quadratic), and a ~540 MB one would throw ERR_STRING_TOO_LONG as a stack trace. Reading is linear
// now, and a line longer than any state file line is refused with the file, the line and the limit.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { StateFileError } from '../../mocks/node/state-file/format.ts';
import { readStateFile } from '../../mocks/node/state-file/reader.ts';
import { cpuMs } from '../helpers/cpu-time.ts';
import { stateFileHeader } from '../helpers/state-file-services.ts';

const dir = mkdtempSync(join(tmpdir(), 'videotask-long-line-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEADER = JSON.stringify(stateFileHeader());

it('refuses a line over 64 MiB with a clear error, quickly (CPU time: load does not stretch it)', () => {
  const path = join(dir, 'huge.state');
  writeFileSync(path, `${HEADER}\n{"requestId":["${'x'.repeat(70 * 2 ** 20)}",1]}\n`);
  const spent = cpuMs(() => {
    expect(() => readStateFile(path)).toThrow(StateFileError);
    expect(() => readStateFile(path)).toThrow(`state file ${path}, line 2: longer than 64 MiB`);
  });
  expect(spent).toBeLessThan(10_000);
});

it('reads a long line in time linear in its size', () => {
  const path = join(dir, 'long.state');
  // A scenario argument kept verbatim (a task's extras): request IDs are bounded (issue 24 item 10).
  const task = `task_${'a'.repeat(32)}`;
  const arg = 'r'.repeat(48 * 2 ** 20);
  writeFileSync(path, `${HEADER}\n{"extras":["${task}",{"arg":"${arg}"}]}\n{"clock":5}\n`);
  let restored: ReturnType<typeof readStateFile>;
  expect(cpuMs(() => (restored = readStateFile(path)))).toBeLessThan(10_000);
  expect(restored!.shared.extras.get(task)?.arg).toBe(arg);
  expect(restored!.clock).toBe(5);
});
