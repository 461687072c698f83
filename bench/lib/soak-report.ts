// What the soak records (bench/results/soak.json) and prints.
import type autocannon from 'autocannon';
import type { Exit } from './processes.ts';
import { fixed, table, type MachineInfo } from './report.ts';
import type { Sample } from './resource-sampler.ts';
import type { RssTrend } from './rss-trend.ts';
import { OWNERS } from './soak-tasks.ts';

export interface SoakSettings {
  readonly durationS: number;
  readonly taskCount: number;
  readonly clients: number;
  readonly speed: number;
  readonly warmupS: number;
  readonly maxGrowth: number;
}

/** Everything the soak measured, raw. */
export interface SoakFigures {
  readonly settings: SoakSettings;
  readonly machine: MachineInfo;
  readonly createSeconds: number;
  readonly tasksHeld: number;
  readonly tasksHeldAfter: number;
  readonly mixBefore: Record<string, number>;
  readonly mixAfter: Record<string, number>;
  readonly warmup: autocannon.Result | undefined;
  readonly result: autocannon.Result;
  readonly cpu: {
    readonly serverPercent: number | undefined;
    readonly loaderPercent: number;
    /** Cores' worth of the whole machine busy over the measured run. */
    readonly busyCores: number | undefined;
  };
  readonly rssIdleMiB: number;
  readonly samples: readonly Sample[];
  readonly trend: RssTrend;
  readonly exit: Exit & { killed: boolean };
}

const round = (value: number, digits: number): number =>
  Math.round(value * 10 ** digits) / 10 ** digits;

/** The targets: no error, warm-up included (errors include timeouts); flat memory; a clean exit. */
function targets(f: SoakFigures) {
  const warmupErrors = f.warmup === undefined ? 0 : f.warmup.errors + f.warmup.non2xx;
  const errors = f.result.errors + f.result.non2xx + warmupErrors;
  const growth = f.trend.growthPercentPerMin;
  const flat = Number.isFinite(growth) && growth <= f.settings.maxGrowth;
  const exitedCleanly = f.exit.code === 0 && !f.exit.killed;
  return { warmupErrors, errors, flat, exitedCleanly };
}

/** The measured run's RSS at its start, middle and end. */
function rssPoints(samples: readonly Sample[]) {
  const measured = samples.filter((s) => s.phase === 'measured');
  return {
    measured,
    first: measured[0],
    middle: measured[Math.floor(measured.length / 2)],
    last: samples.at(-1),
  };
}

function otherCpuPercent(cpu: SoakFigures['cpu']): number | undefined {
  if (cpu.busyCores === undefined || cpu.serverPercent === undefined) return undefined;
  return Math.max(0, cpu.busyCores * 100 - cpu.serverPercent - cpu.loaderPercent);
}

