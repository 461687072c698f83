// Cold start of the mock through its command line: spawns `node bin/videotask.js mock --port 0` N times,
// one after the other, and measures the time from spawn to the line
// `videotask mock listening on http://127.0.0.1:PORT` (and to the first answered request), then stops
// it with SIGTERM and checks that it exits 0. Floors for comparison: `node -e 0` (Node alone) and
// `node bin/videotask.js --version` (Node + tsx's loader + the CLI's module graph, nothing started).
//
//   npx tsx bench/startup.ts [--runs 5] [--timeout 15] [--no-baseline]
//                            [--out bench/results/startup.json] [--strict]
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchFlags } from './lib/cli-flags.ts';
import { count, positive } from './lib/cli-numbers.ts';
import { authHeaders } from './lib/mock-api.ts';
import { sleep, stop, track, waitForExit, watchdog, runMain } from './lib/processes.ts';
import { fixed, machine, median, table, writeJson, type MachineInfo } from './lib/report.ts';

const rootDir = fileURLToPath(new URL('../', import.meta.url));
const cli = fileURLToPath(new URL('../bin/videotask.js', import.meta.url));
const listening = /videotask mock listening on (http:\/\/\S+)/;
const targetMs = 2000;

const usage = `Usage: npx tsx bench/startup.ts [options]
  --runs N        how many cold starts (default 5)
  --timeout S     give up on one start after S seconds (default 15)
  --no-baseline   skip the floors (\`node -e 0\`, \`videotask --version\`)
  --out FILE      where to write the JSON results (default bench/results/startup.json)
  --strict        exit 1 when any start takes over ${targetMs} ms`;

interface Run {
  run: number;
  listeningMs?: number;
  firstAnswerMs?: number;
  firstAnswerStatus?: number;
  url?: string;
  exitCode: number | null;
  exitSignal: string | null;
  killedAfterGrace: boolean;
  ok: boolean;
  problem?: string;
}

function timeoutPromise(ms: number): { promise: Promise<'timeout'>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/** Resolves with the URL when the listening line shows up on stdout, or rejects when the child exits first. */
function listeningLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const match = listening.exec(buffered);
      if (match?.[1] !== undefined) resolve(match[1]);
      if (buffered.length > 64_000) buffered = buffered.slice(-1000);
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`exited (code ${code}, signal ${signal}) before listening`)),
    );
  });
}

async function oneStart(run: number, timeoutS: number): Promise<Run> {
  const t0 = performance.now();
  const child = track(
    spawn(process.execPath, [cli, 'mock', '--port', '0'], {
      cwd: rootDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-2000);
  });
  const result: Run = { run, exitCode: null, exitSignal: null, killedAfterGrace: false, ok: false };
  try {
    const limit = timeoutPromise(timeoutS * 1000);
    const url = await Promise.race([listeningLine(child), limit.promise]).finally(limit.cancel);
    if (url === 'timeout') throw new Error(`no listening line within ${timeoutS} s`);
    result.listeningMs = performance.now() - t0;
    result.url = url;
    const response = await fetch(`${url.replace(/\/$/, '')}/v1/models`, {
      headers: authHeaders,
      signal: AbortSignal.timeout(5000),
    });
    await response.arrayBuffer();
    result.firstAnswerMs = performance.now() - t0;
    result.firstAnswerStatus = response.status;
  } catch (error) {
    result.problem = `${error instanceof Error ? error.message : String(error)}${stderr ? `\n${stderr.trim()}` : ''}`;
  } finally {
    const exit = await stop(child, 'SIGTERM', 10_000);
    result.exitCode = exit.code;
    result.exitSignal = exit.signal;
    result.killedAfterGrace = exit.killed;
  }
  const exitedCleanly = result.exitCode === 0 && !result.killedAfterGrace;
  if (result.problem === undefined && !exitedCleanly) {
    const killed = result.killedAfterGrace ? ' (SIGKILLed after 10 s)' : '';
    const output = stderr ? `\n${stderr.trim()}` : '';
    result.problem = `SIGTERM: exit code ${result.exitCode}, signal ${result.exitSignal}${killed}${output}`;
  }
  result.ok = result.problem === undefined;
  return result;
}

/** Wall time from spawn to exit of `node ARGS` (the floors a CLI start cannot go below). */
async function timeToExitMs(args: readonly string[]): Promise<number> {
  const t0 = performance.now();
  const child = track(
    spawn(process.execPath, args, { cwd: rootDir, stdio: ['ignore', 'ignore', 'inherit'] }),
  );
  const limit = timeoutPromise(15_000);
  const exit = await Promise.race([waitForExit(child), limit.promise]).finally(limit.cancel);
  if (exit === 'timeout') {
    await stop(child, 'SIGKILL');
    throw new Error(`node ${args.join(' ')} did not exit within 15 s`);
  }
  if (exit.code !== 0) throw new Error(`node ${args.join(' ')} exited ${exit.code}`);
  return performance.now() - t0;
}

interface Summary {
  min: number;
  median: number;
  max: number;
}

function summary(values: readonly number[]): Summary | undefined {
  if (values.length === 0) return undefined;
  return { min: Math.min(...values), median: median(values), max: Math.max(...values) };
}

