/**
 * Wall time of the whole contract suite against the mock with a fast clock (target: under 20 s on
 * 2 cores): `videotask contract` with no --base-url starts the mock at 25× and checks it, as QA would
 * run it locally; then a run against a separately started `videotask mock --speed 1000 --family-bound`
 * with a failing task and the native path. Then the self-proof: every generated mutant and every named
 * defect, each a whole in-process run on a virtual clock, one after the other in this process (wall
 * and CPU time, kill score).
 *
 *   npx tsx bench/contract-suite.ts [--runs 3] [--no-mutants]
 */
import { execFile, spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { listDefects } from '../mocks/defects/catalog.ts';
import { judgeDefect, MUTANTS } from '../test/contracts/support/mutant-run.ts';
import { benchFlags } from './lib/cli-flags.ts';
import { count } from './lib/cli-numbers.ts';
import { runMain, track, watchdog } from './lib/processes.ts';
import { machine, median, writeJson } from './lib/report.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const usage = `Usage: npx tsx bench/contract-suite.ts [options]
  --runs N        runs of each contract command (default 3)
  --no-mutants    skip the self-proof (every mutant and named defect)
  --out FILE      JSON results (default bench/results/contract-suite.json)`;
const values = benchFlags(
  { name: 'contract-suite', usage },
  { runs: { type: 'string', default: '3' }, 'no-mutants': { type: 'boolean', default: false } },
);
const RUNS = count('runs', values.runs);
watchdog(600, 'contract-suite');

function timed(args: string[]): Promise<{ ms: number; code: number; summary: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/videotask.js', ...args],
      { cwd: ROOT, timeout: 120_000 },
      (error, stdout) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 99;
        const lines = stdout.split('\n');
        const counts = lines.find((l) => /passed, .* failed/.test(l)) ?? '';
        const coverage = lines.find((l) => l.startsWith('coverage: ')) ?? '';
        resolve({ ms: performance.now() - started, code, summary: `${counts} · ${coverage}` });
      },
    );
  });
}

async function withMock<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const flags = ['mock', '--port', '0', '--speed', '1000', '--family-bound'];
  const child = track(spawn(process.execPath, ['bin/videotask.js', ...flags], { cwd: ROOT }));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => {
        const m = /listening on (http:\/\/\S+)/.exec(d.toString());
        if (m) resolve(m[1]!);
      });
      child.once('exit', () => reject(new Error('mock exited')));
    });
    return await fn(url);
  } finally {
    child.kill('SIGTERM');
  }
}

const EXTERNAL = [
  ...['--api-key', 'sk-mock-vip', '--other-api-key', 'sk-mock-bob'],
  ...['--poll-initial', '0.01', '--poll-max', '0.05', '--failing-prompt', 'a storm [mock:fail]'],
  ...['--family-model', 'alt-video-v2', '--plugin', 'alt-video'],
];

async function cliRuns() {
  const bundled: number[] = [];
  const external: number[] = [];
  const summaries = { bundled: '', external: '' };
  for (let i = 0; i < RUNS; i++) {
    const run = await timed(['contract']);
    if (run.code !== 0) throw new Error(`contract against the bundled mock exited ${run.code}`);
    bundled.push(run.ms);
    summaries.bundled = run.summary;
    const ext = await withMock((url) => timed(['contract', '--base-url', url, ...EXTERNAL]));
    if (ext.code !== 0) throw new Error(`contract against videotask mock exited ${ext.code}`);
    external.push(ext.ms);
    summaries.external = ext.summary;
  }
  const figures = (xs: number[]) => ({
    median: Math.round(median(xs)),
    max: Math.round(Math.max(...xs)),
  });
  return { summaries, bundledMockMs: figures(bundled), externalMockMs: figures(external) };
}

async function selfProof() {
  const cpu = process.cpuUsage();
  const started = performance.now();
  let killed = 0;
  let live = 0;
  for (const m of MUTANTS) {
    const defect = m.make();
    if ('equivalent' in defect) continue;
    live++;
    if ((await judgeDefect(defect, m.cell)).killed) killed++;
  }
  const mutantsMs = performance.now() - started;
  let named = 0;
  for (const defect of listDefects()) if ((await judgeDefect(defect)).killed) named++;
  const used = process.cpuUsage(cpu);
  return {
    mutants: { killed, live, equivalent: MUTANTS.length - live, wallMs: Math.round(mutantsMs) },
    namedDefects: { killed: named, total: listDefects().length },
    wallMs: Math.round(performance.now() - started),
    cpuMs: Math.round((used.user + used.system) / 1000),
  };
}

async function main(): Promise<number> {
  const cli = await cliRuns();
  const proof = values['no-mutants'] === true ? undefined : await selfProof();
  const result = {
    benchmark: 'contract-suite',
    date: new Date().toISOString(),
    machine: machine(),
    runs: RUNS,
    ...cli,
    selfProof: proof,
    target: {
      underMs: 20_000,
      met: Math.max(cli.bundledMockMs.max, cli.externalMockMs.max) < 20_000,
    },
  };
  writeJson(pathToFileURL(resolve(values.out)), result);
  console.log(cli.summaries.bundled);
  console.log(cli.summaries.external);
  console.log(
    `videotask contract (bundled mock, 25×):                         median ` +
      `${cli.bundledMockMs.median} ms, max ${cli.bundledMockMs.max} ms`,
  );
  console.log(
    `videotask contract (mock --speed 1000, failing task, native path): ` +
      `median ${cli.externalMockMs.median} ms, max ${cli.externalMockMs.max} ms`,
  );
  if (proof !== undefined)
    console.log(
      `self-proof in-process: ${proof.mutants.killed}/${proof.mutants.live} ` +
        `mutants killed (${proof.mutants.equivalent} equivalent) in ` +
        `${(proof.mutants.wallMs / 1000).toFixed(1)} s; ` +
        `${proof.namedDefects.killed}/${proof.namedDefects.total} named defects; ` +
        `${(proof.wallMs / 1000).toFixed(1)} s wall, ` +
        `${(proof.cpuMs / 1000).toFixed(1)} s CPU in all`,
    );
  console.log(`whole suite under 20 s wall: ${result.target.met ? 'met' : 'MISSED'}`);
  return result.target.met ? 0 : 1;
}

runMain(main);
