// A real clock with a state file (decisions/012): the file holds a lease ahead of the clock, the clock
// never shows past what is on disk, and a restart (even from a copy taken mid-run: a kill -9) resumes at
// or after every instant an answer showed.
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { readStateFile } from '../../mocks/node/state-file/reader.ts';
import { stateFileServices } from '../helpers/state-file-services.ts';

const { dir, open, closedByTest } = stateFileServices('videotask-state-clock-');
afterEach(() => void vi.useRealTimers());
/** The highest clock position the file holds: where a restart resumes. */
const onDisk = (path: string) => readStateFile(path)!.clock;

it(
  'never shows a time past the lease on disk, and a copy taken at any ' +
    'moment resumes after what was shown',
  () => {
    // The real clock reads performance.now and the lease is renewed on an interval: both faked, so
    // the test moves real time 40 ms a step instead of sleeping (a unit test sleeps for no one), and
    // every renewal due runs as it passes.
    vi.useFakeTimers({ toFake: ['performance', 'setInterval', 'clearInterval'] });
    const path = join(dir, 'lease.state');
    const a = open(path, {
      clock: { mode: 'real', speed: 1_000 },
      stateFile: { path, leaseMs: 100 },
    });
    const firstLease = onDisk(path);
    let shown = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < 12; i++) {
      shown = Math.max(shown, a.service.clock.now());
      expect(shown).toBeLessThanOrEqual(onDisk(path));
      vi.advanceTimersByTime(40);
    }
    // The lease was renewed as time passed: the clock went on past the first one.
    expect(shown).toBeGreaterThan(firstLease);
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
  closedByTest(a);
  expect(open(path, { clock: { mode: 'real' } }).service.clock.now()).toBe(8.64e15);
  const clocks = readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => (JSON.parse(line) as { clock?: number }).clock ?? 0);
  expect(Math.max(...clocks)).toBe(8.64e15);
});
