// What a task lookup costs in @mswjs/data 0.16.2 (a candidate store for the mock) against a plain Map:
// findFirst by the primary key, findFirst by an equals filter on a string field, Map.get by id, and
// (for scale) a plain Array.find on the string field, at 1k, 10k and 100k records.
//
//   npx tsx bench/msw-data.ts [--sizes 1000,10000,100000] [--budget-ms 300] [--batches 3]
//                             [--out bench/results/msw-data.json]
import { factory, primaryKey } from '@mswjs/data';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { cpus } from 'node:os';
import { busyCores, cpuTimes, watchdog } from './lib/processes.ts';
import { fixed, machine, median, table, writeJson, type MachineInfo } from './lib/report.ts';

const usage = `Usage: npx tsx bench/msw-data.ts [options]
  --sizes LIST     comma-separated record counts (default 1000,10000,100000)
  --budget-ms MS   minimum time per measured batch (default 300)
  --batches N      batches per case; the median batch is reported (default 3)
  --out FILE       where to write the JSON results (default bench/results/msw-data.json)`;

interface Task {
  id: string;
  owner: string;
}

const idOf = (i: number): string => `task_${i.toString(36).padStart(8, '0')}`;
const ownerOf = (i: number): string => `owner_${i.toString(36).padStart(8, '0')}`;

/** A deterministic pseudo-random sequence of record indexes (xorshift32), the same for every case. */
function indexes(count: number, size: number): Uint32Array {
  const out = new Uint32Array(count);
  let x = 2463534242;
  for (let i = 0; i < count; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x % size;
  }
  return out;
}

/**
 * Microseconds per call of `lookup`, as the median of `batches` batches that each run for at least
 * `budgetMs` (and at least 3 calls). `lookup` returns the found id, which is checked.
 */
function timePerCall(
  ids: readonly string[],
  budgetMs: number,
  batches: number,
  lookup: (i: number) => string | undefined,
): number {
  const keys = indexes(1 << 16, ids.length);
  let k = 0;
  const check = (i: number): void => {
    const found = lookup(i);
    if (found === undefined || found !== ids[i])
      throw new Error(`lookup of record ${i} returned ${String(found)}`);
  };
  // Warm-up: a tenth of a batch.
  const warmEnd = performance.now() + budgetMs / 10;
  for (let n = 0; n < 3 || performance.now() < warmEnd; n++) check(keys[k++ & 0xffff] ?? 0);
  const perCall: number[] = [];
  for (let b = 0; b < batches; b++) {
    let calls = 0;
    const t0 = performance.now();
    let now = t0;
    // Run in chunks so the clock is read rarely for the fast cases.
    let chunk = 1;
    while (calls < 3 || now - t0 < budgetMs) {
      for (let c = 0; c < chunk; c++) check(keys[k++ & 0xffff] ?? 0);
      calls += chunk;
      now = performance.now();
      if (now - t0 < budgetMs / 20 && chunk < 1 << 16) chunk *= 2;
    }
    perCall.push(((now - t0) * 1000) / calls);
  }
  return median(perCall);
}

interface SizeResult {
  records: number;
  createMs: number;
  createUsPerRecord: number;
  usPerLookup: {
    findFirstById: number;
    findFirstByOwner: number;
    mapGet: number;
    arrayFindByOwner: number;
  };
  nsPerRecordScanned: { findFirstById: number; findFirstByOwner: number };
  findFirstByIdOverMapGet: number;
  /** CPU used by other processes while this size was measured, in % of one core (noise; 2 cores). */
  otherCpuPercent?: number;
}

