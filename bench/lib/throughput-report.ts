// What bench/http-throughput.ts prints and saves: every sample, then per server the medians, and the
// mock/bare ratio taken round by round (the samples of a round ran back to back) and its median; with
// the fixed-answer host measured too, the gap split into the host's share and the core's.
import { fixed, median, table } from './report.ts';
import type { Sample, TargetName } from './throughput-sample.ts';

export interface TargetSummary {
  readonly target: TargetName;
  readonly samples: number;
  readonly reqPerSecMedian: number;
  readonly reqPerSecMin: number;
  readonly reqPerSecMax: number;
  readonly latencyP50MsMedian: number;
  readonly latencyP99MsMedian: number;
  readonly reqPerServerCpuSMedian: number | undefined;
  readonly bytesPerResponse: number;
  readonly errors: number;
  readonly errorStatuses: number;
}

export interface Ratios {
  /** mock ÷ bare req/s of each round, in round order. */
  readonly mockToBareByRound: readonly number[];
  readonly mockToBareMedian: number | undefined;
  /** The same per second of server CPU: what each request costs the server, whatever else runs. */
  readonly mockToBarePerCpuMedian: number | undefined;
  /** With `--host`: the node host with a fixed answer ÷ bare (the host's cost), per round and median. */
  readonly hostToBareByRound: readonly number[];
  readonly hostToBareMedian: number | undefined;
  /** With `--host`: mock ÷ the host with a fixed answer (what the core costs), median of the rounds. */
  readonly mockToHostMedian: number | undefined;
  readonly prismToBare: number | undefined;
}

const defined = (values: readonly (number | undefined)[]): number[] =>
  values.filter((v): v is number => v !== undefined && Number.isFinite(v));

function medianOrUndefined(values: readonly (number | undefined)[]): number | undefined {
  const numbers = defined(values);
  return numbers.length === 0 ? undefined : median(numbers);
}

export function summarize(
  samples: readonly Sample[],
  target: TargetName,
): TargetSummary | undefined {
  const own = samples.filter((s) => s.target === target);
  if (own.length === 0) return undefined;
  const rates = own.map((s) => s.reqPerSec);
  return {
    target,
    samples: own.length,
    reqPerSecMedian: median(rates),
    reqPerSecMin: Math.min(...rates),
    reqPerSecMax: Math.max(...rates),
    latencyP50MsMedian: median(own.map((s) => s.latencyP50Ms)),
    latencyP99MsMedian: median(own.map((s) => s.latencyP99Ms)),
    reqPerServerCpuSMedian: medianOrUndefined(own.map((s) => s.reqPerServerCpuS)),
    bytesPerResponse: median(own.map((s) => s.bytesPerResponse)),
    errors: own.reduce((sum, s) => sum + s.errors, 0),
    errorStatuses: own.reduce((sum, s) => sum + s.errorStatuses, 0),
  };
}

/** `top ÷ bottom` of each round that measured both, in req/s or in answers per server CPU-second. */
function perRound(
  samples: readonly Sample[],
  top: TargetName,
  bottom: TargetName,
  metric: 'reqPerSec' | 'reqPerServerCpuS' = 'reqPerSec',
): number[] {
  const rounds = [...new Set(samples.map((s) => s.round))].filter((r) => r > 0);
  return rounds.flatMap((round) => {
    const a = samples.find((s) => s.round === round && s.target === top)?.[metric];
    const b = samples.find((s) => s.round === round && s.target === bottom)?.[metric];
    return a === undefined || b === undefined ? [] : [a / b];
  });
}

/**
 * The per-round ratios and their medians, in `metric` (req/s; with every server loaded at once,
 * answers per server CPU-second); the per-CPU-second mock ÷ bare median either way.
 */
export function ratios(
  samples: readonly Sample[],
  metric: 'reqPerSec' | 'reqPerServerCpuS' = 'reqPerSec',
): Ratios {
  const byRound = defined(perRound(samples, 'mock', 'bare', metric));
  const hostByRound = defined(perRound(samples, 'host', 'bare', metric));
  const prism = samples.find((s) => s.target === 'prism');
  const bareMedian = summarize(samples, 'bare')?.reqPerSecMedian;
  return {
    mockToBareByRound: byRound,
    mockToBareMedian: medianOrUndefined(byRound),
    mockToBarePerCpuMedian: medianOrUndefined(
      perRound(samples, 'mock', 'bare', 'reqPerServerCpuS'),
    ),
    hostToBareByRound: hostByRound,
    hostToBareMedian: medianOrUndefined(hostByRound),
    mockToHostMedian: medianOrUndefined(perRound(samples, 'mock', 'host', metric)),
    prismToBare:
      prism === undefined || bareMedian === undefined ? undefined : prism.reqPerSec / bareMedian,
  };
}

export function samplesTable(samples: readonly Sample[]): string {
  const rows = [
    ['round', 'server', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'errors', '≥400', 'B/resp'],
  ];
  rows[0]!.push('server CPU%', 'loader CPU%', 'other CPU%', 'req/CPU-s');
  for (const s of samples)
    rows.push([
      s.round === 0 ? '-' : String(s.round),
      s.target,
      fixed(s.reqPerSec),
      fixed(s.latencyP50Ms, 2),
      fixed(s.latencyP99Ms, 2),
      String(s.requests),
      String(s.errors),
      String(s.errorStatuses),
      fixed(s.bytesPerResponse),
      fixed(s.serverCpuPercent),
      fixed(s.loaderCpuPercent),
      fixed(s.otherCpuPercent),
      fixed(s.reqPerServerCpuS),
    ]);
  return table(rows);
}

export function summaryTable(summaries: readonly TargetSummary[]): string {
  const rows = [
    ['server', 'samples', 'req/s median', 'min', 'max', 'p50 ms', 'p99 ms', 'req/CPU-s', 'B/resp'],
  ];
  for (const s of summaries)
    rows.push([
      s.target,
      String(s.samples),
      fixed(s.reqPerSecMedian),
      fixed(s.reqPerSecMin),
      fixed(s.reqPerSecMax),
      fixed(s.latencyP50MsMedian, 2),
      fixed(s.latencyP99MsMedian, 2),
      fixed(s.reqPerServerCpuSMedian),
      fixed(s.bytesPerResponse),
    ]);
  return table(rows);
}
