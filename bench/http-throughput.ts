// HTTP throughput of `videotask mock` against a bare node:http server answering the same bytes, in one run:
//   mock   `node bin/videotask.js mock --port 0 --seed N`, GET /v1/videos/{id} of a task that stays in_progress
//   bare   node:http answering the mock's own answer (headers and body) to every request: the ceiling
//   host   (--host) the mock's node host answering those bytes in place of its core: host ÷ bare is
//          what the host costs, mock ÷ host what the core costs
//   prism  (--prism) Prism 5.14.2 mocking spec/openapi.yaml, measured once after the rounds
// The servers run for the whole benchmark, each in a child process; rounds alternate their order
// (bare→mock, mock→bare, …) so the machine's drift hits each. The load generator is wrk (installed
// with apt-get when missing; autocannon only as a labelled fallback). Reported: every sample, the
// median req/s and p99 per server, and the median of the per-round mock/bare ratios.
//
//   npx tsx bench/http-throughput.ts [--rounds 5] [--duration 5] [--warmup 1] [--connections 50]
//        [--seed 1] [--quiet-wait S] [--host] [--prism] [--prism-log warn] [--loader wrk|autocannon]
//        [--cli FILE] [--mock-arg ARG…] [--cpu-prof DIR] [--strict] [--out FILE]
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BenchFlagError, benchFlags } from './lib/cli-flags.ts';
import { count, nonNegative, positive } from './lib/cli-numbers.ts';
import { loadGenerator, type LoadGenerator, type LoadSettings } from './lib/load-generator.ts';
import { authHeaders } from './lib/mock-api.ts';
import { ensurePrism, startPrism } from './lib/prism-server.ts';
import { runMain, waitForQuiet, watchdog } from './lib/processes.ts';
import { fixed, machine, writeJson } from './lib/report.ts';
import { ratios, samplesTable, summarize, summaryTable } from './lib/throughput-report.ts';
import { measure, type Sample, type TargetName } from './lib/throughput-sample.ts';
import {
  get,
  startBare,
  startHost,
  startMock,
  type Answer,
  type Started,
} from './lib/throughput-servers.ts';

const targetRatio = 0.8;

const usage = `Usage: npx tsx bench/http-throughput.ts [options]
  --rounds N         rounds, each measuring bare and mock once, in alternating order (default 5)
  --duration S       measured seconds per sample (default 5)
  --warmup S         unmeasured seconds before each sample (default 1)
  --connections N    keep-alive connections (default 50; wrk runs one thread)
  --seed N           the mock's --seed (default 1)
  --quiet-wait S     before each round, wait up to S s for the machine to be under 15% busy (default 0)
  --host             also measure the mock's node host answering the same bytes without its core
  --prism            also measure Prism 5.14.2 once (installed into bench/peers on first use)
  --prism-log LEVEL  Prism's --verboseLevel (default warn: no log line per request)
  --loader NAME      wrk (default; apt-get installs it when missing) or autocannon
  --cli FILE         the videotask command whose mock is measured (default: this checkout's bin/videotask.js)
  --mock-arg ARG     one more argument for the measured mock (repeat it: --mock-arg=--no-client-verdicts)
  --together         load every server at once, each with its own wrk, instead of in turn: they share
                     the machine's drift, and the figure is answers per server CPU-second (loader and
                     other CPU are not told apart per server). For comparing two builds of the mock;
                     the target is stated in req/s of each server alone, so it is judged in turn only
  --cpu-prof DIR     write V8 CPU profiles of both servers to DIR (slows them: for reading, not figures)
  --strict           exit 1 when the median mock/bare ratio is below ${targetRatio} (in turn: not with --together)
  --out FILE         JSON results (default bench/results/http-throughput.json)`;

function config() {
  const values = benchFlags(
    { name: 'http-throughput', usage },
    {
      rounds: { type: 'string', default: '5' },
      duration: { type: 'string', default: '5' },
      warmup: { type: 'string', default: '1' },
      connections: { type: 'string', default: '50' },
      seed: { type: 'string', default: '1' },
      'quiet-wait': { type: 'string', default: '0' },
      host: { type: 'boolean', default: false },
      prism: { type: 'boolean', default: false },
      'prism-log': { type: 'string', default: 'warn' },
      loader: { type: 'string', default: 'wrk' },
      'cpu-prof': { type: 'string' },
      cli: { type: 'string' },
      'mock-arg': { type: 'string', multiple: true, default: [] },
      strict: { type: 'boolean', default: false },
      together: { type: 'boolean', default: false },
    },
  );
  const loader: 'wrk' | 'autocannon' = values.loader === 'autocannon' ? 'autocannon' : 'wrk';
  if (values.loader !== loader)
    throw new BenchFlagError(`--loader wants wrk or autocannon, got "${values.loader}"`);
  if (values.strict && values.together)
    throw new BenchFlagError(
      '--strict judges the target, which is judged in turn only: drop --together',
    );
  const cpuProfDir = values['cpu-prof'] === undefined ? undefined : resolve(values['cpu-prof']);
  return {
    rounds: count('rounds', values.rounds),
    durationS: positive('duration', values.duration),
    warmupS: nonNegative('warmup', values.warmup),
    connections: count('connections', values.connections),
    seed: Number(values.seed), // checked by the mock's --seed
    quietWaitS: nonNegative('quiet-wait', values['quiet-wait']),
    host: values.host,
    prism: values.prism,
    prismLog: values['prism-log'],
    loader,
    cli: values.cli === undefined ? undefined : resolve(values.cli),
    mockArgs: values['mock-arg'],
    nodeArgs: cpuProfDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', cpuProfDir],
    strict: values.strict,
    together: values.together,
    out: pathToFileURL(resolve(values.out)),
  };
}

