// What the client verdicts cost over HTTP (issue 20: ≤ 5 %): two `videotask mock` processes, one judging
// its callers (the default) and one with `--no-client-verdicts`, loaded in turn with wrk on
// GET /v1/videos/{id} of a task that stays in_progress. The bench's client polls as fast as it can,
// so it breaks `poll-interval` and `poll-attempts` on every request: the verdicts' worst case. Rounds
// alternate which goes first (on→off, off→on, …) so the machine's drift hits both; reported per round
// and as the median with its spread: on ÷ off req/s, and on ÷ off answers per second of server CPU
// (steadier when other processes share the machine). `--together` loads both at the same time, each
// with its own wrk: the two then share every moment of the machine's noise, and on ÷ off per server
// CPU-second is the figure to read on a busy machine.
//
//   npx tsx bench/verdict-cost.ts [--rounds 12] [--duration 4] [--warmup 1] [--connections 50]
//        [--together] [--cli FILE] [--cpu-prof DIR] [--out FILE]
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchFlags } from './lib/cli-flags.ts';
import { count, nonNegative, positive } from './lib/cli-numbers.ts';
import { loadGenerator, type LoadGenerator } from './lib/load-generator.ts';
import { authHeaders } from './lib/mock-api.ts';
import { runMain, watchdog } from './lib/processes.ts';
import { fixed, machine, median, writeJson } from './lib/report.ts';
import { measure, type Sample } from './lib/throughput-sample.ts';
import { startMock, type Started } from './lib/throughput-servers.ts';

const usage = `Usage: npx tsx bench/verdict-cost.ts [options]
  --rounds N         rounds, each measuring the mock with verdicts on and off once (default 12)
  --duration S       measured seconds per sample (default 4)
  --warmup S         unmeasured seconds before each sample (default 1)
  --connections N    keep-alive connections (default 50)
  --together         load both mocks at the same time (each its own wrk) instead of in turn
  --cli FILE         the videotask command measured (default: this checkout's bin/videotask.js)
  --cpu-prof DIR     write V8 CPU profiles of both mocks to DIR (slows them: for reading, not figures)
  --out FILE         JSON results (default bench/results/verdict-cost.json)`;

type Mode = 'on' | 'off';

function config() {
  const values = benchFlags(
    { name: 'verdict-cost', usage },
    {
      rounds: { type: 'string', default: '12' },
      duration: { type: 'string', default: '4' },
      warmup: { type: 'string', default: '1' },
      connections: { type: 'string', default: '50' },
      together: { type: 'boolean', default: false },
      cli: { type: 'string' },
      'cpu-prof': { type: 'string' },
    },
  );
  const prof = values['cpu-prof'];
  return {
    rounds: count('rounds', values.rounds),
    durationS: positive('duration', values.duration),
    warmupS: nonNegative('warmup', values.warmup),
    connections: count('connections', values.connections),
    together: values.together,
    cli: values.cli === undefined ? undefined : resolve(values.cli),
    nodeArgs: prof === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', resolve(prof)],
    out: pathToFileURL(resolve(values.out)),
  };
}

type Config = NonNullable<ReturnType<typeof config>>;

interface Round {
  readonly round: number;
  readonly on: Sample;
  readonly off: Sample;
}

async function rounds(
  cfg: Config,
  generator: LoadGenerator,
  mocks: Record<Mode, Started>,
): Promise<Round[]> {
  const settings = { seconds: cfg.durationS, connections: cfg.connections, headers: authHeaders };
  const done: Round[] = [];
  for (let round = 1; round <= cfg.rounds; round++) {
    const where = { target: 'mock' as const, round, warmupS: cfg.warmupS };
    const one = (mode: Mode) => measure(generator, mocks[mode], where, settings);
    let on: Sample;
    let off: Sample;
    if (cfg.together) [on, off] = await Promise.all([one('on'), one('off')]);
    else if (round % 2 === 1) [on, off] = [await one('on'), await one('off')];
    else [off, on] = [await one('off'), await one('on')];
    done.push({ round, on, off });
    console.error(
      `round ${round} on ${fixed(on.reqPerSec)} req/s, off ${fixed(off.reqPerSec)} req/s: ` +
        `on ÷ off ${fixed(on.reqPerSec / off.reqPerSec, 3)} (per server CPU-s ` +
        `${fixed(perCpu(on, off), 3)}), other CPU ${fixed(on.otherCpuPercent)}/${fixed(off.otherCpuPercent)}%`,
    );
  }
  return done;
}

function perCpu(on: Sample, off: Sample): number | undefined {
  return on.reqPerServerCpuS === undefined || off.reqPerServerCpuS === undefined
    ? undefined
    : on.reqPerServerCpuS / off.reqPerServerCpuS;
}

/** Median, lowest and highest; the middle half (quartiles) when there are 4 or more. */
function spread(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return {
    median: median(sorted),
    min: sorted[0]!,
    max: sorted.at(-1)!,
    q1: at(0.25),
    q3: at(0.75),
  };
}

function line(name: string, s: ReturnType<typeof spread>): string {
  return (
    `${name}: median ${fixed(s.median, 3)} (middle half ${fixed(s.q1, 3)}–${fixed(s.q3, 3)}, ` +
    `all ${fixed(s.min, 3)}–${fixed(s.max, 3)})`
  );
}

/** Both mocks started, measured in rounds, stopped. */
async function measureBoth(cfg: Config, generator: LoadGenerator): Promise<Round[]> {
  const on = await startMock(1, cfg.nodeArgs, cfg.cli);
  try {
    const off = await startMock(1, cfg.nodeArgs, cfg.cli, ['--no-client-verdicts']);
    try {
      return await rounds(cfg, generator, { on, off });
    } finally {
      await off.stop();
    }
  } finally {
    await on.stop();
  }
}

async function main(): Promise<number> {
  const cfg = config();
  const host = machine();
  watchdog(cfg.rounds * 2 * (cfg.warmupS + cfg.durationS + 15) + 300, 'verdict-cost');
  const generator = await loadGenerator('wrk');
  const done = await measureBoth(cfg, generator);
  const byReq = spread(done.map((r) => r.on.reqPerSec / r.off.reqPerSec));
  const byCpu = spread(done.flatMap((r) => perCpu(r.on, r.off) ?? []));
  console.log(
    `\nClient verdicts on ÷ off, GET /v1/videos/{id} (two rules broken on every request), ` +
      `${cfg.connections} connections, ${cfg.rounds} rounds of ${cfg.warmupS} + ${cfg.durationS} s` +
      `${cfg.together ? ', both loaded at once' : ', in turn'}; ` +
      `${generator.label}; load average ${host.loadAverage1m} before\n` +
      `${line('req/s', byReq)}\n${line('per server CPU-s', byCpu)}\n(target: ≥ 0.95)`,
  );
  writeJson(cfg.out, {
    benchmark: 'verdict-cost',
    date: new Date().toISOString(),
    machine: host,
    loadGenerator: generator.label,
    config: { ...cfg, out: undefined, nodeArgs: undefined },
    onToOff: { reqPerSec: byReq, perServerCpuS: byCpu },
    rounds: done,
  });
  console.log(`written: ${fileURLToPath(cfg.out)}`);
  return 0;
}

runMain(main);
