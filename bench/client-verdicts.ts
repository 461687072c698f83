/**
 * What judging the callers costs (docs/client-verdicts.md, decisions/019), in-process on the service
 * core (the path both hosts call), each figure against the same service with `clientVerdicts: false`
 * in the same run:
 *   - a status query (GET /v1/videos/{id}) by a client that polls far faster than §8 and past 60
 *     attempts, so that two rules are breached on every request: CPU µs per request, on and off
 *     interleaved, median of the rounds;
 *   - the same by a client that polls a running task every 6 s (flat: `poll-growth` counts every
 *     interval and is breached every 6th, `poll-attempts` on each): the interval rules' whole path;
 *   - memory with 1,000,000 tasks of one caller (each submitted, the same body: a resubmission verdict
 *     each time, and queried once): the heap the judge holds beyond the service's own;
 *   - memory with every caller at its window: 100 callers × 2,000 tasks each.
 *
 *   node --expose-gc --import tsx bench/client-verdicts.ts [--tasks 1000000] [--rounds 11]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMockService, type MockService } from '../mocks/index.ts';
import { BenchFlagError, benchFlags } from './lib/cli-flags.ts';
import { count } from './lib/cli-numbers.ts';
import { fixed, writeJson } from './lib/report.ts';

const usage = `Usage: node --expose-gc --import tsx bench/client-verdicts.ts [options]
  --tasks N       tasks of the one caller in the memory figure (default 1000000)
  --rounds N      interleaved rounds of the CPU figures (default 11)
  --out FILE      JSON results (default bench/results/client-verdicts.json)`;
const values = benchFlags(
  { name: 'client-verdicts', usage },
  {
    tasks: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '11' },
  },
);
const TASKS = count('tasks', values.tasks);
const ROUNDS = count('rounds', values.rounds);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined)
  throw new BenchFlagError(
    'it measures memory: run it as node --expose-gc --import tsx bench/client-verdicts.ts',
  );

const encoder = new TextEncoder();
const body = encoder.encode(JSON.stringify({ model: 'video-pro-v1', prompt: 'a red kite' }));
const stuck = encoder.encode(
  JSON.stringify({ model: 'video-pro-v1', prompt: 'a red kite [mock:stuck]' }),
);
const CALLERS = Array.from(
  { length: 100 },
  (_, i) => `sk-bench-caller-${String(i).padStart(3, '0')}`,
);
const tokens = CALLERS.map((key, i) => ({ key, user: `user${i}`, group: 'default' }));

function service(verdicts: boolean): MockService {
  return createMockService({
    clock: { mode: 'manual', start: Date.UTC(2026, 10, 22) },
    seed: 'bench',
    secret: 'bench',
    tokens,
    clientVerdicts: verdicts,
  });
}

function submit(s: MockService, key: string, payload = body): string {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const r = s.handle({
    method: 'POST',
    path: '/v1/videos',
    query: '',
    headers,
    body: payload,
    origin: 'http://b',
  });
  if (r.status !== 200) throw new Error(`submission answered ${r.status}`);
  return (JSON.parse(r.body as string) as { id: string }).id;
}

function query(s: MockService, key: string, id: string): void {
  // A fresh path and header string per request, as a host makes them.
  const headers = { authorization: `Bearer ${key}`.slice(0) };
  const r = s.handle({
    method: 'GET',
    path: `/v1/videos/${id}`,
    query: '',
    headers,
    origin: 'http://b',
  });
  if (r.status !== 200) throw new Error(`query answered ${r.status}`);
}

function heapMiB(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

/**
 * CPU µs per status query, verdicts on and off, interleaved rounds; `waitMs` of the manual clock
 * between queries (0: all at one instant), of a task that never finishes when there is a wait.
 */
