/**
 * 1,000,000 resident tasks: lookup by ID and submission must cost the same at 1k and at 1M tasks, and
 * memory must stay under 1 KB per task. Drives the service core in-process (the path both hosts call).
 * With `--state`, the service keeps a state file too, and the run ends with a compaction of it (the
 * longest the event loop waited meanwhile: how long the server paused) and a restart (time to read it).
 *
 *   node --expose-gc --import tsx bench/million-tasks.ts [--tasks 1000000] [--ops 20000] [--state]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DEFAULT_CACHE_SIZE } from '../mocks/core/task/task-lookup.ts';
import { createMockService } from '../mocks/index.ts';
import { BenchFlagError, benchFlags } from './lib/cli-flags.ts';
import { count } from './lib/cli-numbers.ts';
import { fixed, writeJson } from './lib/report.ts';

const usage = `Usage: node --expose-gc --import tsx bench/million-tasks.ts [options]
  --tasks N       resident tasks at the end (default 1000000)
  --ops N         operations measured per phase (default 20000)
  --state         keep a state file too; end with a compaction and a restart
  --out FILE      JSON results (default bench/results/million-tasks.json, -state.json with --state)`;
const values = benchFlags(
  { name: 'million-tasks', usage },
  {
    tasks: { type: 'string', default: '1000000' },
    ops: { type: 'string', default: '20000' },
    state: { type: 'boolean', default: false },
    // Its default depends on --state (below).
    out: { type: 'string' },
  },
);
const TOTAL = count('tasks', values.tasks);
const OPS = count('ops', values.ops);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined)
  throw new BenchFlagError(
    'it measures memory: run it as node --expose-gc --import tsx bench/million-tasks.ts',
  );

const stateDir = values.state ? mkdtempSync(join(tmpdir(), 'videotask-million-')) : undefined;
const stateFile = stateDir === undefined ? undefined : join(stateDir, 'mock.state');
const options = {
  clock: { mode: 'manual' as const, start: Date.UTC(2026, 10, 22) },
  seed: 'bench',
  secret: 'bench',
  stateFile,
};
const service = createMockService(options);
const encoder = new TextEncoder();
const submitBody = encoder.encode(
  JSON.stringify({
    model: 'video-pro-v1',
    prompt: 'a red kite over a green hill at dawn',
    metadata: { duration: 5 },
  }),
);
const headers = { authorization: 'Bearer sk-mock-alice', 'content-type': 'application/json' };
const ids: string[] = [];

function submit(): string {
  const response = service.handle({
    method: 'POST',
    path: '/v1/video/generations',
    query: '',
    headers,
    body: submitBody,
    origin: 'http://bench',
  });
  if (response.status !== 200) throw new Error(`submission answered ${response.status}`);
  return (JSON.parse(response.body as string) as { id: string }).id;
}

function lookup(id: string): void {
  const response = service.handle({
    method: 'GET',
    path: `/v1/videos/${id}`,
    query: '',
    headers,
    origin: 'http://bench',
  });
  if (response.status !== 200) throw new Error(`lookup answered ${response.status}`);
}

function heapMiB(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

/** µs per operation: the median of 5 rounds of OPS/5 operations each. */
function measure(op: () => void): number {
  const rounds: number[] = [];
  for (let r = 0; r < 5; r++) {
    const n = Math.floor(OPS / 5);
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) op();
    rounds.push(Number(process.hrtime.bigint() - t0) / 1000 / n);
  }
  return rounds.sort((a, b) => a - b)[2]!;
}

function fillTo(count: number): void {
  while (ids.length < count) ids.push(submit());
}

function phase(count: number) {
  fillTo(count);
  let i = 0;
  const lookupUs = measure(() => lookup(ids[(i = (i * 7919 + 1) % ids.length)]!));
  // Each ID once, oldest first: with more tasks than the cache of decoded IDs and the lookups made
  // together, none is in it (a full decode and check each).
  let next = 0;
  const uncachedUs =
    ids.length >= OPS + DEFAULT_CACHE_SIZE ? measure(() => lookup(ids[next++]!)) : Number.NaN;
  const submitUs = measure(() => void submit());
  return { tasks: count, lookupUs, uncachedUs, submitUs };
}

const base = heapMiB();
const small = phase(1_000);
const started = Date.now();
const middle = phase(Math.min(100_000, TOTAL));
fillTo(TOTAL);
const fillSeconds = (Date.now() - started) / 1000;
const heap = heapMiB();
const large = phase(TOTAL);
const bytesPerTask = ((heap - base) * 2 ** 20) / service.store.size;

/** The state file's compaction (the longest event-loop wait during it) and a restart on it. */
async function stateFigures() {
  if (service.stateFile === undefined) return undefined;
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const compactStarted = Date.now();
  await service.stateFile.compact();
  const compactSeconds = (Date.now() - compactStarted) / 1000;
  delay.disable();
  service.stateFile.close();
  const restartStarted = Date.now();
  const restarted = createMockService(options);
  const restartSeconds = (Date.now() - restartStarted) / 1000;
  restarted.stateFile?.close();
  rmSync(stateDir!, { recursive: true, force: true });
  return { compactSeconds, longestPauseMs: delay.max / 1e6, restartSeconds };
}

const state = await stateFigures();
const result = {
  benchmark: 'million-tasks',
  date: new Date().toISOString(),
  node: process.version,
  tasks: service.store.size,
  fillSeconds,
  heapMiB: { before: Math.round(base), after: Math.round(heap) },
  bytesPerTask: Math.round(bytesPerTask),
  at1k: small,
  at100k: middle,
  at1M: large,
  ratios: {
    lookup: large.lookupUs / small.lookupUs,
    submit: large.submitUs / small.submitUs,
    lookup100kTo1M: large.lookupUs / middle.lookupUs,
    submit100kTo1M: large.submitUs / middle.submitUs,
  },
  targets: { bytesPerTaskAtMost: 1024, met: bytesPerTask <= 1024 },
  ...(state === undefined ? {} : { stateFile: state }),
};
// With --state and no --out, the figures go beside the plain run's, not over them.
const out =
  values.out ??
  (values.state ? 'bench/results/million-tasks-state.json' : 'bench/results/million-tasks.json');
writeJson(pathToFileURL(resolve(out)), result);
console.log(
  `tasks resident        ${result.tasks.toLocaleString('en')} (filled in ${fillSeconds.toFixed(1)} s)`,
);
console.log(`memory                ${result.bytesPerTask} bytes per task (target ≤ 1024)`);
const row = (name: string, key: 'lookupUs' | 'uncachedUs' | 'submitUs') =>
  console.log(
    `${name.padEnd(22)}${fixed(small[key], 2)} µs at 1k, ` +
      `${fixed(middle[key], 2)} µs at 100k, ${fixed(large[key], 2)} µs at ` +
      `${(TOTAL / 1e6).toFixed(1)}M (1M/1k ` +
      `×${fixed(large[key] / small[key], 2)}, 1M/100k ` +
      `×${fixed(large[key] / middle[key], 2)})`,
  );
row('lookup GET /v1/videos', 'lookupUs');
row('  of an uncached ID', 'uncachedUs');
row('submission', 'submitUs');
if (state !== undefined)
  console.log(
    `state file            compaction ${state.compactSeconds.toFixed(1)} s, ` +
      `longest pause meanwhile ${state.longestPauseMs.toFixed(0)} ms; restart ` +
      `${state.restartSeconds.toFixed(1)} s`,
  );
