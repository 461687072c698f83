// One measured stretch of bench/http-throughput.ts: a warm-up, then the load generator for a fixed time,
// with the server's own CPU (from /proc) and everyone else's, so a noisy sample can be told apart.
import { cpus } from 'node:os';
import type { LoadGenerator, LoadResult, LoadSettings } from './load-generator.ts';
import { busyCores, cpuSeconds, cpuTimes, exitedChildrenCpuSeconds } from './processes.ts';
import type { Started } from './throughput-servers.ts';

export type TargetName = 'bare' | 'host' | 'mock' | 'prism';

export interface Sample extends LoadResult {
  readonly target: TargetName;
  readonly round: number;
  /** Responses per second of the server process's CPU: steadier than req/s when others load the machine. */
  readonly reqPerServerCpuS: number | undefined;
  readonly serverCpuPercent: number | undefined;
  /** The load generator's CPU (wrk as a child, or autocannon in this process), % of one core. */
  readonly loaderCpuPercent: number | undefined;
  /** CPU used by every other process on the machine, % of one core: above ~15 the sample is noisy. */
  readonly otherCpuPercent: number | undefined;
}

const cores = cpus().length;

export async function measure(
  generator: LoadGenerator,
  server: Started,
  where: { target: TargetName; round: number; warmupS: number },
  settings: LoadSettings,
): Promise<Sample> {
  const url = `${server.url}${server.path}`;
  if (where.warmupS > 0) await generator.run(url, { ...settings, seconds: where.warmupS });
  const cpu0 = cpuSeconds(server.child.pid);
  const machine0 = cpuTimes();
  const self0 = process.cpuUsage();
  const children0 = exitedChildrenCpuSeconds();
  const load = await generator.run(url, settings);
  const cpu1 = cpuSeconds(server.child.pid);
  const busy = busyCores(machine0, cpuTimes(), cores);
  const self = process.cpuUsage(self0);
  const children1 = exitedChildrenCpuSeconds();
  const serverCpuS = cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0;
  const serverCpuPercent = serverCpuS === undefined ? undefined : (100 * serverCpuS) / load.seconds;
  // wrk is a child that has exited by now; autocannon runs in this process.
  const loaderS =
    children0 === undefined || children1 === undefined
      ? undefined
      : children1 - children0 + (self.user + self.system) / 1e6;
  const loaderCpuPercent = loaderS === undefined ? undefined : (100 * loaderS) / load.seconds;
  const otherCpuPercent =
    busy === undefined || serverCpuPercent === undefined || loaderCpuPercent === undefined
      ? undefined
      : Math.max(0, 100 * busy - serverCpuPercent - loaderCpuPercent);
  return {
    ...load,
    target: where.target,
    round: where.round,
    serverCpuPercent,
    loaderCpuPercent,
    otherCpuPercent,
    reqPerServerCpuS:
      serverCpuS === undefined || serverCpuS <= 0 ? undefined : load.requests / serverCpuS,
  };
}