/** The JSON record of a soak run. */
export function soakReport(f: SoakFigures) {
  const { settings, result, warmup, exit } = f;
  const { warmupErrors, errors, flat, exitedCleanly } = targets(f);
  return {
    benchmark: 'soak',
    date: new Date().toISOString(),
    machine: f.machine,
    settings: settingsRecord(settings),
    setup: {
      createSeconds: round(f.createSeconds, 1),
      tasksHeld: f.tasksHeld,
      tasksHeldAfter: f.tasksHeldAfter,
      statusMixBefore: f.mixBefore,
      statusMixAfter: f.mixAfter,
    },
    requests: result.requests.total,
    reqPerSecMean: result.requests.average,
    reqPerSecStddev: result.requests.stddev,
    latencyMs: {
      mean: result.latency.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    errors: {
      total: errors,
      connectionErrors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      duringWarmup: warmupErrors,
    },
    warmup:
      warmup === undefined
        ? undefined
        : {
            seconds: settings.warmupS,
            requests: warmup.requests.total,
            reqPerSecMean: warmup.requests.average,
          },
    cpu: {
      serverPercent: f.cpu.serverPercent,
      loaderPercent: f.cpu.loaderPercent,
      otherPercent: otherCpuPercent(f.cpu),
    },
    rssMiB: rssFigures(f),
    exit: { code: exit.code, signal: exit.signal, killed: exit.killed },
    targets: {
      zeroErrors: errors === 0,
      flatMemory: flat,
      exitedCleanly,
      met: errors === 0 && flat && exitedCleanly,
    },
    samples: f.samples,
  };
}

/** Memory: idle, at the warm-up's start, the measured samples' first, middle, end and max, and the trend. */
function rssFigures(f: SoakFigures) {
  const { trend } = f;
  const { measured, first, middle, last } = rssPoints(f.samples);
  return {
    idleBeforeTasks: round(f.rssIdleMiB, 1),
    warmupStart: f.samples[0]?.rssMiB,
    start: first?.rssMiB,
    middle: middle?.rssMiB,
    end: last?.rssMiB,
    max: Math.max(...measured.map((s) => s.rssMiB)),
    floorsAfterWarmup: trend.floors,
    floorSlopeMiBPerMin: round(trend.slopeMiBPerMin, 2),
    floorGrowthPercentPerMin: round(trend.growthPercentPerMin, 2),
    allSamplesSlopeMiBPerMin: round(trend.rawSlopeMiBPerMin, 2),
    allSamplesGrowthPercentPerMin: round(trend.rawGrowthPercentPerMin, 2),
  };
}

function settingsRecord(settings: SoakFigures['settings']) {
  return {
    durationS: settings.durationS,
    tasks: settings.taskCount,
    clients: settings.clients,
    speed: settings.speed,
    warmupS: settings.warmupS,
    maxGrowthPercentPerMin: settings.maxGrowth,
    paths: ['/v1/videos/{id}', '/v1/video/generations/{id}'],
    keys: OWNERS.map((o) => o.key),
  };
}

const met = (ok: boolean): string => (ok ? 'MET' : 'MISSED');

/** What the soak prints: the run, a table of its figures, and the targets. */
export function soakSummary(f: SoakFigures, outName: string): string {
  const { settings, result, trend, exit } = f;
  const { warmupErrors, errors, flat, exitedCleanly } = targets(f);
  const { first, middle, last } = rssPoints(f.samples);
  const run =
    `soak: ${settings.taskCount.toLocaleString('en')} tasks, ${settings.clients} clients, ` +
    `${settings.durationS} s measured after ${settings.warmupS} s of warm-up ` +
    `(${f.machine.cpus} cores, ${f.machine.node})`;
  const { latency, requests } = result;
  const rss = [f.rssIdleMiB, first?.rssMiB, middle?.rssMiB, last?.rssMiB]
    .map((v) => fixed(v, 1))
    .join(' / ');
  const floorSlope =
    `${fixed(trend.slopeMiBPerMin, 2)} MiB/min = ${fixed(trend.growthPercentPerMin, 2)} %/min ` +
    `(flat ≤ ${settings.maxGrowth}); all samples ${fixed(trend.rawSlopeMiBPerMin, 2)} MiB/min`;
  const cpu = [f.cpu.serverPercent, f.cpu.loaderPercent, otherCpuPercent(f.cpu)]
    .map((v) => fixed(v))
    .join(' / ');
  const figures = table([
    ['measure', 'value'],
    ['requests', requests.total.toLocaleString('en')],
    ['req/s (mean ± sd)', `${fixed(requests.average)} ± ${fixed(requests.stddev)}`],
    ['latency p50 / p99 / max ms', `${latency.p50} / ${latency.p99} / ${latency.max}`],
    [
      'errors (conn / timeouts / non-2xx; warm-up)',
      `${result.errors} / ${result.timeouts} / ${result.non2xx}; ${warmupErrors}`,
    ],
    ['RSS MiB: idle / start / middle / end', rss],
    ['RSS floor slope (measured run)', floorSlope],
    ['CPU % server / loader / other', cpu],
    [
      'status mix before → after (200 sampled)',
      `${JSON.stringify(f.mixBefore)} → ${JSON.stringify(f.mixAfter)}`,
    ],
    [
      'mock exit after SIGTERM',
      `${String(exit.code ?? exit.signal)}${exit.killed ? ' (killed)' : ''}`,
    ],
  ]);
  const verdict =
    `targets: zero errors ${met(errors === 0)} · flat memory ${met(flat)} · ` +
    `clean exit ${met(exitedCleanly)} → ${outName}`;
  return [run, figures, verdict].join('\n');
}
