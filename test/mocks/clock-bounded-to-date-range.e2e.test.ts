// Issue 14 item 4: POST /__mock/clock/advance capped each call but not the total, so 27,500 calls
// pushed the clock past the Date range (8.64e15 ms); with --state, every later start then died with
// `RangeError: Invalid time value` (and appended to the file each time). A hand-edited clock did the same.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { coreClient } from '../helpers/core-client.ts';
import { exitCode, killMockProcesses, spawnMock } from '../helpers/mock-process.ts';
import { stateFileHeader } from '../helpers/state-file-services.ts';

const BOUND = 8.64e15;
const TEN_YEARS = 10 * 365 * 24 * 3_600_000;
const dir = mkdtempSync(join(tmpdir(), 'videotask-clock-bound-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(killMockProcesses);

it('refuses an advance past the Date range with a 400 naming the bound, and the clock stays', () => {
  const { call, service } = coreClient({ clock: { mode: 'manual', start: BOUND - TEN_YEARS - 5 } });
  expect(call('POST', '/__mock/clock/advance', { key: null, body: { ms: TEN_YEARS } }).status).toBe(
    200,
  );
  const refused = call('POST', '/__mock/clock/advance', { key: null, body: { ms: 10 } });
  expect(refused.status).toBe(400);
  expect(refused.body).toMatchObject({ error: { code: 'invalid_request' } });
  expect(JSON.stringify(refused.body)).toContain('8640000000000000');
  expect(service.clock.now()).toBe(BOUND - 5);
  expect(() => service.clock.advance(10)).toThrow(/8640000000000000/);
});

it('restarts on a file whose clock reached the bound, and still serves', () => {
  const path = join(dir, 'edge.state');
  const a = coreClient({ clock: { mode: 'manual', start: BOUND - 1000 }, stateFile: path });
  a.call('POST', '/__mock/clock/advance', { key: null, body: { ms: 1000 } });
  a.service.stateFile!.close();
  const b = coreClient({ clock: { mode: 'manual' }, stateFile: path });
  expect(b.service.clock.now()).toBe(BOUND);
  expect(b.call('GET', `/v1/videos/${b.submit()}`).status).toBe(200);
  b.service.stateFile!.close();
});

it('exits 2 naming the file and line of a clock past the bound, and writes nothing', async () => {
  const path = join(dir, 'edited.state');
  const header = stateFileHeader();
  for (const [text, line] of [
    [`${JSON.stringify({ ...header, clock: 1e308 })}\n`, 1],
    [`${JSON.stringify(header)}\n{"clock":8.67e15}\n`, 2],
  ] as const) {
    writeFileSync(path, text);
    const mock = spawnMock('--state', path, '--port', '0');
    expect(await exitCode(mock, 15_000)).toBe(2);
    expect(mock.stderr()).toContain(
      `state file ${path}, line ${line}: clock must be within ±8640000000000000 ms`,
    );
    expect(mock.stderr()).not.toMatch(/RangeError|\n\s+at /);
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(existsSync(`${path}.lock`)).toBe(false);
  }
});
