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
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { busyCores, cpuSeconds, cpuTimes, sleep, stop, track, watchdog } from './lib/processes.ts';
import { fixed, machine, table, writeJson } from './lib/report.ts';

const rootDir = fileURLToPath(new URL('../', import.meta.url));
const LISTENING = /videotask mock listening on (http:\/\/\S+)/;

const usage = `Usage: npx tsx bench/soak.ts [options]
  --duration S      seconds of polling (default 60)
  --tasks N         tasks created before the polling starts (default 10000)
  --clients N       concurrent keep-alive clients (default 100)
  --speed N         the mock's clock speed (default 1: tasks stay alive about a minute)
  --warmup S        seconds of polling before the measured run (default 20; 0: none)
  --max-growth P    largest growth of the RSS floor after the warm-up, in % of its mean per minute, still "flat" (default 3)
  --out FILE        JSON results (default bench/results/soak.json)`;

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    tasks: { type: 'string', default: '10000' },
    clients: { type: 'string', default: '100' },
    speed: { type: 'string', default: '1' },
    warmup: { type: 'string', default: '20' },
    'max-growth': { type: 'string', default: '3' },
    out: { type: 'string', default: 'bench/results/soak.json' },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const positive = (name: string, raw: string): number => {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`--${name} wants a positive number, got "${raw}"`);
  return value;
};
const durationS = Math.round(positive('duration', values.duration));
const taskCount = Math.round(positive('tasks', values.tasks));
const clients = Math.round(positive('clients', values.clients));
const speed = positive('speed', values.speed);
const warmupS = Math.max(0, Number(values.warmup) || 0);
const maxGrowth = positive('max-growth', values['max-growth']);
const out = pathToFileURL(resolve(values.out));

// Built-in keys that may submit (sk-mock-broke has no quota), with a model each may use.
const OWNERS = [
  { key: 'sk-mock-alice', model: 'video-pro-v1' },
  { key: 'sk-mock-bob', model: 'video-lite-v1' },
  { key: 'sk-mock-vip', model: 'video-pro-v1' },
  { key: 'sk-mock-limited', model: 'video-lite-v1' },
] as const;

interface Sample {
  phase: 'warmup' | 'measured';
  /** Seconds since the measured run started (negative during the warm-up). */
  t: number;
  rssMiB: number;
  serverCpuPercent: number | undefined;
  requests: number;
}

function rssMiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (match === null) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

async function startMock(): Promise<{ child: ChildProcess; url: string }> {
  const child = track(
    spawn(
      process.execPath,
      [
        'bin/videotask.js',
        'mock',
        '--port',
        '0',
        '--host',
        '127.0.0.1',
        '--speed',
        String(speed),
        '--seed',
        '1',
      ],
      {
        cwd: rootDir,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ),
  );
  let output = '';
  child.stderr!.on(
    'data',
    (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-4000)),
  );
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the mock did not listen within 30 s:\n${output}`)),
      30_000,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-4000);
      const match = LISTENING.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        resolveUrl(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the mock exited with ${code} before listening:\n${output}`));
    });
  });
  child.stdout!.resume();
  return { child, url };
}

async function createTasks(url: string): Promise<{ id: string; key: string }[]> {
  const tasks: { id: string; key: string }[] = new Array(taskCount);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < taskCount; i = next++) {
      const owner = OWNERS[i % OWNERS.length]!;
      const response = await fetch(`${url}/v1/video/generations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: owner.model, prompt: `soak task ${i}` }),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await response.text();
      if (response.status !== 200)
        throw new Error(`submission ${i} answered ${response.status}: ${text}`);
      tasks[i] = { id: (JSON.parse(text) as { id: string }).id, key: owner.key };
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  return tasks;
}

/** Status of `count` tasks spread over all of them (both forms must agree on existing). */
async function statusMix(
  url: string,
  tasks: readonly { id: string; key: string }[],
  count = 200,
): Promise<Record<string, number>> {
  const mix: Record<string, number> = {};
  for (let i = 0; i < count; i++) {
    const { id, key } = tasks[Math.floor((i * tasks.length) / count)]!;
    const response = await fetch(`${url}/v1/videos/${id}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const body = (await response.json()) as { status?: string };
    const status = response.status === 200 ? (body.status ?? '?') : `HTTP ${response.status}`;
    mix[status] = (mix[status] ?? 0) + 1;
  }
  return mix;
}

