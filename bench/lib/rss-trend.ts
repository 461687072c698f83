// Is memory flat? The trend of the RSS over the measured run, with and without the GC's sawtooth.
import type { Sample } from './resource-sampler.ts';

type Point = { t: number; y: number };

/** The window whose lowest sample is the floor. */
const WINDOW_S = 5;

/** Least-squares slope of y over t (per second). */
export function slope(points: readonly Point[]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mt = points.reduce((a, p) => a + p.t, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.t - mt) * (p.y - my);
    den += (p.t - mt) ** 2;
  }
  return num / den;
}

const meanOf = (points: readonly Point[]): number =>
  points.reduce((a, p) => a + p.y, 0) / Math.max(1, points.length);

/** The lowest sample of each 5 s window of the measured run, at the window's middle. */
function floorsOf(steady: readonly Point[], durationS: number): Point[] {
  const floors: Point[] = [];
  for (let from = 0; from + WINDOW_S <= durationS + 0.5; from += WINDOW_S) {
    const window = steady.filter((p) => p.t >= from && p.t < from + WINDOW_S);
    if (window.length > 0)
      floors.push({ t: from + WINDOW_S / 2, y: Math.min(...window.map((p) => p.y)) });
  }
  return floors;
}

export interface RssTrend {
  readonly floors: Point[];
  /** Slope of the floors, MiB per minute, and as % of their mean per minute. */
  readonly slopeMiBPerMin: number;
  readonly growthPercentPerMin: number;
  /** Slope of all measured samples, MiB per minute, and as % of their mean per minute. */
  readonly rawSlopeMiBPerMin: number;
  readonly rawGrowthPercentPerMin: number;
}

/** The RSS trend of the measured samples: the floor's (what counts as flat) and all samples'. */
export function rssTrend(samples: readonly Sample[], durationS: number): RssTrend {
  const steady = samples
    .filter((s) => s.phase === 'measured')
    .map((s) => ({ t: s.t, y: s.rssMiB }));
  const rawSlopeMiBPerMin = slope(steady) * 60;
  const floors = floorsOf(steady, durationS);
  const slopeMiBPerMin = slope(floors) * 60;
  return {
    floors,
    slopeMiBPerMin,
    growthPercentPerMin: (100 * slopeMiBPerMin) / meanOf(floors),
    rawSlopeMiBPerMin,
    rawGrowthPercentPerMin: (100 * rawSlopeMiBPerMin) / meanOf(steady),
  };
}
