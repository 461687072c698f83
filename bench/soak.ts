// Soak: 10,000 live tasks polled by 100 concurrent clients for 60 s against `videotask mock`.
// Targets: zero errors (non-2xx, connection errors, timeouts), flat memory; throughput and latency
// are reported. The polling first runs --warmup s unmeasured (the heap grows into its steady size
// there; errors still count), then --duration s measured. "Flat": over the measured run, the RSS floor
// (the lowest sample of each 5 s window: what is left after the garbage collector's sawtooth) grows
// by at most --max-growth % of its mean per minute (least-squares slope). The slope of all samples is
// reported too.
//
// The mock runs as `node bin/videotask.js mock --port 0 --host 127.0.0.1` in a child process (real
// clock, --speed 1: tasks queue 2–8 s and run 20–60 s, so during the run they move through queued,
// in_progress and completed while being polled). The tasks are spread over the built-in keys that may
// submit; every request is a keep-alive GET of one task through one of the two query forms
// (/v1/videos/{id}, /v1/video/generations/{id}) with its owner's key, cycling over all 2 × N pairs.
// The load generator is autocannon 9 in this process; the child's RSS (/proc/PID/status) and CPU are
// sampled every second.
//
//   npx tsx bench/soak.ts [--duration 60] [--tasks 10000] [--clients 100] [--speed 1] [--warmup 20]
//                         [--max-growth 3] [--out bench/results/soak.json]
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchFlags } from './lib/cli-flags.ts';
import { count, nonNegative, positive } from './lib/cli-numbers.ts';
import { startMockChild } from './lib/mock-child.ts';
import { pollingLoad } from './lib/polling-load.ts';
import { busyCores, cpuSeconds, cpuTimes, sleep, stop, watchdog } from './lib/processes.ts';
import { machine, writeJson } from './lib/report.ts';
import { ResourceSampler, rssMiB } from './lib/resource-sampler.ts';
import { rssTrend } from './lib/rss-trend.ts';
import { soakReport, soakSummary } from './lib/soak-report.ts';
import { createTasks, pollRequests, statusMix, tasksHeld } from './lib/soak-tasks.ts';

const rootDir = fileURLToPath(new URL('../', import.meta.url));

const usage = `Usage: npx tsx bench/soak.ts [options]
  --duration S      seconds of polling (default 60)
  --tasks N         tasks created before the polling starts (default 10000)
  --clients N       concurrent keep-alive clients (default 100)
  --speed N         the mock's clock speed (default 1: tasks stay alive about a minute)
  --warmup S        seconds of polling before the measured run (default 20; 0: none)
  --max-growth P    largest growth of the RSS floor after the warm-up, in % of its mean per minute,
                    still "flat" (default 3)
  --out FILE        JSON results (default bench/results/soak.json)`;

const values = benchFlags(
  { name: 'soak', usage },
  {
    duration: { type: 'string', default: '60' },
    tasks: { type: 'string', default: '10000' },
    clients: { type: 'string', default: '100' },
    speed: { type: 'string', default: '1' },
    warmup: { type: 'string', default: '20' },
    'max-growth': { type: 'string', default: '3' },
  },
);
const durationS = count('duration', values.duration);
const taskCount = count('tasks', values.tasks);
const clients = count('clients', values.clients);
const speed = positive('speed', values.speed);
const warmupS = nonNegative('warmup', values.warmup);
const maxGrowth = positive('max-growth', values['max-growth']);
const out = pathToFileURL(resolve(values.out));

const settings = { durationS, taskCount, clients, speed, warmupS, maxGrowth };

/**
 * The measured run: the load for --duration s, and the CPU the mock, this process (the load) and the
 * whole machine used meanwhile.
 */
async function measuredRun(
  load: ReturnType<typeof pollingLoad>,
  sampler: ResourceSampler,
  cores: number,
) {
  const measuredStart = sampler.startMeasuring();
  const machine0 = cpuTimes();
  const loader0 = process.cpuUsage();
  const cpu0 = cpuSeconds(sampler.pid);
  const result = await load(durationS);
  sampler.stop();
  const wallS = (performance.now() - measuredStart) / 1000;
  const loader = process.cpuUsage(loader0);
  const busy = busyCores(machine0, cpuTimes(), cores);
  const cpu1 = cpuSeconds(sampler.pid);
  const serverPercent =
    cpu0 !== undefined && cpu1 !== undefined ? (100 * (cpu1 - cpu0)) / wallS : undefined;
  const loaderPercent = (100 * (loader.user + loader.system)) / 1e6 / wallS;
  return { result, cpu: { serverPercent, loaderPercent, busyCores: busy } };
}

async function main(): Promise<number> {
  watchdog(durationS + 240, 'soak');
  const info = machine();
  console.error(`soak: starting the mock (speed ${speed})…`);
  const mockArgs = ['--port', '0', '--host', '127.0.0.1', '--speed', String(speed), '--seed', '1'];
  const { child, url } = await startMockChild(rootDir, mockArgs);
  const pid = child.pid!;
  const rssIdleMiB = rssMiB(pid);

  console.error(`soak: creating ${taskCount.toLocaleString('en')} tasks…`);
  const created0 = performance.now();
  const tasks = await createTasks(url, taskCount);
  const createSeconds = (performance.now() - created0) / 1000;
  const held = await tasksHeld(url);
  if (held !== taskCount) throw new Error(`the mock holds ${held} tasks, expected ${taskCount}`);
  const mixBefore = await statusMix(url, tasks);

  const sampler = new ResourceSampler(pid, warmupS);
  const load = pollingLoad(
    url,
    clients,
    pollRequests(tasks),
    (n) => (sampler.requestsThisSecond = n),
  );
  let warmup: Awaited<ReturnType<typeof load>> | undefined;
  if (warmupS > 0) {
    console.error(`soak: ${clients} clients polling, ${warmupS} s of warm-up…`);
    warmup = await load(warmupS);
  }
  console.error(`soak: ${clients} clients polling for ${durationS} s (measured)…`);
  const { result, cpu } = await measuredRun(load, sampler, info.cpus);

  const mixAfter = await statusMix(url, tasks);
  const tasksHeldAfter = await tasksHeld(url);
  const exit = await stop(child, 'SIGTERM', 10_000);

  const figures = {
    settings,
    machine: info,
    createSeconds,
    tasksHeld: held,
    tasksHeldAfter,
    mixBefore,
    mixAfter,
    warmup,
    result,
    cpu,
    rssIdleMiB,
    samples: sampler.samples,
    trend: rssTrend(sampler.samples, durationS),
    exit,
  };
  const report = soakReport(figures);
  writeJson(out, report);
  console.log(soakSummary(figures, values.out));
  return report.targets.met ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  async (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    await sleep(0);
    process.exit(1);
  },
);