type Config = NonNullable<ReturnType<typeof config>>;

type Measured = { readonly [target in 'bare' | 'host' | 'mock']?: Started | undefined };

/**
 * The rounds: the servers back to back, in an order that reverses from one round to the next; or, with
 * `--together`, all at once (each its own load generator).
 */
async function rounds(cfg: Config, generator: LoadGenerator, servers: Measured): Promise<Sample[]> {
  const settings: LoadSettings = {
    seconds: cfg.durationS,
    connections: cfg.connections,
    headers: authHeaders,
  };
  const samples: Sample[] = [];
  for (let round = 1; round <= cfg.rounds; round++) {
    if (cfg.quietWaitS > 0) await waitForQuiet(15, cfg.quietWaitS, `round ${round}`);
    const targets = (['bare', 'host', 'mock'] as const).filter((t) => servers[t] !== undefined);
    const one = (target: (typeof targets)[number]) =>
      measure(generator, servers[target]!, { target, round, warmupS: cfg.warmupS }, settings);
    const measured: Sample[] = [];
    if (cfg.together)
      for (const sample of await Promise.all(targets.map(one)))
        measured.push({ ...sample, loaderCpuPercent: undefined, otherCpuPercent: undefined });
    else
      for (const target of round % 2 === 1 ? targets : [...targets].reverse())
        measured.push(await one(target));
    for (const sample of measured)
      console.error(
        `round ${round} ${sample.target.padEnd(4)} ${fixed(sample.reqPerSec)} req/s, ` +
          `${fixed(sample.reqPerServerCpuS)} per server CPU-s, p99 ${fixed(sample.latencyP99Ms, 2)} ms`,
      );
    samples.push(...measured);
  }
  return samples;
}

async function prismSample(cfg: Config, generator: LoadGenerator): Promise<Sample | string> {
  if (!(await ensurePrism())) return 'Prism could not be installed (npm ci --prefix bench/peers)';
  const prism = await startPrism(cfg.prismLog);
  try {
    const settings = { seconds: cfg.durationS, connections: cfg.connections, headers: authHeaders };
    const where = { target: 'prism' as TargetName, round: 0, warmupS: cfg.warmupS };
    return await measure(generator, prism, where, settings);
  } finally {
    await prism.stop();
  }
}

function reportHeading(
  cfg: NonNullable<ReturnType<typeof config>>,
  loader: string,
  host: ReturnType<typeof machine>,
  loadAfter: number,
): void {
  console.log(
    `\nHTTP throughput: GET /v1/videos/{id}, ${cfg.connections} connections, ${cfg.rounds} rounds of ` +
      `${cfg.warmupS} s warm-up + ${cfg.durationS} s per server; ${loader}; ${host.cpus} cores; ` +
      `load average ${host.loadAverage1m} before, ${loadAfter} after\n`,
  );
}

function reportRatios(
  ratio: ReturnType<typeof ratios>,
  met: boolean | undefined,
  together: boolean,
): void {
  const unit = together ? ' (per server CPU-second, all loaded together)' : '';
  const verdict = together
    ? 'judged in turn only'
    : met === undefined
      ? 'not measured'
      : met
        ? 'met'
        : 'MISSED';
  console.log(
    `mock / bare by round${unit}: ${ratio.mockToBareByRound.map((r) => fixed(r, 3)).join(', ')}\n` +
      `mock / bare median: ${fixed(ratio.mockToBareMedian, 3)} (target ≥ ${targetRatio}: ${verdict}); ` +
      `per server CPU-second: ${fixed(ratio.mockToBarePerCpuMedian, 3)}` +
      (ratio.prismToBare === undefined ? '' : `; prism / bare: ${fixed(ratio.prismToBare, 3)}`),
  );
  if (ratio.hostToBareMedian !== undefined)
    console.log(
      `host (fixed answer) / bare by round${unit}: ${ratio.hostToBareByRound.map((r) => fixed(r, 3)).join(', ')}\n` +
        `host / bare median: ${fixed(ratio.hostToBareMedian, 3)} (what the host costs); ` +
        `mock / host median: ${fixed(ratio.mockToHostMedian, 3)} (what the core costs)`,
    );
}