function queryCost(waitMs: number) {
  const per = 100_000;
  const setups = [true, false].map((on) => {
    const s = service(on);
    const key = CALLERS[0]!;
    const id = submit(s, key, waitMs > 0 ? stuck : body);
    const run = () => {
      if (waitMs > 0) s.clock.advance(waitMs);
      query(s, key, id);
    };
    for (let i = 0; i < per; i++) run(); // warm up, and past 60 attempts
    return { on, run };
  });
  const samples: Record<'on' | 'off', number[]> = { on: [], off: [] };
  for (let round = 0; round < ROUNDS; round++)
    for (const { on, run } of round % 2 === 0 ? setups : [...setups].reverse()) {
      const before = process.cpuUsage();
      for (let i = 0; i < per; i++) run();
      const used = process.cpuUsage(before);
      samples[on ? 'on' : 'off'].push((used.user + used.system) / per);
    }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const onUs = median(samples.on);
  const offUs = median(samples.off);
  return { onUs, offUs, addedUs: onUs - offUs };
}

/** The heap a service holds after `traffic`, measured in a frame of its own (nothing left on the stack). */
function heapAfter(on: boolean, traffic: (s: MockService) => void): number {
  const base = heapMiB();
  const s = service(on);
  traffic(s);
  const grown = heapMiB() - base;
  const { counts, verdicts, limits } = s.clientReport(); // also keeps `s` alive while the heap is read
  if (on) {
    const left = { forgotten: limits.tasksForgotten, notListed: limits.verdictsNotListed };
    console.error(
      `  ${counts.callers} caller(s), ${verdicts.length} verdict entries, ${JSON.stringify(left)}`,
    );
  }
  return grown;
}

/**
 * Heap with verdicts on, less heap with them off, after the same traffic. Each is measured twice, in
 * turn, and the second is kept: the first run of a traffic also pays for what V8 learns running it.
 */
function memory(traffic: (s: MockService) => void) {
  const heaps: Record<'on' | 'off', number> = { on: 0, off: 0 };
  for (const on of [false, true, false, true]) heaps[on ? 'on' : 'off'] = heapAfter(on, traffic);
  return { heapOnMiB: heaps.on, heapOffMiB: heaps.off, judgeMiB: heaps.on - heaps.off };
}

const cost = queryCost(0);
console.log(
  `status query          ${fixed(cost.offUs, 2)} µs off, ${fixed(cost.onUs, 2)} µs on: ` +
    `+${fixed(cost.addedUs, 2)} µs per request (two rules breached on each)`,
);
const flat = queryCost(6_000);
console.log(
  `flat 6 s loop         ${fixed(flat.offUs, 2)} µs off, ${fixed(flat.onUs, 2)} µs on: ` +
    `+${fixed(flat.addedUs, 2)} µs per request (poll-growth every 6th, poll-attempts on each)`,
);
const oneCaller = memory((s) => {
  const key = CALLERS[0]!;
  for (let n = 0; n < TASKS; n++) query(s, key, submit(s, key));
});
console.log(
  `${(TASKS / 1e6).toFixed(1)}M tasks, 1 caller  judge ${fixed(oneCaller.judgeMiB, 1)} MiB ` +
    `(service ${fixed(oneCaller.heapOffMiB, 0)} MiB without it)`,
);
const allCallers = memory((s) => {
  for (const key of CALLERS) for (let n = 0; n < 2_000; n++) query(s, key, submit(s, key));
});
console.log(
  `100 callers × 2,000     judge ${fixed(allCallers.judgeMiB, 1)} MiB, ` +
    `${fixed((allCallers.judgeMiB * 2 ** 20) / CALLERS.length / 1024, 0)} KiB per caller at its window`,
);
const result = {
  benchmark: 'client-verdicts',
  date: new Date().toISOString(),
  node: process.version,
  statusQuery: cost,
  flatLoopQuery: flat,
  oneCaller: { tasks: TASKS, ...oneCaller },
  hundredCallers: { tasksEach: 2_000, ...allCallers },
};
writeJson(pathToFileURL(resolve(values.out)), result);
