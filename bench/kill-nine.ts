// kill -9 under load: N parallel submitters against `videotask mock --state FILE`, the mock killed with
// SIGKILL at a random moment, restarted on the same file; then every task acknowledged with a 200 (in
// this round and all before) is asked for again. Targets: 0 acknowledged tasks lost (404 after the
// restart), 0 statuses that went backwards (an earlier state, or less progress in the same one, than a
// client saw before the kill), and with a manual clock 0 clocks resumed before what an answer revealed.
// Rounds alternate a real clock (--speed) and a manual one advanced by a ticker through the control API.
//
//   npx tsx bench/kill-nine.ts [--submitters 20] [--rounds 4] [--run-ms 3000] [--speed 50]
//                              [--out bench/results/kill-nine.json]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchFlags } from './lib/cli-flags.ts';
import { count, positive } from './lib/cli-numbers.ts';
import { runMain, sleep, stop, track, waitForExit, watchdog } from './lib/processes.ts';
import { machine, table, writeJson } from './lib/report.ts';

const usage = `Usage: npx tsx bench/kill-nine.ts [options]
  --submitters N  parallel submitters (default 20)
  --rounds N      kill-and-restart rounds, alternating a real and a manual clock (default 4)
  --run-ms MS     load before each kill (default 3000)
  --speed N       the real clock's speed (default 50)
  --out FILE      JSON results (default bench/results/kill-nine.json)`;
const values = benchFlags(
  { name: 'kill-nine', usage },
  {
    submitters: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '4' },
    'run-ms': { type: 'string', default: '3000' },
    speed: { type: 'string', default: '50' },
  },
);
const SUBMITTERS = count('submitters', values.submitters);
const ROUNDS = count('rounds', values.rounds);
const RUN_MS = positive('run-ms', values['run-ms']);
const SPEED = positive('speed', values.speed);
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const KEYS = ['sk-mock-alice', 'sk-mock-bob', 'sk-mock-vip'];
const ORDER = ['unknown', 'queued', 'in_progress', 'completed', 'failed'];
const LISTENING = /videotask mock listening on (http:\/\/\S+)/;

interface Seen {
  readonly key: string;
  status: string;
  progress: number;
}

/** Every acknowledged task and the latest state a client was shown of it. */
const tasks = new Map<string, Seen>();

async function startMock(
  file: string,
  clock: 'real' | 'manual',
): Promise<{ child: ChildProcess; base: string; ms: number }> {
  const started = Date.now();
  const flags = clock === 'manual' ? ['--clock', 'manual'] : ['--speed', String(SPEED)];
  const child = track(
    spawn(
      process.execPath,
      ['bin/videotask.js', 'mock', '--port', '0', '--state', file, ...flags],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ),
  );
  let out = '';
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  for (let waited = 0; waited < 60_000; waited += 20) {
    const match = LISTENING.exec(out);
    if (match !== null && /state file: .*\n/.test(out))
      return { child, base: match[1]!, ms: Date.now() - started };
    if (child.exitCode !== null) throw new Error(`the mock exited with ${child.exitCode}:\n${out}`);
    await sleep(20);
  }
  throw new Error(`the mock did not start:\n${out}`);
}

async function json(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(5_000) });
  const text = await response.text();
  return {
    status: response.status,
    body: (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>,
  };
}

const query = (base: string, id: string, key: string) =>
  json(`${base}/v1/videos/${id}`, { headers: { authorization: `Bearer ${key}` } });

/** Records what a client was shown; returns true when it went backwards from what it was shown before. */
function observe(id: string, body: Record<string, unknown>): boolean {
  const seen = tasks.get(id)!;
  const status = String(body['status']);
  const progress = Number(body['progress']);
  const before = ORDER.indexOf(seen.status);
  const backwards =
    ORDER.indexOf(status) < before || (status === seen.status && progress < seen.progress);
  if (!backwards) Object.assign(seen, { status, progress });
  return backwards;
}

async function submitter(base: string, n: number, running: () => boolean): Promise<void> {
  for (let i = 0; running(); i++) {
    const key = KEYS[(n + i) % KEYS.length]!;
    const prompt = i % 7 === 0 ? 'a kite [mock:slow]' : 'a kite';
    try {
      const answer = await json(`${base}/v1/videos`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'video-pro-v1', prompt }),
      });
      if (answer.status !== 200) throw new Error(`submission answered ${answer.status}`);
      const id = String(answer.body['id']);
      tasks.set(id, { key, status: String(answer.body['status']), progress: 0 });
      const shown = await query(base, id, key);
      if (shown.status === 200) observe(id, shown.body);
    } catch {
      return; // the mock was killed under this request
    }
  }
}