/** Least-squares slope of y over t (per second). */
function slope(points: readonly { t: number; y: number }[]): number {
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

async function main(): Promise<number> {
  watchdog(durationS + 240, 'soak');
  const info = machine();
  console.error(`soak: starting the mock (speed ${speed})…`);
  const { child, url } = await startMock();
  const pid = child.pid!;
  const rssStartedMiB = rssMiB(pid);

  console.error(`soak: creating ${taskCount.toLocaleString('en')} tasks…`);
  const created0 = performance.now();
  const tasks = await createTasks(url);
  const createSeconds = (performance.now() - created0) / 1000;
  const health = (await (await fetch(`${url}/__mock/health`)).json()) as { tasks: number };
  if (health.tasks !== taskCount)
    throw new Error(`the mock holds ${health.tasks} tasks, expected ${taskCount}`);
  const mixBefore = await statusMix(url, tasks);

  const requests = tasks.flatMap(({ id, key }) => {
    const headers = { authorization: `Bearer ${key}` };
    return [
      { path: `/v1/videos/${id}`, headers },
      { path: `/v1/video/generations/${id}`, headers },
    ];
  });
  let cursor = 0;

  const samples: Sample[] = [];
  let perSecond = 0;
  const load = (seconds: number): Promise<autocannon.Result> =>
    new Promise((resolveResult, reject) => {
      const instance = autocannon(
        {
          url,
          connections: clients,
          duration: seconds,
          pipelining: 1,
          timeout: 10,
          requests: [
            {
              method: 'GET',
              setupRequest: (request) => {
                const next = requests[cursor++ % requests.length]!;
                return { ...request, path: next.path, headers: next.headers };
              },
            },
          ],
        },
        (error: unknown, result) => (error ? reject(error) : resolveResult(result)),
      );
      // autocannon emits the requests completed in each second (its typings omit the argument).
      (instance as unknown as NodeJS.EventEmitter).on('tick', (counter: { counter: number }) => {
        perSecond = counter.counter;
      });
    });

  let phase: Sample['phase'] = warmupS > 0 ? 'warmup' : 'measured';
  let measuredStart = performance.now() + warmupS * 1000; // re-set when the measured run starts
  let cpuBefore = cpuSeconds(pid);
  const sampler = setInterval(() => {
    const cpu = cpuSeconds(pid);
    samples.push({
      phase,
      t: Math.round((performance.now() - measuredStart) / 100) / 10,
      rssMiB: Math.round(rssMiB(pid) * 10) / 10,
      serverCpuPercent:
        cpu !== undefined && cpuBefore !== undefined
          ? Math.round((cpu - cpuBefore) * 100)
          : undefined,
      requests: perSecond,
    });
    cpuBefore = cpu;
  }, 1000);

  let warmup: autocannon.Result | undefined;
  if (warmupS > 0) {
    console.error(`soak: ${clients} clients polling, ${warmupS} s of warm-up…`);
    warmup = await load(warmupS);
  }
  console.error(`soak: ${clients} clients polling for ${durationS} s (measured)…`);
  phase = 'measured';
  measuredStart = performance.now();
  const machine0 = cpuTimes();
  const loader0 = process.cpuUsage();
  const cpu0 = cpuSeconds(pid);
  const result = await load(durationS);
  clearInterval(sampler);
  const wallS = (performance.now() - measuredStart) / 1000;
  const loader = process.cpuUsage(loader0);
  const busy = busyCores(machine0, cpuTimes(), info.cpus);
  const cpu1 = cpuSeconds(pid);
  const serverCpuPercent =
    cpu0 !== undefined && cpu1 !== undefined ? (100 * (cpu1 - cpu0)) / wallS : undefined;
  const loaderCpuPercent = (100 * (loader.user + loader.system)) / 1e6 / wallS;

  const mixAfter = await statusMix(url, tasks);
  const healthAfter = (await (await fetch(`${url}/__mock/health`)).json()) as { tasks: number };
  const exit = await stop(child, 'SIGTERM', 10_000);

  const steady = samples
    .filter((s) => s.phase === 'measured')
    .map((s) => ({ t: s.t, y: s.rssMiB }));
  const mean = steady.reduce((a, p) => a + p.y, 0) / Math.max(1, steady.length);
  const rawSlopeMiBPerMin = slope(steady) * 60;
  // The floor: the lowest sample of each 5 s window of the measured run, at the window's middle.
  const floors: { t: number; y: number }[] = [];
  for (let from = 0; from + 5 <= durationS + 0.5; from += 5) {
    const window = steady.filter((p) => p.t >= from && p.t < from + 5);
    if (window.length > 0) floors.push({ t: from + 2.5, y: Math.min(...window.map((p) => p.y)) });
  }
  const floorMean = floors.reduce((a, p) => a + p.y, 0) / Math.max(1, floors.length);
  const slopeMiBPerMin = slope(floors) * 60;
  const growthPercentPerMin = (100 * slopeMiBPerMin) / floorMean;
  const measured = samples.filter((s) => s.phase === 'measured');
  const first = measured[0];
  const middle = measured[Math.floor(measured.length / 2)];
  const last = samples.at(-1);
  const warmupErrors = warmup === undefined ? 0 : warmup.errors + warmup.non2xx;
  const errors = result.errors + result.non2xx + warmupErrors; // errors include timeouts
  const flat = Number.isFinite(growthPercentPerMin) && growthPercentPerMin <= maxGrowth;
  const exitedCleanly = exit.code === 0 && !exit.killed;

  const report = {
    benchmark: 'soak',
    date: new Date().toISOString(),
    machine: info,
    settings: {
      durationS,
      tasks: taskCount,
      clients,
      speed,
      warmupS,
      maxGrowthPercentPerMin: maxGrowth,
      paths: ['/v1/videos/{id}', '/v1/video/generations/{id}'],
      keys: OWNERS.map((o) => o.key),
    },
    setup: {
      createSeconds: Math.round(createSeconds * 10) / 10,
      tasksHeld: health.tasks,
      tasksHeldAfter: healthAfter.tasks,
      statusMixBefore: mixBefore,
      statusMixAfter: mixAfter,
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
            seconds: warmupS,
            requests: warmup.requests.total,
            reqPerSecMean: warmup.requests.average,
          },
    cpu: {
      serverPercent: serverCpuPercent,
      loaderPercent: loaderCpuPercent,
      otherPercent:
        busy === undefined || serverCpuPercent === undefined
          ? undefined
          : Math.max(0, busy * 100 - serverCpuPercent - loaderCpuPercent),
    },
    rssMiB: {
      idleBeforeTasks: Math.round(rssStartedMiB * 10) / 10,
      warmupStart: samples[0]?.rssMiB,
      start: first?.rssMiB,
      middle: middle?.rssMiB,
      end: last?.rssMiB,
      max: Math.max(...measured.map((s) => s.rssMiB)),
      floorsAfterWarmup: floors,
      floorSlopeMiBPerMin: Math.round(slopeMiBPerMin * 100) / 100,
      floorGrowthPercentPerMin: Math.round(growthPercentPerMin * 100) / 100,
      allSamplesSlopeMiBPerMin: Math.round(rawSlopeMiBPerMin * 100) / 100,
      allSamplesGrowthPercentPerMin: Math.round(((100 * rawSlopeMiBPerMin) / mean) * 100) / 100,
    },
    exit: { code: exit.code, signal: exit.signal, killed: exit.killed },
    targets: {
      zeroErrors: errors === 0,
      flatMemory: flat,
      exitedCleanly,
      met: errors === 0 && flat && exitedCleanly,
    },
    samples,
  };
  writeJson(out, report);

  console.log(
    `soak: ${taskCount.toLocaleString('en')} tasks, ${clients} clients, ${durationS} s measured after ${warmupS} s of warm-up (${info.cpus} cores, ${info.node})`,
  );
  console.log(
    table([
      ['measure', 'value'],
      ['requests', result.requests.total.toLocaleString('en')],
      ['req/s (mean ± sd)', `${fixed(result.requests.average)} ± ${fixed(result.requests.stddev)}`],
      [
        'latency p50 / p99 / max ms',
        `${result.latency.p50} / ${result.latency.p99} / ${result.latency.max}`,
      ],
      [
        'errors (conn / timeouts / non-2xx; warm-up)',
        `${result.errors} / ${result.timeouts} / ${result.non2xx}; ${warmupErrors}`,
      ],
      [
        'RSS MiB: idle / start / middle / end',
        `${fixed(rssStartedMiB, 1)} / ${fixed(first?.rssMiB, 1)} / ${fixed(middle?.rssMiB, 1)} / ${fixed(last?.rssMiB, 1)}`,
      ],
      [
        'RSS floor slope (measured run)',
        `${fixed(slopeMiBPerMin, 2)} MiB/min = ${fixed(growthPercentPerMin, 2)} %/min (flat ≤ ${maxGrowth}); all samples ${fixed(rawSlopeMiBPerMin, 2)} MiB/min`,
      ],
      [
        'CPU % server / loader / other',
        `${fixed(serverCpuPercent)} / ${fixed(loaderCpuPercent)} / ${fixed(report.cpu.otherPercent)}`,
      ],
      [
        'status mix before → after (200 sampled)',
        `${JSON.stringify(mixBefore)} → ${JSON.stringify(mixAfter)}`,
      ],
      [
        'mock exit after SIGTERM',
        `${String(exit.code ?? exit.signal)}${exit.killed ? ' (killed)' : ''}`,
      ],
    ]),
  );
  console.log(
    `targets: zero errors ${errors === 0 ? 'MET' : 'MISSED'} · flat memory ${flat ? 'MET' : 'MISSED'} · clean exit ${exitedCleanly ? 'MET' : 'MISSED'} → ${values.out}`,
  );
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
