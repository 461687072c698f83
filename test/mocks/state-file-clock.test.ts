// A real clock with a state file (decisions/012): the file holds a lease ahead of the clock, the clock
// never shows past what is on disk, and a restart (even from a copy taken mid-run: a kill -9) resumes at
// or after every instant an answer showed.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { readStateFile } from '../../mocks/node/state-file.ts';
import { coreClient } from '../helpers/core-client.ts';

const dir = mkdtempSync(join(tmpdir(), 'videotask-state-clock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const services: { stateFile: { close(): void } | undefined }[] = [];
afterEach(() => {
  for (const s of services.splice(0)) s.stateFile?.close();
});
function open(path: string, options: Parameters<typeof coreClient>[0]) {
  const client = coreClient({ stateFile: path, ...options });
  services.push(client.service);
  return client;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The highest clock position the file holds: where a restart resumes. */
const onDisk = (path: string) => readStateFile(path)!.clock;

it(
  'never shows a time past the lease on disk, and a copy taken at any ' +
    'moment resumes after what was shown',
  async () => {
    const path = join(dir, 'lease.state');
    const a = open(path, {
      clock: { mode: 'real', speed: 1_000 },
      stateFile: { path, leaseMs: 100 },
    });
    let shown = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < 12; i++) {
      shown = Math.max(shown, a.service.clock.now());
      expect(shown).toBeLessThanOrEqual(onDisk(path));
      await sleep(40);
    }
    const copy = join(dir, 'lease-copy.state');
    copyFileSync(path, copy);
    expect(onDisk(copy)).toBeGreaterThanOrEqual(shown);
    const b = open(copy, { clock: { mode: 'real', speed: 1_000 } });
    expect(b.service.clock.now()).toBeGreaterThanOrEqual(shown);
  },
);

it('holds the clock at the lease while nothing renews it (a blocked event loop)', () => {
  const path = join(dir, 'held.state');
  const a = open(path, {
    clock: { mode: 'real', speed: 1_000 },
    stateFile: { path, leaseMs: 100 },
  });
  const lease = onDisk(path);
  const until = Date.now() + 300; // 300 s of simulated time at 1000×: far past the 100 s lease
  while (Date.now() < until) expect(a.service.clock.now()).toBeLessThanOrEqual(lease);
  expect(a.service.clock.now()).toBe(lease);
});

it('moves the lease with an advance before answering, so the advance survives a kill -9', () => {
  const path = join(dir, 'advance.state');
  const a = open(path, { clock: { mode: 'real', speed: 1 }, stateFile: { path, leaseMs: 1_000 } });
  const answer = a.call('POST', '/__mock/clock/advance', { key: null, body: { ms: 3_600_000 } });
  expect(answer.status).toBe(200);
  expect(onDisk(path)).toBeGreaterThanOrEqual((answer.body as { now: number }).now);
});

it('keeps the lease within the Date range near its end, so the file still starts', () => {
  const path = join(dir, 'end.state');
  const a = open(path, { clock: { mode: 'real', speed: 1, start: 8.64e15 - 100 } });
  expect(onDisk(path)).toBe(8.64e15);
  a.service.stateFile!.close();
  services.pop();
  expect(open(path, { clock: { mode: 'real' } }).service.clock.now()).toBe(8.64e15);
  const clocks = readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => (JSON.parse(line) as { clock?: number }).clock ?? 0);
  expect(Math.max(...clocks)).toBe(8.64e15);
});
