// Issue 14 item 6: a kill -9 during a compaction left `.FILE.PID.tmp` files behind forever. A start
// (which holds the file's lock, so no live compaction can own one) now removes them.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { coreClient } from '../helpers/core-client.ts';

const dir = mkdtempSync(join(tmpdir(), 'videotask-leftovers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('removes the temp files of killed compactions when it starts, and nothing else', () => {
  const path = join(dir, 'mock.state');
  const first = coreClient({ stateFile: path });
  const id = first.submit();
  first.service.stateFile!.close();
  const leftovers = ['.mock.state.4242.tmp', '.mock.state.77.tmp'].map((n) => join(dir, n));
  const kept = ['.mock.state.tmp', '.other.state.4242.tmp', 'mock.state.4242.tmp'].map((n) =>
    join(dir, n),
  );
  for (const file of [...leftovers, ...kept]) writeFileSync(file, '{"half":');
  const second = coreClient({ stateFile: path });
  expect(leftovers.filter(existsSync)).toEqual([]);
  expect(kept.filter(existsSync)).toEqual(kept);
  expect(second.call('GET', `/v1/videos/${id}`).status).toBe(200);
  second.service.stateFile!.close();
});
