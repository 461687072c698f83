// HTTP throughput of `videotask mock --workers N` (decisions/016) against a bare node:http server with
// as many node:cluster workers, in one run:
//   mock-1  `videotask mock` (one process)        bare-1  node:http answering the mock's bytes
//   mock-2  `videotask mock --workers 2`          bare-2  the same bare server, 2 cluster workers
// GET /v1/videos/{id} of a task that stays in_progress, under wrk (bench/lib/load-generator.ts). All
// four servers run for the whole benchmark; each round measures each once, the order rotating, so
// the machine's drift hits all. Reported: median req/s and p99 per server, and the per-round medians
// of mock/bare at 1 and at 2 workers, and of 2 workers / 1 worker for each.
//
//   npx tsx bench/workers-throughput.ts [--rounds 3] [--duration 5] [--warmup 1] [--connections 50]
//        [--out bench/results/workers-throughput.json]
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchFlags } from './lib/cli-flags.ts';
import { count, nonNegative, positive } from './lib/cli-numbers.ts';
import { loadGenerator, type LoadResult, type LoadSettings } from './lib/load-generator.ts';
import { authHeaders } from './lib/mock-api.ts';
import { runMain, watchdog } from './lib/processes.ts';
import { fixed, machine, median, table, writeJson } from './lib/report.ts';
import { get, startBare, startMock, type Started } from './lib/throughput-servers.ts';

const TARGETS = ['bare-1', 'mock-1', 'bare-2', 'mock-2'] as const;
type Target = (typeof TARGETS)[number];

interface Sample extends LoadResult {
  readonly target: Target;
  readonly round: number;
}

const usage = `Usage: npx tsx bench/workers-throughput.ts [options]
  --rounds N         rounds, each measuring the four servers once, the order rotating (default 3)
  --duration S       measured seconds per sample (default 5)
  --warmup S         unmeasured seconds before each sample (default 1)
  --connections N    keep-alive connections (default 50)
  --out FILE         JSON results (default bench/results/workers-throughput.json)`;

function config() {
  const values = benchFlags(
    { name: 'workers-throughput', usage },
    {
      rounds: { type: 'string', default: '3' },
      duration: { type: 'string', default: '5' },
      warmup: { type: 'string', default: '1' },
      connections: { type: 'string', default: '50' },
    },
  );
  return {
    rounds: count('rounds', values.rounds),
    durationS: positive('duration', values.duration),
    warmupS: nonNegative('warmup', values.warmup),
    connections: count('connections', values.connections),
    out: pathToFileURL(resolve(values.out)),
  };
}

/** The per-round ratio of two targets' req/s, and its median. */
function ratio(samples: readonly Sample[], top: Target, bottom: Target) {
  const byRound = [...new Set(samples.map((s) => s.round))].flatMap((round) => {
    const of = (t: Target) => samples.find((s) => s.round === round && s.target === t)?.reqPerSec;
    const [a, b] = [of(top), of(bottom)];
    return a === undefined || b === undefined || b === 0 ? [] : [a / b];
  });
  return { byRound, median: byRound.length === 0 ? undefined : median(byRound) };
}

/** Every round: the targets in a rotated order, each warmed up, then measured. */
async function runRounds(
  cfg: ReturnType<typeof config>,
  generator: Awaited<ReturnType<typeof loadGenerator>>,
  started: Partial<Record<Target, Started>>,
): Promise<Sample[]> {
  const samples: Sample[] = [];
  const settings: LoadSettings = {
    seconds: cfg.durationS,
    connections: cfg.connections,
    headers: authHeaders,
  };
  for (let round = 1; round <= cfg.rounds; round++) {
    const order = TARGETS.map((_, i) => TARGETS[(i + round - 1) % TARGETS.length]!);
    for (const target of order) {
      const server = started[target]!;
      const url = `${server.url}${server.path}`;
      if (cfg.warmupS > 0) await generator.run(url, { ...settings, seconds: cfg.warmupS });
      const sample = { target, round, ...(await generator.run(url, settings)) };
      console.error(
        `round ${round} ${target} ${fixed(sample.reqPerSec)} req/s, p99 ${fixed(sample.latencyP99Ms, 2)} ms`,
      );
      samples.push(sample);
    }
  }
  return samples;
}

function summaryOf(samples: readonly Sample[], target: Target) {
  const mine = samples.filter((s) => s.target === target);
  return {
    target,
    reqPerSecMedian: median(mine.map((s) => s.reqPerSec)),
    latencyP99MsMedian: median(mine.map((s) => s.latencyP99Ms)),
    errors: mine.reduce((n, s) => n + s.errors + s.errorStatuses, 0),
  };
}

async function main(): Promise<number> {
  const cfg = config();
  const host = machine();
  watchdog(cfg.rounds * 4 * (cfg.warmupS + cfg.durationS + 15) + 600, 'workers-throughput');
  const generator = await loadGenerator('wrk');
  console.error(`load generator: ${generator.label}; load average ${host.loadAverage1m}`);
  const started: Partial<Record<Target, Started>> = {};
  const samples: Sample[] = [];
  try {
    started['mock-1'] = await startMock(1, []);
    started['mock-2'] = await startMock(1, [], undefined, ['--workers', '2']);
    const answer = await get(`${started['mock-1'].url}${started['mock-1'].path}`);
    if (answer.status !== 200) throw new Error(`the mock answered ${answer.status}`);
    started['bare-1'] = await startBare(answer, []);
    started['bare-2'] = await startBare(answer, [], 2);
    samples.push(...(await runRounds(cfg, generator, started)));
  } finally {
    await Promise.all(Object.values(started).map((s) => s.stop()));
  }

  const summaries = TARGETS.map((target) => summaryOf(samples, target));
  const ratios = {
    mockToBare1: ratio(samples, 'mock-1', 'bare-1'),
    mockToBare2: ratio(samples, 'mock-2', 'bare-2'),
    mock2To1: ratio(samples, 'mock-2', 'mock-1'),
    bare2To1: ratio(samples, 'bare-2', 'bare-1'),
  };
  const loadAfter = Math.round((loadavg()[0] ?? 0) * 100) / 100;
  console.log(
    `\nworkers throughput: GET /v1/videos/{id}, ${cfg.connections} connections, ${cfg.rounds} rounds ` +
      `of ${cfg.warmupS} s warm-up + ${cfg.durationS} s per server; ${generator.label}; ` +
      `${host.cpus} cores; load average ${host.loadAverage1m} before, ${loadAfter} after\n`,
  );
  const rows = summaries.map((s) => [
    s.target,
    fixed(s.reqPerSecMedian),
    fixed(s.latencyP99MsMedian, 2),
    String(s.errors),
  ]);
  console.log(table([['server', 'req/s (median)', 'p99 ms', 'errors'], ...rows]));
  for (const [name, r] of Object.entries(ratios))
    console.log(
      `${name}: median ${fixed(r.median, 3)} (rounds ${r.byRound.map((x) => fixed(x, 3)).join(', ')})`,
    );
  writeJson(cfg.out, {
    benchmark: 'workers-throughput',
    date: new Date().toISOString(),
    machine: host,
    loadAverage1mAfter: loadAfter,
    loadGenerator: generator.label,
    config: { ...cfg, out: undefined },
    samples,
    summaries,
    ratios,
  });
  console.log(`\nwritten: ${fileURLToPath(cfg.out)}`);
  return 0;
}

runMain(main);