/** A manual clock's ticker: advances it, keeping the latest instant an answer revealed. */
async function ticker(
  base: string,
  running: () => boolean,
  revealed: { now: number },
): Promise<void> {
  while (running()) {
    try {
      const answer = await json(`${base}/__mock/clock/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ms: 5_000 }),
      });
      if (answer.status === 200) revealed.now = Math.max(revealed.now, Number(answer.body['now']));
      await sleep(10);
    } catch {
      return;
    }
  }
}

/** Asks for every acknowledged task again: lost ones and ones that went backwards. */
async function verify(base: string): Promise<{ lost: number; backwards: number }> {
  const ids = [...tasks.keys()];
  let lost = 0;
  let backwards = 0;
  const worker = async () => {
    for (let id = ids.pop(); id !== undefined; id = ids.pop()) {
      const answer = await query(base, id, tasks.get(id)!.key);
      if (answer.status !== 200) lost++;
      else if (observe(id, answer.body)) backwards++;
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return { lost, backwards };
}

/** One row per round: each key of a round, under its heading where that differs. */
function roundsTable(rounds: readonly Record<string, unknown>[]): string {
  const keys = ['round', 'clock', 'acknowledged', 'checked', 'lost', 'backwards'];
  const columns: [string, string][] = [
    ...keys.map((key): [string, string] => [key, key]),
    ['clockBack', 'clock back'],
    ['restartMs', 'restart ms'],
  ];
  const header = columns.map(([, heading]) => heading);
  const rows = rounds.map((r) => columns.map(([key]) => String(r[key])));
  return table([header, ...rows]);
}

function resultOf(rounds: readonly Record<string, unknown>[]) {
  const total = (key: string) => rounds.reduce((sum, r) => sum + Number(r[key]), 0);
  const result = {
    benchmark: 'kill-nine',
    date: new Date().toISOString(),
    machine: machine(),
    settings: { submitters: SUBMITTERS, rounds: ROUNDS, runMs: RUN_MS, speed: SPEED },
    rounds,
    totals: {
      acknowledged: tasks.size,
      lost: total('lost'),
      backwards: total('backwards'),
      clockBack: total('clockBack'),
    },
  };
  return result;
}

async function main(): Promise<number> {
  watchdog(60 + ROUNDS * (RUN_MS / 1000 + 60), 'kill-nine');
  const dir = mkdtempSync(join(tmpdir(), 'videotask-kill-nine-'));
  const file = join(dir, 'mock.state');
  const rounds: Record<string, unknown>[] = [];
  try {
    let mock = await startMock(file, 'real');
    for (let round = 1; round <= ROUNDS; round++) {
      const clock = round % 2 === 1 ? 'real' : 'manual';
      if (clock === 'manual') {
        await stop(mock.child);
        mock = await startMock(file, 'manual');
      }
      let running = true;
      const revealed = { now: Number.NEGATIVE_INFINITY };
      const before = tasks.size;
      const load = [
        ...Array.from({ length: SUBMITTERS }, (_, n) => submitter(mock.base, n, () => running)),
        ...(clock === 'manual' ? [ticker(mock.base, () => running, revealed)] : []),
      ];
      await sleep(RUN_MS * (0.5 + Math.random() / 2));
      mock.child.kill('SIGKILL');
      await waitForExit(mock.child);
      running = false;
      await Promise.all(load);
      mock = await startMock(file, clock);
      const clockNow = Number((await json(`${mock.base}/__mock/clock`)).body['now']);
      const { lost, backwards } = await verify(mock.base);
      const clockBack = clock === 'manual' && clockNow < revealed.now ? 1 : 0;
      rounds.push({
        round,
        clock,
        acknowledged: tasks.size - before,
        checked: tasks.size,
        lost,
        backwards,
        clockBack,
        restartMs: mock.ms,
      });
    }
    await stop(mock.child);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const result = resultOf(rounds);
  writeJson(pathToFileURL(resolve(values.out)), result);
  console.log(roundsTable(rounds));
  console.log(
    `acknowledged ${tasks.size}, lost ${result.totals.lost}, went backwards ` +
      `${result.totals.backwards}, clock resumed early ` +
      `${result.totals.clockBack} (targets: 0, 0, 0)`,
  );
  return result.totals.lost + result.totals.backwards + result.totals.clockBack === 0 ? 0 : 1;
}

runMain(main);
