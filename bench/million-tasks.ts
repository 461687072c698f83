/**
 * 1,000,000 resident tasks: lookup by ID and submission must cost the same at 1k and at 1M tasks, and
 * memory must stay under 1 KB per task. Drives the service core in-process (the path both hosts call).
 *
 *   node --expose-gc --import tsx bench/million-tasks.ts [--tasks 1000000] [--ops 20000]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createMockService } from '../mocks/index.ts';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: '1000000' },
    ops: { type: 'string', default: '20000' },
  },
});
const TOTAL = Number(values.tasks);
const OPS = Number(values.ops);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined)
  throw new Error('Run with node --expose-gc --import tsx bench/million-tasks.ts');

const service = createMockService({
  clock: { mode: 'manual', start: Date.UTC(2026, 10, 22) },
  seed: 'bench',
});
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
  const submitUs = measure(() => void submit());
  return { tasks: count, lookupUs, submitUs };
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
};
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(
  new URL('./results/million-tasks.json', import.meta.url),
  `${JSON.stringify(result, null, 2)}\n`,
);
console.log(
  `tasks resident        ${result.tasks.toLocaleString('en')} (filled in ${fillSeconds.toFixed(1)} s)`,
);
console.log(`memory                ${result.bytesPerTask} bytes per task (target ≤ 1024)`);
const row = (name: string, key: 'lookupUs' | 'submitUs') =>
  console.log(
    `${name.padEnd(22)}${small[key].toFixed(2)} µs at 1k, ${middle[key].toFixed(2)} µs at 100k, ${large[key].toFixed(2)} µs at ${(TOTAL / 1e6).toFixed(1)}M (1M/1k ×${(large[key] / small[key]).toFixed(2)}, 1M/100k ×${(large[key] / middle[key]).toFixed(2)})`,
  );
row('lookup GET /v1/videos', 'lookupUs');
row('submission', 'submitUs');
