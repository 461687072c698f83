// What `videotask proxy` costs (issue 34 item 1 and "Done when"), in one run:
//   throughput  wrk on a status query, straight to the mock and through the proxy, in alternating
//               order per round: the median per-round ratio proxy ÷ direct (target ≥ 0.5), and, for
//               reference, a bare node:http reverse proxy (no judging) and a TCP pipe (no HTTP at all:
//               the floor of any proxy here) measured the same way
//   latency     the same query one at a time (wrk -c1): the median added by the proxy (target ≤ 2 ms)
//   memory      many tasks and callers through the proxy (each task submitted and looked at): the
//               proxy's RSS and heap after each part, with its caps (tasks, callers) said
//
//   npx tsx bench/proxy.ts [--rounds 3] [--duration 5] [--connections 50] [--tasks 20000]
//        [--callers 200] [--max-tasks 2000] [--sources] [--out FILE]
//
// The mock and the proxy run as the package installs them: the compiled CLI (dist/, `npm run build`
// first); `--sources` runs this checkout's TypeScript through tsx instead (bin/videotask.js).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request, Agent, type RequestOptions } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchFlags } from './lib/cli-flags.ts';
import { count, positive } from './lib/cli-numbers.ts';
import { loadGenerator, type LoadGenerator, type LoadResult } from './lib/load-generator.ts';
import { authHeaders, model } from './lib/mock-api.ts';
import { cpuSeconds, runMain, stop, track, watchdog } from './lib/processes.ts';
import { fixed, machine, median, table, writeJson } from './lib/report.ts';
import { startMock, type Started } from './lib/throughput-servers.ts';

const TARGET_RATIO = 0.5;
const TARGET_ADDED_MS = 2;

const usage = `Usage: npx tsx bench/proxy.ts [options]
  --rounds N        throughput rounds, each loading direct, proxy and the bare proxy in turn (default 3)
  --duration S      measured seconds per load (default 5)
  --connections N   keep-alive connections of the throughput loads (default 50)
  --tasks N         tasks submitted through the proxy for the memory figure (default 20000)
  --callers N       API keys they are spread over (default 200)
  --max-tasks N     the proxy's --max-tasks in the memory run (default 2000): fewer than --tasks shows the cap
  --sources         run the checkout's sources through tsx, not the compiled CLI the package installs
  --out FILE        JSON results (default bench/results/proxy.json)`;

function config() {
  const values = benchFlags(
    { name: 'proxy', usage },
    {
      rounds: { type: 'string', default: '3' },
      duration: { type: 'string', default: '5' },
      connections: { type: 'string', default: '50' },
      tasks: { type: 'string', default: '20000' },
      callers: { type: 'string', default: '200' },
      'max-tasks': { type: 'string', default: '2000' },
      sources: { type: 'boolean', default: false },
    },
  );
  return {
    rounds: count('rounds', values.rounds),
    durationS: positive('duration', values.duration),
    connections: count('connections', values.connections),
    tasks: count('tasks', values.tasks),
    callers: count('callers', values.callers),
    maxTasks: count('max-tasks', values['max-tasks']),
    sources: values.sources,
    out: pathToFileURL(resolve(values.out)),
  };
}

type Config = ReturnType<typeof config>;
const rootDir = fileURLToPath(new URL('../', import.meta.url));

/**
 * The `videotask` command measured: the compiled CLI the package installs (dist/, built now from the
 * sources as they are), or with `--sources` the checkout's bin/videotask.js (TypeScript through tsx).
 */
function videotaskBin(sources: boolean): string {
  if (sources) return join(rootDir, 'bin', 'videotask.js');
  console.error('building the compiled CLI (npm run build)…');
  const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: rootDir, stdio: 'inherit' });
  if (build.status !== 0)
    throw new Error('npm run build failed: fix the build, or measure the sources with --sources');
  return join(rootDir, 'dist', 'cli', 'run.js');
}