/** Prism skipped, samples a busy machine made low, samples with errors. */
function reportWarnings(samples: readonly Sample[], prism: Sample | string | undefined): void {
  if (typeof prism === 'string') console.log(`prism: skipped — ${prism}`);
  const noisy = samples.filter((s) => (s.otherCpuPercent ?? 0) > 15);
  if (noisy.length > 0)
    console.log(
      `warning: other processes used over 15% of a core in ${noisy.length} of ${samples.length} ` +
        'samples: those figures are low',
    );
  if (samples.some((s) => s.errors > 0 || s.errorStatuses > 0))
    console.log('warning: some samples had errors or ≥ 400 answers (see the table)');
}

/** Starts the servers, runs the rounds (and Prism's sample), stops them: the samples and the answer. */
async function measureServers(
  cfg: Config,
  generator: LoadGenerator,
): Promise<{ samples: Sample[]; prism: Sample | string | undefined; answer: Answer }> {
  const mock = await startMock(cfg.seed, cfg.nodeArgs, cfg.cli, cfg.mockArgs);
  let bare: Started | undefined;
  let hostOnly: Started | undefined;
  let prism: Sample | string | undefined;
  const answer = await get(`${mock.url}${mock.path}`);
  try {
    if (answer.status !== 200)
      throw new Error(`GET ${mock.path} answered ${answer.status}: ${answer.body.toString()}`);
    bare = await startBare(answer, cfg.nodeArgs);
    if (cfg.host) hostOnly = await startHost(answer, cfg.nodeArgs);
    const samples = await rounds(cfg, generator, { bare, host: hostOnly, mock });
    const after = await get(`${mock.url}${mock.path}`);
    if (after.status !== 200) throw new Error(`after the rounds the mock answered ${after.status}`);
    if (cfg.prism) prism = await prismSample(cfg, generator);
    return { samples, prism, answer };
  } finally {
    await Promise.all([mock.stop(), bare?.stop(), hostOnly?.stop()]);
  }
}

async function main(): Promise<number> {
  const cfg = config();
  const host = machine(); // before any load of ours, for its load average
  const perSample = cfg.warmupS + cfg.durationS + 15;
  watchdog(cfg.rounds * (cfg.host ? 3 : 2) * (perSample + cfg.quietWaitS) + 600, 'http-throughput');
  const generator = await loadGenerator(cfg.loader);
  console.error(`load generator: ${generator.label}; load average ${host.loadAverage1m}`);

  const { samples, prism, answer } = await measureServers(cfg, generator);
  if (prism !== undefined && typeof prism !== 'string') samples.push(prism);

  const summaries = (['bare', 'host', 'mock', 'prism'] as const).flatMap(
    (t) => summarize(samples, t) ?? [],
  );
  // Loaded together, the servers share the cores: their answers per CPU-second are the figure.
  const ratio = ratios(samples, cfg.together ? 'reqPerServerCpuS' : 'reqPerSec');
  // The target is judged in turn only: it is stated in req/s of each server alone, which servers
  // sharing the cores do not measure.
  const met =
    cfg.together || ratio.mockToBareMedian === undefined
      ? undefined
      : ratio.mockToBareMedian >= targetRatio;
  const loadAfter = Math.round((loadavg()[0] ?? 0) * 100) / 100;
  reportHeading(cfg, generator.label, host, loadAfter);
  console.log(samplesTable(samples));
  console.log(`\n${summaryTable(summaries)}\n`);
  reportRatios(ratio, met, cfg.together);
  reportWarnings(samples, prism);

  writeJson(cfg.out, {
    benchmark: 'http-throughput',
    date: new Date().toISOString(),
    machine: host,
    loadAverage1mAfter: loadAfter,
    loadGenerator: generator.label,
    config: { ...cfg, out: undefined, nodeArgs: undefined },
    answer: {
      bytes: answer.body.byteLength,
      headers: answer.headers,
      body: answer.body.toString(),
    },
    samples,
    summaries,
    ratios: ratio,
    target: {
      mockToBareAtLeast: targetRatio,
      measured: cfg.together ? 'answers per server CPU-second, loaded together' : 'req/s, in turn',
      met,
    },
  });
  console.log(`\nwritten: ${fileURLToPath(cfg.out)}`);
  return cfg.strict && met !== true ? 1 : 0;
}

runMain(main);
