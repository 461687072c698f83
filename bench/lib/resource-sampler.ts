// Once a second: the child's RSS and CPU, and the requests the load completed in that second.
import { readFileSync } from 'node:fs';
import { cpuSeconds } from './processes.ts';

export interface Sample {
  phase: 'warmup' | 'measured';
  /** Seconds since the measured run started (negative during the warm-up). */
  t: number;
  rssMiB: number;
  serverCpuPercent: number | undefined;
  requests: number;
}

/** `VmRSS` of `pid` in MiB, from /proc. */
export function rssMiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (match === null) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

const tenths = (value: number): number => Math.round(value * 10) / 10;

/**
 * Samples `pid` every second from construction until `stop()`: first as the warm-up (when there is
 * one), then, from `startMeasuring()`, as the measured run, whose start is time 0.
 */
export class ResourceSampler {
  readonly samples: Sample[] = [];
  /** Requests completed in the last second, as the load reports them. */
  requestsThisSecond = 0;
  #phase: Sample['phase'];
  #measuredStart: number;
  #cpuBefore: number | undefined;
  readonly #timer: NodeJS.Timeout;

  constructor(
    readonly pid: number,
    warmupS: number,
  ) {
    this.#phase = warmupS > 0 ? 'warmup' : 'measured';
    this.#measuredStart = performance.now() + warmupS * 1000; // re-set when the measured run starts
    this.#cpuBefore = cpuSeconds(pid);
    this.#timer = setInterval(() => this.#sample(), 1000);
  }

  /** Marks the start of the measured run (time 0 of the samples that follow). */
  startMeasuring(): number {
    this.#phase = 'measured';
    this.#measuredStart = performance.now();
    return this.#measuredStart;
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  #sample(): void {
    const cpu = cpuSeconds(this.pid);
    const before = this.#cpuBefore;
    this.samples.push({
      phase: this.#phase,
      t: Math.round((performance.now() - this.#measuredStart) / 100) / 10,
      rssMiB: tenths(rssMiB(this.pid)),
      serverCpuPercent:
        cpu !== undefined && before !== undefined ? Math.round((cpu - before) * 100) : undefined,
      requests: this.requestsThisSecond,
    });
    this.#cpuBefore = cpu;
  }
}
