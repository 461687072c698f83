// What a task lookup costs in @mswjs/data 0.16.2 (a candidate store for the mock) against a plain Map:
// findFirst by the primary key, findFirst by an equals filter on a string field, Map.get by id, and
// (for scale) a plain Array.find on the string field, at 1k, 10k and 100k records.
//
//   npx tsx bench/msw-data.ts [--sizes 1000,10000,100000] [--budget-ms 300] [--batches 3]
//                             [--out bench/results/msw-data.json]
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { cpus } from 'node:os';
import { busyCores, cpuTimes, watchdog } from './lib/processes.ts';
import { fixed, machine, table, writeJson, type MachineInfo } from './lib/report.ts';
import { measureSize, type SizeResult } from './msw-data-measure.ts';

const usage = `Usage: npx tsx bench/msw-data.ts [options]
  --sizes LIST     comma-separated record counts (default 1000,10000,100000)
  --budget-ms MS   minimum time per measured batch (default 300)
  --batches N      batches per case; the median batch is reported (default 3)
  --out FILE       where to write the JSON results (default bench/results/msw-data.json)`;

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