/** `videotask COMMAND ARGS…` (`bin`) as a child (node --expose-gc); resolves with its URL once it listens. */
async function startCli(
  bin: string,
  command: 'proxy' | 'mock',
  args: readonly string[],
): Promise<{ url: string; child: ChildProcess }> {
  const child = track(
    spawn(process.execPath, ['--expose-gc', bin, command, '--port', '0', ...args], {
      cwd: rootDir,
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const listening = new RegExp(`videotask ${command} listening on (http://\\S+)`);
  const url = await new Promise<string>((ok, fail) => {
    let out = '';
    // The whole banner is read (a mock with many keys prints a long one): the line comes first.
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = listening.exec(out);
      if (match !== null) ok(match[1]!);
    });
    child.once('exit', (code) =>
      fail(new Error(`videotask ${command} exited with ${code} before listening`)),
    );
  });
  child.stdout!.resume();
  return { url, child };
}

const startProxy = (bin: string, upstream: string, args: readonly string[] = []) =>
  startCli(bin, 'proxy', ['--upstream', upstream, ...args]);

/** A bare reverse proxy (node:http, keep-alive, no judging): what any proxy in Node costs here. */
function startBareProxy(upstream: string): Promise<{ url: string; close: () => void }> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true, maxFreeSockets: 256 });
  const server = createServer((req, res) => {
    const out = request(
      {
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent,
      },
      (up) => {
        res.writeHead(up.statusCode!, up.headers);
        up.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      ok({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
    }),
  );
}

/**
 * A TCP pipe: each client connection paired with a connection of its own to the upstream, bytes
 * relayed both ways unread. No proxy that reads HTTP costs less.
 */
function startPipe(upstream: string): Promise<{ url: string; close: () => void }> {
  const target = new URL(upstream);
  const server = createNetServer({ noDelay: true }, (client) => {
    const out = connect({ host: target.hostname, port: Number(target.port), noDelay: true });
    client.pipe(out).pipe(client);
    client.on('error', () => out.destroy());
    out.on('error', () => client.destroy());
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      ok({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
    }),
  );
}

/** One load's answers, and the CPU the forwarding process spent on them (µs per answer). */
type Load = LoadResult & { readonly forwarderCpuUsPerAnswer: number | undefined };

interface Round {
  readonly direct: Load;
  readonly proxy: Load;
  readonly bare: Load;
  readonly pipe: Load;
}

/** CPU seconds so far of the process that answers or forwards: a child by pid, or this process. */
const cpuOf = (pid: number | undefined): number | undefined => {
  if (pid !== undefined) return cpuSeconds(pid);
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

interface Target {
  readonly url: string;
  /** The process that answers (direct) or forwards; undefined: this one (the bare proxy). */
  readonly pid: number | undefined;
}

/**
 * The load on one target, with the CPU its answering or forwarding process spent per answer: what a
 * round's req/s cannot show on a machine whose cores the load generator, the mock and the proxy share
 * (the proxy's capacity on a core of its own is the mock's CPU per answer ÷ the proxy's).
 */
async function load(
  wrk: LoadGenerator,
  target: Target,
  path: string,
  settings: Parameters<LoadGenerator['run']>[1],
): Promise<Load> {
  const before = cpuOf(target.pid);
  const result = await wrk.run(`${target.url}${path}`, settings);
  const after = cpuOf(target.pid);
  const used = before === undefined || after === undefined ? undefined : after - before;
  const perAnswer =
    used === undefined || result.requests === 0 ? undefined : (used * 1e6) / result.requests;
  return { ...result, forwarderCpuUsPerAnswer: perAnswer };
}

async function throughput(
  cfg: Config,
  wrk: LoadGenerator,
  mock: Started,
  targets: { readonly proxy: Target; readonly bare: Target; readonly pipe: Target },
): Promise<Round[]> {
  const settings = { seconds: cfg.durationS, connections: cfg.connections, headers: authHeaders };
  const byName: Record<keyof Round, Target> = {
    direct: { url: mock.url, pid: mock.child.pid },
    ...targets,
  };
  const rounds: Round[] = [];
  // Unmeasured first: the proxy compiles its judges' code on its first requests.
  for (const target of Object.values(byName))
    await wrk.run(`${target.url}${mock.path}`, { ...settings, seconds: 2 });
  for (let i = 0; i < cfg.rounds; i++) {
    const order: (keyof Round)[] =
      i % 2 === 0 ? ['direct', 'proxy', 'bare', 'pipe'] : ['pipe', 'bare', 'proxy', 'direct'];
    const round: Partial<Record<keyof Round, Load>> = {};
    for (const which of order) round[which] = await load(wrk, byName[which], mock.path, settings);
    rounds.push(round as Round);
    console.error(
      `round ${i + 1}: direct ${fixed(round.direct!.reqPerSec)} req/s, proxy ${fixed(round.proxy!.reqPerSec)}, ` +
        `bare proxy ${fixed(round.bare!.reqPerSec)}, pipe ${fixed(round.pipe!.reqPerSec)}`,
    );
  }
  return rounds;
}

async function latency(cfg: Config, wrk: LoadGenerator, mock: Started, proxy: string) {
  const settings = { seconds: cfg.durationS, connections: 1, headers: authHeaders };
  const direct = await wrk.run(`${mock.url}${mock.path}`, settings);
  const through = await wrk.run(`${proxy}${mock.path}`, settings);
  return { direct, proxy: through, addedP50Ms: through.latencyP50Ms - direct.latencyP50Ms };
}

/** The proxy's own account of its memory (GET /__proxy/status). */
async function proxyMemory(
  url: string,
): Promise<{ rssMiB: number; heapMiB: number; tasks: number; callers: number }> {
  const status = (await (await fetch(`${url}/__proxy/status`)).json()) as {
    memory: {
      rssBytes: number;
      heapUsedBytes: number;
      deployment: { tasks: number; callers: number };
    };
  };
  const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
  const { memory } = status;
  return { rssMiB: mib(memory.rssBytes), heapMiB: mib(memory.heapUsedBytes), ...memory.deployment };
}

/** Keys for `callers` users of the mock (its --config), so each caller is one the mock serves. */
function callerConfig(callers: number): { file: string; keys: string[] } {
  const keys = Array.from(
    { length: callers },
    (_, i) => `sk-bench-caller-${String(i).padStart(6, '0')}-key`,
  );
  const file = join(mkdtempSync(join(tmpdir(), 'videotask-bench-proxy-')), 'config.json');
  writeFileSync(
    file,
    JSON.stringify({ tokens: keys.map((key, i) => ({ key, user: `user${i}` })) }),
  );
  return { file, keys };
}

/**
 * `tasks` tasks through the proxy, each submitted by one of the callers and looked at twice, 32 at a
 * time; the proxy's memory after each quarter.
 */
async function memoryRun(
  cfg: Config,
  bin: string,
): Promise<{ after: number; rssMiB: number; heapMiB: number; tasks: number; callers: number }[]> {
  const { file, keys } = callerConfig(cfg.callers);
  const mock = await startCli(bin, 'mock', ['--config', file]);
  const proxy = await startProxy(bin, mock.url, [
    '--max-tasks',
    String(cfg.maxTasks),
    '--max-callers',
    String(cfg.callers),
  ]);
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const samples = [];
  let next = 0;
  const one = async (i: number) => {
    const headers = {
      authorization: `Bearer ${keys[i % keys.length]}`,
      'content-type': 'application/json',
    };
    const body = JSON.stringify({ model, prompt: `task ${i}` });
    const answer = await call(`${proxy.url}/v1/videos`, { method: 'POST', headers, agent }, body);
    const id = (JSON.parse(answer) as { id?: string }).id;
    if (id === undefined)
      throw new Error(`the submission through the proxy failed: ${answer.slice(0, 200)}`);
    for (let look = 0; look < 2; look++)
      await call(`${proxy.url}/v1/videos/${id}`, { method: 'GET', headers, agent });
  };
  for (const quarter of [1, 2, 3, 4]) {
    const until = Math.round((cfg.tasks * quarter) / 4);
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        for (let i = next++; i < until; i = next++) await one(i);
      }),
    );
    next = until;
    samples.push({ after: until, ...(await proxyMemory(proxy.url)) });
    console.error(`memory after ${until} tasks: ${JSON.stringify(samples.at(-1))}`);
  }
  agent.destroy();
  await stop(proxy.child);
  await stop(mock.child);
  return samples;
}

/** One request over `options.agent`'s kept-alive connections; its answer's text. */
function call(url: string, options: RequestOptions, body?: string): Promise<string> {
  return new Promise((ok, fail) => {
    const out = request(url, options, (res) => {
      let text = '';
      res
        .setEncoding('utf8')
        .on('data', (c: string) => (text += c))
        .on('end', () => ok(text));
    });
    out.on('error', fail);
    out.end(body);
  });
}

function printRounds(rounds: readonly Round[]): void {
  console.log(
    table([
      [
        'round',
        'direct req/s',
        'proxy req/s',
        'bare proxy req/s',
        'pipe req/s',
        'proxy ÷ direct',
        'bare ÷ direct',
        'pipe ÷ direct',
      ],
      ...rounds.map((r, i) => [
        String(i + 1),
        fixed(r.direct.reqPerSec),
        fixed(r.proxy.reqPerSec),
        fixed(r.bare.reqPerSec),
        fixed(r.pipe.reqPerSec),
        fixed(r.proxy.reqPerSec / r.direct.reqPerSec, 2),
        fixed(r.bare.reqPerSec / r.direct.reqPerSec, 2),
        fixed(r.pipe.reqPerSec / r.direct.reqPerSec, 2),
      ]),
    ]),
  );
}

async function main(): Promise<number> {
  const cfg = config();
  watchdog(1800, 'bench/proxy.ts');
  const wrk = await loadGenerator('wrk');
  const bin = videotaskBin(cfg.sources);
  const mock = await startMock(1, [], bin);
  const proxy = await startProxy(bin, mock.url);
  const bare = await startBareProxy(mock.url);
  const pipe = await startPipe(mock.url);
  const rounds = await throughput(cfg, wrk, mock, {
    proxy: { url: proxy.url, pid: proxy.child.pid },
    bare: { url: bare.url, pid: undefined },
    pipe: { url: pipe.url, pid: undefined },
  });
  const light = await latency(cfg, wrk, mock, proxy.url);
  bare.close();
  pipe.close();
  await stop(proxy.child);
  await mock.stop();
  const memory = await memoryRun(cfg, bin);
  const figures = summarize(cfg, { rounds, light, memory });
  writeJson(cfg.out, {
    machine: machine(),
    config: { ...cfg, out: undefined },
    rounds,
    ...figures,
    latency: light,
    memory,
  });
  return 0;
}

/** Prints the rounds and the figures (the medians of the rounds); returns the figures. */
function summarize(
  cfg: Config,
  run: {
    rounds: readonly Round[];
    light: Awaited<ReturnType<typeof latency>>;
    memory: Awaited<ReturnType<typeof memoryRun>>;
  },
) {
  const { rounds, light, memory } = run;
  const ratio = median(rounds.map((r) => r.proxy.reqPerSec / r.direct.reqPerSec));
  const bareRatio = median(rounds.map((r) => r.bare.reqPerSec / r.direct.reqPerSec));
  const pipeRatio = median(rounds.map((r) => r.pipe.reqPerSec / r.direct.reqPerSec));
  const cpu = (which: keyof Round) =>
    median(rounds.flatMap((r) => r[which].forwarderCpuUsPerAnswer ?? []));
  // On a core of its own, the proxy answers as many per second as its CPU per answer allows.
  const capacity = {
    proxy: cpu('direct') / cpu('proxy'),
    bare: cpu('direct') / cpu('bare'),
    pipe: cpu('direct') / cpu('pipe'),
  };
  console.log(
    cfg.sources
      ? 'the mock and the proxy: the sources through tsx (--sources)'
      : 'the mock and the proxy: the compiled CLI (dist/), as the package installs it',
  );
  printRounds(rounds);
  console.log(
    `\nthroughput: proxy ÷ direct ${fixed(ratio, 2)} (target ≥ ${TARGET_RATIO}; ` +
      `a bare node:http proxy: ${fixed(bareRatio, 2)}; a TCP pipe: ${fixed(pipeRatio, 2)})` +
      `\nCPU per answer: the mock ${fixed(cpu('direct'), 1)} µs, the proxy ${fixed(cpu('proxy'), 1)} µs, ` +
      `the bare proxy ${fixed(cpu('bare'), 1)} µs, the pipe ${fixed(cpu('pipe'), 1)} µs: on a core of its ` +
      `own the proxy keeps ${fixed(capacity.proxy, 2)} of the mock's rate (the bare proxy ` +
      `${fixed(capacity.bare, 2)}, the pipe ${fixed(capacity.pipe, 2)})` +
      `\nlatency one at a time: direct p50 ${fixed(light.direct.latencyP50Ms, 2)} ms, proxy p50 ` +
      `${fixed(light.proxy.latencyP50Ms, 2)} ms: +${fixed(light.addedP50Ms, 2)} ms (target ≤ ${TARGET_ADDED_MS} ms)` +
      `\nmemory: ${memory.map((m) => `${m.after} tasks ${m.rssMiB} MiB RSS, heap ${m.heapMiB} MiB`).join('; ')} ` +
      `(--max-tasks ${cfg.maxTasks}, ${cfg.callers} callers)`,
  );
  return {
    ratio,
    bareRatio,
    pipeRatio,
    cpuUsPerAnswer: {
      direct: cpu('direct'),
      proxy: cpu('proxy'),
      bare: cpu('bare'),
      pipe: cpu('pipe'),
    },
    capacity,
  };
}

runMain(main);
