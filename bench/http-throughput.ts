// HTTP throughput of the mock against two references, in one run, one after the other, same settings:
//   bare   a bare node:http server answering a fixed body: the bytes of a real mock answer to
//          GET /v1/videos/{id} (the ceiling for any Node server on this machine)
//   mock   the mock (startMockServer) with one submitted task, GET /v1/videos/{id}
//   prism  Prism 5.14.2 mocking spec/openapi.yaml, GET /v1/videos/task_x
// Optional (--only …,bare-spin): the bare server busy-waiting --spin-us µs per request, a calibration
// of how much throughput a little work per request costs on this machine.
// Each server runs in its own child process; autocannon runs in this process (so on 2 cores the
// server and the load generator get one core each). Every request carries the Authorization header.
//
//   npx tsx bench/http-throughput.ts [--duration 10] [--warmup 2] [--connections 50]
//                                    [--only bare,mock,prism] [--prism-log warn] [--seed 1]
//                                    [--out bench/results/http-throughput.json] [--strict]
//                                    [--quiet-wait S] [--spin-us 5] [--cpu-prof DIR]
import autocannon from 'autocannon';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { cpus } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { authHeaders, model } from './lib/mock-api.ts';
import {
  busyCores,
  cpuSeconds,
  cpuTimes,
  freePort,
  machineBusyPercent,
  sleep,
  stop,
  track,
  waitForExit,
  waitForHttp,
  waitForQuiet,
  watchdog,
  runMain,
} from './lib/processes.ts';
import { fixed, machine, table, writeJson, type MachineInfo } from './lib/report.ts';
import type { ChildMessage, ParentMessage } from './lib/server-child.ts';

const root = new URL('../', import.meta.url);
const rootDir = fileURLToPath(root);
const serverChild = fileURLToPath(new URL('./lib/server-child.ts', import.meta.url));
const peersDir = fileURLToPath(new URL('./peers/', import.meta.url));
const prismEntry = fileURLToPath(
  new URL('./peers/node_modules/@stoplight/prism-cli/dist/index.js', import.meta.url),
);
const specPath = fileURLToPath(new URL('../spec/openapi.yaml', import.meta.url));
const targetRatio = 0.5;
const cores = cpus().length;
const targetNames = ['bare', 'bare-spin', 'mock', 'prism'] as const;
const defaultTargets: readonly TargetName[] = ['bare', 'mock', 'prism'];
type TargetName = (typeof targetNames)[number];

const usage = `Usage: npx tsx bench/http-throughput.ts [options]
  --duration S      measured seconds per server (default 10)
  --warmup S        warm-up seconds per server, not measured (default 2)
  --connections N   autocannon connections (default 50)
  --only LIST       comma-separated list of bare,mock,prism,bare-spin (default bare,mock,prism)
  --spin-us N       µs the bare-spin server busy-waits per request (default 5)
  --prism-log LEVEL Prism's --verboseLevel (default warn: no per-request log lines)
  --seed N          the mock's seed (default 1)
  --out FILE        where to write the JSON results (default bench/results/http-throughput.json)
  --strict          exit 1 when the mock/bare ratio is below ${targetRatio}
  --quiet-wait S    before each server, wait up to S s for the machine to be under 15% busy (default 0: no wait)
  --cpu-prof DIR    write a V8 CPU profile of the bare and mock server children to DIR (slows them)`;

interface Config {
  durationS: number;
  warmupS: number;
  connections: number;
  only: TargetName[];
  prismLog: string;
  seed: number;
  out: URL;
  strict: boolean;
  cpuProfDir: string | undefined;
  spinUs: number;
  quietWaitS: number;
}

function positive(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`--${name} wants a positive number, got "${raw}"`);
  return value;
}

function config(): Config | undefined {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '50' },
      only: { type: 'string', default: defaultTargets.join(',') },
      'spin-us': { type: 'string', default: '5' },
      'quiet-wait': { type: 'string', default: '0' },
      'prism-log': { type: 'string', default: 'warn' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string', default: 'bench/results/http-throughput.json' },
      strict: { type: 'boolean', default: false },
      'cpu-prof': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(usage);
    return undefined;
  }
  const only = values.only
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const name of only) {
    if (!(targetNames as readonly string[]).includes(name))
      throw new Error(`--only: unknown server "${name}"`);
  }
  return {
    durationS: positive('duration', values.duration),
    warmupS: Number(values.warmup) >= 0 ? Number(values.warmup) : 2,
    connections: Math.round(positive('connections', values.connections)),
    only: targetNames.filter((n) => only.includes(n)),
    prismLog: values['prism-log'],
    seed: Number(values.seed),
    out: pathToFileURL(resolve(values.out)),
    strict: values.strict,
    spinUs: positive('spin-us', values['spin-us']),
    quietWaitS: Math.max(0, Number(values['quiet-wait']) || 0),
    cpuProfDir: values['cpu-prof'] === undefined ? undefined : resolve(values['cpu-prof']),
  };
}