function measureSize(size: number, budgetMs: number, batches: number): SizeResult {
  // The keys are built once: every lookup below gets a ready string, as a request handler would.
  const tasks: Task[] = Array.from({ length: size }, (_, i) => ({
    id: idOf(i),
    owner: ownerOf(i),
  }));
  const ids = tasks.map((t) => t.id);
  const owners = tasks.map((t) => t.owner);
  const db = factory({ task: { id: primaryKey(String), owner: String } });
  const t0 = performance.now();
  for (const task of tasks) db.task.create({ id: task.id, owner: task.owner });
  const createMs = performance.now() - t0;
  const map = new Map<string, Task>(tasks.map((t) => [t.id, { ...t }]));
  const array: Task[] = tasks.map((t) => ({ ...t }));
  if (db.task.count() !== size)
    throw new Error(`expected ${size} records, found ${db.task.count()}`);

  const findFirstById = timePerCall(
    ids,
    budgetMs,
    batches,
    (i) => db.task.findFirst({ where: { id: { equals: ids[i] ?? '' } } })?.id,
  );
  const findFirstByOwner = timePerCall(
    ids,
    budgetMs,
    batches,
    (i) => db.task.findFirst({ where: { owner: { equals: owners[i] ?? '' } } })?.id,
  );
  const mapGet = timePerCall(ids, budgetMs, batches, (i) => map.get(ids[i] ?? '')?.id);
  const arrayFindByOwner = timePerCall(ids, budgetMs, batches, (i) => {
    const owner = owners[i];
    return array.find((t) => t.owner === owner)?.id;
  });
  return {
    records: size,
    createMs,
    createUsPerRecord: (createMs * 1000) / size,
    usPerLookup: { findFirstById, findFirstByOwner, mapGet, arrayFindByOwner },
    nsPerRecordScanned: {
      findFirstById: (findFirstById * 1000) / size,
      findFirstByOwner: (findFirstByOwner * 1000) / size,
    },
    findFirstByIdOverMapGet: findFirstById / mapGet,
  };
}

interface Report {
  benchmark: 'msw-data';
  date: string;
  machine: MachineInfo;
  library: '@mswjs/data@0.16.2';
  config: { budgetMs: number; batches: number };
  note: string;
  results: SizeResult[];
}

function main(): number {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '1000,10000,100000' },
      'budget-ms': { type: 'string', default: '300' },
      batches: { type: 'string', default: '3' },
      out: { type: 'string', default: 'bench/results/msw-data.json' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const host = machine(); // before any load of ours, for its load average
  const sizes = values.sizes.split(',').map((s) => Math.round(Number(s)));
  if (sizes.some((n) => !Number.isFinite(n) || n < 1))
    throw new Error(`--sizes: bad list "${values.sizes}"`);
  const budgetMs = Math.max(10, Number(values['budget-ms']) || 300);
  const batches = Math.max(1, Math.round(Number(values.batches)) || 3);
  watchdog(600, 'msw-data');

  const results: SizeResult[] = [];
  for (const size of sizes) {
    console.error(`${size} records…`);
    const machine0 = cpuTimes();
    const own0 = process.cpuUsage();
    const wall0 = performance.now();
    const result = measureSize(size, budgetMs, batches);
    const own = process.cpuUsage(own0);
    const busy = busyCores(machine0, cpuTimes(), cpus().length);
    const ownPercent = (100 * (own.user + own.system)) / 1e3 / (performance.now() - wall0);
    if (busy !== undefined)
      result.otherCpuPercent = Math.max(0, Math.round(100 * busy - ownPercent));
    results.push(result);
  }

  const rows: string[][] = [
    [
      'records',
      'create µs/rec',
      'findFirst id µs',
      'findFirst owner µs',
      'Map.get µs',
      'Array.find owner µs',
      'findFirst id / Map.get',
      'ns/record (id)',
      'ns/record (owner)',
      'other CPU%',
    ],
  ];
  for (const r of results) {
    rows.push([
      String(r.records),
      fixed(r.createUsPerRecord, 1),
      fixed(r.usPerLookup.findFirstById, 1),
      fixed(r.usPerLookup.findFirstByOwner, 1),
      fixed(r.usPerLookup.mapGet, 3),
      fixed(r.usPerLookup.arrayFindByOwner, 1),
      `${fixed(r.findFirstByIdOverMapGet)}×`,
      fixed(r.nsPerRecordScanned.findFirstById, 0),
      fixed(r.nsPerRecordScanned.findFirstByOwner, 0),
      fixed(r.otherCpuPercent),
    ]);
  }
  console.log(
    `\n@mswjs/data 0.16.2 findFirst vs Map.get — µs per lookup (median of ` +
      `${batches} batches ≥ ${budgetMs} ms; keys spread over all records)\n`,
  );
  console.log(table(rows));
  console.log(
    '\nns/record = µs per lookup ÷ records: flat across sizes means the lookup scans every record (O(n)).',
  );

  const report: Report = {
    benchmark: 'msw-data',
    date: new Date().toISOString(),
    machine: host,
    library: '@mswjs/data@0.16.2',
    config: { budgetMs, batches },
    note:
      'Keys are built before timing; each timed call includes reading the key ' +
      'from an array, a pseudo-random index and the result check.',
    results,
  };
  const out = pathToFileURL(resolve(values.out));
  writeJson(out, report);
  console.log(`\nwritten: ${fileURLToPath(out)}`);
  return 0;
}

try {
  process.exitCode = main();
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
}