interface Report {
  benchmark: 'startup';
  date: string;
  machine: MachineInfo;
  command: string;
  runs: Run[];
  listeningMs?: Summary;
  firstAnswerMs?: Summary;
  baselineVersionMs?: Summary;
  baselineNodeMs?: Summary;
  target: { listeningWithinMs: number; met: boolean };
  allExitedZero: boolean;
}

const NO_FLOORS = { nodeOnly: [], version: [] } as const;

/** The floors: `node -e 0` and `videotask --version` to exit, each `runs` times (none if one fails). */
async function floors(runs: number): Promise<{ nodeOnly: number[]; version: number[] }> {
  const nodeOnly: number[] = [];
  const version: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      nodeOnly.push(await timeToExitMs(['-e', '0']));
      version.push(await timeToExitMs([cli, '--version']));
    }
  } catch (error) {
    console.error(`floors skipped: ${error instanceof Error ? error.message : String(error)}`);
    nodeOnly.length = 0;
    version.length = 0;
  }
  return { nodeOnly, version };
}

/** `runs` cold starts, one after the other, each logged as it ends. */
async function coldStarts(runs: number, timeoutS: number): Promise<Run[]> {
  const results: Run[] = [];
  for (let i = 1; i <= runs; i++) {
    const r = await oneStart(i, timeoutS);
    results.push(r);
    const timings =
      `listening after ${fixed(r.listeningMs)} ms, ` +
      `first answer (${r.firstAnswerStatus}) after ${fixed(r.firstAnswerMs)} ms, exit ${r.exitCode}`;
    console.error(`run ${i}: ${r.ok ? timings : `FAILED: ${r.problem ?? ''}`}`);
    await sleep(300);
  }
  return results;
}

type Summaries = Pick<
  Report,
  'listeningMs' | 'firstAnswerMs' | 'baselineVersionMs' | 'baselineNodeMs'
>;

function summaryTable(s: { [K in keyof Summaries]-?: Summary | undefined }): string {
  const rows: string[][] = [['measure', 'min ms', 'median ms', 'max ms']];
  const add = (label: string, m: Summary | undefined): void => {
    if (m !== undefined) rows.push([label, fixed(m.min), fixed(m.median), fixed(m.max)]);
  };
  add('`videotask mock --port 0`: listening line', s.listeningMs);
  add('`videotask mock --port 0`: first answer (GET /v1/models)', s.firstAnswerMs);
  add('floor: `videotask --version` (Node + tsx + CLI module graph, to exit)', s.baselineVersionMs);
  add('floor: `node -e 0` (to exit)', s.baselineNodeMs);
  return table(rows);
}

/** The summaries that were measured (a report leaves out what was not). */
function measured(s: { [K in keyof Summaries]-?: Summary | undefined }): Summaries {
  const out: { -readonly [K in keyof Summaries]?: Summary } = {};
  for (const key of [
    'listeningMs',
    'firstAnswerMs',
    'baselineVersionMs',
    'baselineNodeMs',
  ] as const)
    if (s[key] !== undefined) out[key] = s[key];
  return out;
}

async function main(): Promise<number> {
  const values = benchFlags(
    { name: 'startup', usage },
    {
      runs: { type: 'string', default: '5' },
      timeout: { type: 'string', default: '15' },
      'no-baseline': { type: 'boolean', default: false },
      strict: { type: 'boolean', default: false },
    },
  );
  const host = machine(); // before any load of ours, for its load average
  const runs = count('runs', values.runs);
  const timeoutS = positive('timeout', values.timeout);
  watchdog(runs * 2 * (timeoutS + 12) + 60, 'startup');

  const { nodeOnly, version } = values['no-baseline'] ? NO_FLOORS : await floors(runs);
  const results = await coldStarts(runs, timeoutS);

  const listeningMs = summary(
    results.flatMap((r) => (r.listeningMs === undefined ? [] : [r.listeningMs])),
  );
  const firstAnswerMs = summary(
    results.flatMap((r) => (r.firstAnswerMs === undefined ? [] : [r.firstAnswerMs])),
  );
  const baselineNodeMs = summary(nodeOnly);
  const baselineVersionMs = summary(version);
  const allOk = results.every((r) => r.ok);
  const met = allOk && listeningMs !== undefined && listeningMs.max <= targetMs;

  console.log(`\nStartup — ${runs} cold starts, one after the other (${host.cpus} cores)\n`);
  console.log(summaryTable({ listeningMs, firstAnswerMs, baselineVersionMs, baselineNodeMs }));
  console.log(
    `\nlistening within ${targetMs} ms on every run: ` +
      `${met ? 'met' : 'MISSED'}; exit code 0 after SIGTERM on every run: ` +
      `${allOk ? 'yes' : 'NO'}`,
  );

  const report: Report = {
    benchmark: 'startup',
    date: new Date().toISOString(),
    machine: host,
    command: 'node bin/videotask.js mock --port 0',
    runs: results,
    ...measured({ listeningMs, firstAnswerMs, baselineVersionMs, baselineNodeMs }),
    target: { listeningWithinMs: targetMs, met },
    allExitedZero: allOk,
  };
  const out = pathToFileURL(resolve(values.out));
  writeJson(out, report);
  console.log(`\nwritten: ${fileURLToPath(out)}`);
  if (!allOk) return 1;
  return values.strict && !met ? 1 : 0;
}

runMain(main);