// ---------------------------------------------------------------- servers

interface Started {
  url: string;
  path: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Forks bench/lib/server-child.ts (through tsx) and waits for its ready message. */
let childExecArgv: string[] = ['--import', 'tsx'];

async function forkServer(args: string[]): Promise<Started> {
  const child = track(
    fork(serverChild, args, {
      cwd: rootDir,
      execArgv: childExecArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  const ready = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server child not ready within 30 s')), 30_000);
    child.on('message', (message: ChildMessage) => {
      clearTimeout(timer);
      if (message.type === 'ready') resolve(message.url);
      else reject(new Error(message.message));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server child exited with code ${code} before it was ready`));
    });
  }).catch(async (error: unknown) => {
    await stop(child, 'SIGKILL');
    throw error;
  });
  return {
    url: ready,
    path: '/',
    child,
    stop: async () => {
      if (child.connected) child.send({ type: 'stop' } satisfies ParentMessage);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await waitForExit(child);
      clearTimeout(timer);
    },
  };
}

interface Answer {
  status: number;
  contentType: string;
  body: Buffer;
}

async function get(url: string): Promise<Answer> {
  const response = await fetch(url, { headers: authHeaders, signal: AbortSignal.timeout(5000) });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    body: Buffer.from(await response.arrayBuffer()),
  };
}

/** Submits one task to a running mock and returns the path that queries it. */
async function submitTask(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/video/generations`, {
    method: 'POST',
    headers: { ...authHeaders, 'content-type': 'application/json' },
    body: JSON.stringify({ model, prompt: 'a kite' }),
    signal: AbortSignal.timeout(5000),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`submit answered ${response.status}: ${text}`);
  const parsed: unknown = JSON.parse(text);
  const id =
    typeof parsed === 'object' && parsed !== null ? (parsed as { id?: unknown }).id : undefined;
  if (typeof id !== 'string') throw new Error(`submit answer has no string id: ${text}`);
  return `/v1/videos/${encodeURIComponent(id)}`;
}

async function startMock(seed: number): Promise<Started> {
  const started = await forkServer(['mock', String(seed)]);
  try {
    return { ...started, path: await submitTask(started.url) };
  } catch (error) {
    await started.stop();
    throw error;
  }
}

/** Installs bench/peers (Prism) on first use; false (with the reason printed) when it cannot. */
async function ensurePrism(): Promise<boolean> {
  if (existsSync(prismEntry)) return true;
  console.error(
    'Prism is not installed: running `npm ci --prefix bench/peers` (benchmark-only, once)…',
  );
  const npm = track(
    spawn('npm', ['ci', '--prefix', peersDir, '--no-audit', '--no-fund'], {
      cwd: rootDir,
      stdio: ['ignore', 2, 2],
    }),
  );
  const timer = setTimeout(() => npm.kill('SIGKILL'), 300_000);
  const exit = await waitForExit(npm).catch(() => ({ code: null, signal: null }));
  clearTimeout(timer);
  if (exit.code === 0 && existsSync(prismEntry)) return true;
  console.error(
    `Prism install failed (exit ${String(exit.code ?? exit.signal)}): skipping the Prism run.`,
  );
  return false;
}

async function startPrism(logLevel: string): Promise<Started> {
  const port = await freePort();
  const child = track(
    spawn(
      process.execPath,
      [prismEntry, 'mock', specPath, '-p', String(port), '-h', '127.0.0.1', '-v', logLevel],
      {
        cwd: rootDir,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ),
  );
  // Drain its output (a full pipe would stall it) and keep the tail for error messages.
  let tail = '';
  const keep = (chunk: Buffer): void => {
    tail = (tail + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const path = '/v1/videos/task_x';
  try {
    await waitForHttp(`${url}${path}`, 60_000, child, authHeaders);
  } catch (error) {
    await stop(child, 'SIGKILL');
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${tail}`);
  }
  return {
    url,
    path,
    child,
    stop: async () => {
      await stop(child, 'SIGTERM', 5000);
    },
  };
}

// ---------------------------------------------------------------- load

interface Measured {
  name: TargetName;
  url: string;
  path: string;
  /** One answer before the warm-up and one after the measured run (the mock's task moves on in real time). */
  answerBefore: AnswerSummary;
  answerAfter: AnswerSummary;
  reqPerSecMean: number;
  reqPerSecStddev: number;
  latencyMeanMs: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  bytesPerResponse: number;
  serverCpuPercent: number | undefined;
  loaderCpuPercent: number;
  requestsPerServerCpuSecond: number | undefined;
  /** CPU used by everything else on the machine during the measured run, in % of one core: noise. */
  otherCpuPercent: number | undefined;
  /** Share of both cores busy just before this server started (others' load: above ~15% be wary). */
  machineBusyBeforePercent?: number;
}

interface AnswerSummary {
  status: number;
  bytes: number;
  /** The task's `status` field, when the body is a JSON task. */
  taskStatus?: string;
}

function summarize(answer: Answer): AnswerSummary {
  const out: AnswerSummary = { status: answer.status, bytes: answer.body.byteLength };
  try {
    const parsed: unknown = JSON.parse(answer.body.toString('utf8'));
    const status =
      typeof parsed === 'object' && parsed !== null
        ? (parsed as { status?: unknown }).status
        : undefined;
    if (typeof status === 'string') out.taskStatus = status;
  } catch {
    // not JSON: no task status
  }
  return out;
}

interface Skipped {
  name: TargetName;
  skipped: string;
}

function load(url: string, seconds: number, connections: number): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections,
    duration: seconds,
    pipelining: 1,
    timeout: 10,
    headers: { ...authHeaders },
  });
}

async function measure(name: TargetName, server: Started, cfg: Config): Promise<Measured> {
  const target = `${server.url}${server.path}`;
  const answer = await get(target);
  if (cfg.warmupS > 0) await load(target, cfg.warmupS, cfg.connections);
  const cpu0 = cpuSeconds(server.child.pid);
  const machine0 = cpuTimes();
  const loader0 = process.cpuUsage();
  const wall0 = performance.now();
  const result = await load(target, cfg.durationS, cfg.connections);
  const wallS = (performance.now() - wall0) / 1000;
  const loader = process.cpuUsage(loader0);
  const cpu1 = cpuSeconds(server.child.pid);
  const busy = busyCores(machine0, cpuTimes(), cores);
  const serverCpuS = cpu0 !== undefined && cpu1 !== undefined ? cpu1 - cpu0 : undefined;
  const after = await get(target);
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {}))
    statusCodes[code] = stat.count ?? 0;
  const responses = result.requests.total;
  const serverCpuPercent = serverCpuS === undefined ? undefined : (100 * serverCpuS) / wallS;
  const loaderCpuPercent = (100 * (loader.user + loader.system)) / 1e6 / wallS;
  const otherCpuPercent =
    busy === undefined || serverCpuPercent === undefined
      ? undefined
      : Math.max(0, 100 * busy - serverCpuPercent - loaderCpuPercent);
  return {
    name,
    url: server.url,
    path: server.path,
    answerBefore: summarize(answer),
    answerAfter: summarize(after),
    reqPerSecMean: result.requests.mean,
    reqPerSecStddev: result.requests.stddev,
    latencyMeanMs: result.latency.mean,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    requests: responses,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
    bytesPerResponse: responses > 0 ? result.throughput.total / responses : 0,
    serverCpuPercent,
    loaderCpuPercent,
    otherCpuPercent,
    requestsPerServerCpuSecond:
      serverCpuS === undefined || serverCpuS <= 0 ? undefined : responses / serverCpuS,
  };
}

// ---------------------------------------------------------------- main

/** Bytes of a real mock answer to GET /v1/videos/{id}, from a short-lived mock. */
async function probeMockAnswer(seed: number): Promise<Answer> {
  const mock = await startMock(seed);
  try {
    const answer = await get(`${mock.url}${mock.path}`);
    if (answer.status !== 200)
      throw new Error(
        `GET ${mock.path} answered ${answer.status}: ${answer.body.toString('utf8')}`,
      );
    return answer;
  } finally {
    await mock.stop();
  }
}

/** Used only when the mock cannot run: the spec's example task (for trying the harness out). */
const fallbackAnswer: Answer = {
  status: 200,
  contentType: 'application/json',
  body: Buffer.from(
    '{"id":"task_Q2x7rB0pV4mN8sK1dF6hJ3gL9tY5wE2a","task_id":"task_Q2x7rB0pV4mN8sK1dF6hJ3gL9tY5wE2a","object":"video","model":"video-pro-v1","status":"queued","progress":0,"created_at":1795392000}',
  ),
};

interface Report {
  benchmark: 'http-throughput';
  date: string;
  machine: MachineInfo;
  config: {
    durationS: number;
    warmupS: number;
    connections: number;
    pipelining: 1;
    prismLog: string;
    seed: number;
    spinUs: number;
  };
  bareBody: { bytes: number; from: 'mock' | 'fallback'; contentType: string };
  results: (Measured | Skipped)[];
  ratios: {
    mockToBare?: number;
    prismToBare?: number;
    mockToPrism?: number;
    mockToBareServerCpu?: number;
    bareSpinToBare?: number;
  };
  target: { mockToBareAtLeast: number; met?: boolean };
}

function isMeasured(r: Measured | Skipped | undefined): r is Measured {
  return r !== undefined && !('skipped' in r);
}

async function main(): Promise<number> {
  const cfg = config();
  if (cfg === undefined) return 0;
  const host = machine(); // before any load of ours, for its load average
  if (cfg.cpuProfDir !== undefined)
    childExecArgv = [...childExecArgv, '--cpu-prof', '--cpu-prof-dir', cfg.cpuProfDir];
  watchdog(
    cfg.only.length * (cfg.warmupS + cfg.durationS + 90 + cfg.quietWaitS) + 420,
    'http-throughput',
  );

  // 1. The bare server's body: a real mock answer (fallback: the spec's example, if the mock fails).
  let bareBody = fallbackAnswer;
  let bodyFrom: 'mock' | 'fallback' = 'fallback';
  let mockProblem: string | undefined;
  try {
    bareBody = await probeMockAnswer(cfg.seed);
    bodyFrom = 'mock';
  } catch (error) {
    mockProblem = error instanceof Error ? error.message : String(error);
    console.error(
      `The mock cannot run (${mockProblem.split('\n')[0]}); the bare body is the spec's example task.`,
    );
  }
  console.error(`Answer to size the bare server: ${bareBody.body.byteLength} bytes (${bodyFrom}).`);

  const results: (Measured | Skipped)[] = [];
  for (const name of cfg.only) {
    let server: Started | undefined;
    const busyBefore =
      cfg.quietWaitS > 0
        ? await waitForQuiet(15, cfg.quietWaitS, name)
        : await machineBusyPercent(500);
    try {
      if (name === 'bare' || name === 'bare-spin') {
        const spin = name === 'bare-spin' ? String(cfg.spinUs) : '0';
        server = await forkServer([
          'bare',
          bareBody.body.toString('base64'),
          bareBody.contentType || 'application/json',
          spin,
        ]);
      } else if (name === 'mock') {
        if (mockProblem !== undefined) {
          results.push({
            name,
            skipped: `mock not available: ${mockProblem.split('\n')[0] ?? ''}`,
          });
          continue;
        }
        server = await startMock(cfg.seed);
      } else {
        if (!(await ensurePrism())) {
          results.push({
            name,
            skipped: 'Prism could not be installed (npm ci --prefix bench/peers failed)',
          });
          continue;
        }
        server = await startPrism(cfg.prismLog);
      }
      console.error(
        `${name}: ${server.url}${server.path} — warm-up ${cfg.warmupS} s, then ${cfg.durationS} s measured…`,
      );
      const measured = await measure(name, server, cfg);
      if (busyBefore !== undefined) measured.machineBusyBeforePercent = Math.round(busyBefore);
      results.push(measured);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`${name}: failed: ${message}`);
      results.push({ name, skipped: `failed: ${message.split('\n')[0] ?? ''}` });
    } finally {
      await server?.stop();
    }
    await sleep(1000); // let the port and the CPU settle before the next server
  }

  const byName = (n: TargetName): Measured | undefined => {
    const r = results.find((x) => x.name === n);
    return isMeasured(r) ? r : undefined;
  };
  const bare = byName('bare');
  const mock = byName('mock');
  const prism = byName('prism');
  const ratio = (a: number | undefined, b: number | undefined): number | undefined =>
    a === undefined || b === undefined || b === 0 ? undefined : a / b;
  const ratios: Report['ratios'] = {};
  const setRatio = (key: keyof Report['ratios'], value: number | undefined): void => {
    if (value !== undefined) ratios[key] = value;
  };
  setRatio('mockToBare', ratio(mock?.reqPerSecMean, bare?.reqPerSecMean));
  setRatio('prismToBare', ratio(prism?.reqPerSecMean, bare?.reqPerSecMean));
  setRatio('mockToPrism', ratio(mock?.reqPerSecMean, prism?.reqPerSecMean));
  setRatio(
    'mockToBareServerCpu',
    ratio(mock?.requestsPerServerCpuSecond, bare?.requestsPerServerCpuSecond),
  );
  setRatio('bareSpinToBare', ratio(byName('bare-spin')?.reqPerSecMean, bare?.reqPerSecMean));

  const label = (name: TargetName): string =>
    name === 'bare-spin' ? `bare+${cfg.spinUs}µs` : name;
  const rows: string[][] = [
    [
      'server',
      'req/s mean',
      '±sd',
      'p50 ms',
      'p99 ms',
      'requests',
      'errors',
      'non-2xx',
      'B/resp',
      'server CPU%',
      'loader CPU%',
      'other CPU%',
      'req/CPU-s',
      'vs bare',
    ],
  ];
  for (const r of results) {
    if (!isMeasured(r)) continue;
    rows.push([
      label(r.name),
      fixed(r.reqPerSecMean),
      fixed(r.reqPerSecStddev),
      fixed(r.latencyP50Ms, 1),
      fixed(r.latencyP99Ms, 1),
      String(r.requests),
      String(r.errors),
      String(r.non2xx),
      fixed(r.bytesPerResponse),
      fixed(r.serverCpuPercent),
      fixed(r.loaderCpuPercent),
      fixed(r.otherCpuPercent),
      fixed(r.requestsPerServerCpuSecond),
      fixed(ratio(r.reqPerSecMean, bare?.reqPerSecMean), 2),
    ]);
  }
  const met = ratios.mockToBare === undefined ? undefined : ratios.mockToBare >= targetRatio;
  console.log(
    `\nHTTP throughput — ${cfg.connections} connections, ${cfg.warmupS} s warm-up + ${cfg.durationS} s each, ` +
      `GET with Authorization; servers in child processes, autocannon in this one (${host.cpus} cores)\n`,
  );
  console.log(table(rows));
  for (const r of results) if (!isMeasured(r)) console.log(`${r.name}: skipped — ${r.skipped}`);
  console.log('');
  console.log(
    `mock / bare: ${fixed(ratios.mockToBare, 2)} (target ≥ ${targetRatio}: ${met === undefined ? 'not measured' : met ? 'met' : 'MISSED'})` +
      `   prism / bare: ${fixed(ratios.prismToBare, 2)}   mock / prism: ${fixed(ratios.mockToPrism, 2)}` +
      `   mock / bare per server CPU-second: ${fixed(ratios.mockToBareServerCpu, 2)}` +
      (ratios.bareSpinToBare === undefined
        ? ''
        : `   bare+${cfg.spinUs}µs / bare: ${fixed(ratios.bareSpinToBare, 2)}`),
  );
  for (const r of results) {
    if (isMeasured(r) && r.otherCpuPercent !== undefined && r.otherCpuPercent > 15) {
      console.log(
        `warning: other processes used ${fixed(r.otherCpuPercent)}% of a core during the ${r.name} run: its figures are low; run again on a quiet machine`,
      );
    }
  }
  for (const r of results) {
    if (
      isMeasured(r) &&
      (r.errors > 0 ||
        r.non2xx > 0 ||
        r.answerBefore.status !== 200 ||
        r.answerAfter.status !== 200)
    ) {
      console.log(
        `note: ${r.name} answered ${JSON.stringify(r.statusCodes)}, ${r.errors} errors (${r.timeouts} timeouts)`,
      );
    }
  }

  const report: Report = {
    benchmark: 'http-throughput',
    date: new Date().toISOString(),
    machine: host,
    config: {
      durationS: cfg.durationS,
      warmupS: cfg.warmupS,
      connections: cfg.connections,
      pipelining: 1,
      prismLog: cfg.prismLog,
      seed: cfg.seed,
      spinUs: cfg.spinUs,
    },
    bareBody: {
      bytes: bareBody.body.byteLength,
      from: bodyFrom,
      contentType: bareBody.contentType,
    },
    results,
    ratios,
    target:
      met === undefined
        ? { mockToBareAtLeast: targetRatio }
        : { mockToBareAtLeast: targetRatio, met },
  };
  writeJson(cfg.out, report);
  console.log(`\nwritten: ${fileURLToPath(cfg.out)}`);
  return cfg.strict && met === false ? 1 : 0;
}

runMain(main);
