// The mock in-process: `createHandlers(service)` under msw's `setupServer`, against a trivial msw handler
// answering the same bytes (status, headers, body), both driven by `fetch` in this process, the way a
// client team's test suite uses the mock. Both live in one `setupServer` (the trivial one first, on its
// own origin, so the mock's requests also pay for skipping it); each round times a fixed number of
// GET /v1/videos/{id} (a task that stays in_progress) in batches that alternate between the two, so
// the machine's drift hits both alike.
//
//   npx tsx bench/msw-inprocess.ts [--rounds 9] [--requests 6000] [--batch 50] [--concurrency 1]
//                                  [--out bench/results/msw-inprocess.json]
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createHandlers, createMockService } from '../mocks/index.ts';
import { benchFlags } from './lib/cli-flags.ts';
import { count } from './lib/cli-numbers.ts';
import { authHeaders, model } from './lib/mock-api.ts';
import { runMain, watchdog } from './lib/processes.ts';
import { fixed, machine, median, table, writeJson } from './lib/report.ts';

const target = 1.1; // createHandlers may take at most 10% longer than the trivial handler
const origin = 'http://mock.test';
const trivialOrigin = 'http://trivial.test';

const usage = `Usage: npx tsx bench/msw-inprocess.ts [options]
  --rounds N        rounds, each timing both setups in alternating batches (default 9)
  --requests N      requests per setup and round (default 6000)
  --batch N         requests per batch; batches alternate between the two setups (default 50)
  --concurrency N   requests in flight at once (default 1: one after the other, as most tests do)
  --out FILE        JSON results (default bench/results/msw-inprocess.json)`;

function config() {
  const values = benchFlags(
    { name: 'msw-inprocess', usage },
    {
      rounds: { type: 'string', default: '9' },
      requests: { type: 'string', default: '6000' },
      batch: { type: 'string', default: '50' },
      concurrency: { type: 'string', default: '1' },
    },
  );
  return {
    rounds: count('rounds', values.rounds),
    requests: count('requests', values.requests),
    batch: count('batch', values.batch),
    concurrency: count('concurrency', values.concurrency),
    out: pathToFileURL(resolve(values.out)),
  };
}

interface Cost {
  /** Wall-clock µs per request. */
  wall: number;
  /** CPU µs per request of this process (all its threads): what others' load on the machine does not inflate. */
  cpu: number;
}

/** The cost of `requests` GETs of `url`, `concurrency` at a time, each body read to its end. */
async function time(url: string, requests: number, concurrency: number): Promise<Cost> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next++ < requests) {
      const response = await fetch(url, { headers: authHeaders });
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
      await response.arrayBuffer();
    }
  };
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const cpu = process.cpuUsage(cpu0);
  return {
    wall: ((performance.now() - started) * 1000) / requests,
    cpu: (cpu.user + cpu.system) / requests,
  };
}

/** One round: the cost per request of each URL, timed in alternating batches. */
async function round(urls: readonly [string, string], cfg: Cfg): Promise<[Cost, Cost]> {
  const totals: [Cost, Cost] = [
    { wall: 0, cpu: 0 },
    { wall: 0, cpu: 0 },
  ];
  for (let done = 0; done < cfg.requests; done += cfg.batch) {
    const n = Math.min(cfg.batch, cfg.requests - done);
    const order = (done / cfg.batch) % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) {
      const cost = await time(urls[i]!, n, cfg.concurrency);
      totals[i]!.wall += cost.wall * n;
      totals[i]!.cpu += cost.cpu * n;
    }
  }
  const per = (t: Cost): Cost => ({ wall: t.wall / cfg.requests, cpu: t.cpu / cfg.requests });
  return [per(totals[0]), per(totals[1])];
}

type Cfg = NonNullable<ReturnType<typeof config>>;

interface Row {
  round: number;
  mock: Cost;
  trivial: Cost;
  cpuRatio: number;
  wallRatio: number;
}

function roundsTable(rows: readonly Row[]): string {
  const header = ['round', 'createHandlers CPU µs', 'trivial CPU µs', 'ratio'];
  header.push('createHandlers wall µs', 'trivial wall µs', 'wall ratio');
  return table([
    header,
    ...rows.map((r) => [
      String(r.round),
      fixed(r.mock.cpu, 1),
      fixed(r.trivial.cpu, 1),
      fixed(r.cpuRatio, 3),
      fixed(r.mock.wall, 1),
      fixed(r.trivial.wall, 1),
      fixed(r.wallRatio, 3),
    ]),
  ]);
}

/** The measured rounds after a warm-up of at most 1,000 requests, each logged as it ends. */
async function measureRounds(urls: readonly [string, string], cfg: Cfg): Promise<Row[]> {
  const rows: Row[] = [];
  await round(urls, { ...cfg, requests: Math.min(1000, cfg.requests) }); // warm-up
  for (let n = 1; n <= cfg.rounds; n++) {
    const [mock, trivial] = await round(urls, cfg);
    rows.push({
      round: n,
      mock,
      trivial,
      cpuRatio: mock.cpu / trivial.cpu,
      wallRatio: mock.wall / trivial.wall,
    });
    console.error(
      `round ${n}: createHandlers ${fixed(mock.cpu, 1)} µs CPU ` +
        `(${fixed(mock.wall, 1)} wall), trivial ${fixed(trivial.cpu, 1)} µs CPU ` +
        `(${fixed(trivial.wall, 1)} wall)`,
    );
  }
  return rows;
}

async function main(): Promise<number> {
  const cfg = config();
  const host = machine();
  watchdog(600, 'msw-inprocess');
  const service = createMockService({ seed: 1 });
  const mock = createHandlers(service);
  // One task that stays in_progress, and the mock's own answer to copy into the trivial handler.
  const server = setupServer(...mock);
  server.listen({ onUnhandledRequest: 'error' });
  const created = await createTask();
  const trivial = http.get(`${trivialOrigin}/v1/videos/:id`, () =>
    HttpResponse.text(created.body, { status: 200, headers: created.headers }),
  );
  server.resetHandlers(trivial, ...mock);
  const path = `/v1/videos/${created.id}`;
  const urls = [`${origin}${path}`, `${trivialOrigin}${path}`] as const;
  const rows: Row[] = [];
  try {
    rows.push(...(await measureRounds(urls, cfg)));
  } finally {
    server.close();
  }
  const ratio = median(rows.map((r) => r.cpuRatio));
  const wallRatio = median(rows.map((r) => r.wallRatio));
  const met = ratio <= target;
  console.log(
    `\nmsw in-process: GET /v1/videos/{id} through fetch, ${cfg.requests} requests × ${cfg.rounds} rounds ` +
      `in batches of ${cfg.batch}, ${cfg.concurrency} in flight; load average ${host.loadAverage1m}\n`,
  );
  console.log(roundsTable(rows));
  console.log(
    `\ncreateHandlers / trivial handler, median of CPU per request: ` +
      `${fixed(ratio, 3)} (target ≤ ${target}: ${met ? 'met' : 'MISSED'}); of ` +
      `wall time: ${fixed(wallRatio, 3)}`,
  );
  writeJson(cfg.out, {
    benchmark: 'msw-inprocess',
    date: new Date().toISOString(),
    machine: host,
    config: {
      rounds: cfg.rounds,
      requests: cfg.requests,
      batch: cfg.batch,
      concurrency: cfg.concurrency,
    },
    answer: { bytes: Buffer.byteLength(created.body), body: created.body },
    rounds: rows,
    medianCpuRatio: ratio,
    medianWallRatio: wallRatio,
    target: { atMost: target, met },
  });
  console.log(`\nwritten: ${fileURLToPath(cfg.out)}`);
  return 0;
}

async function createTask(): Promise<{ id: string; headers: Headers; body: string }> {
  const response = await fetch(`${origin}/v1/video/generations`, {
    method: 'POST',
    headers: { ...authHeaders, 'content-type': 'application/json', 'x-mock-scenario': 'stuck' },
    body: JSON.stringify({ model, prompt: 'a kite' }),
  });
  const id = ((await response.json()) as { id: string }).id;
  const answer = await fetch(`${origin}/v1/videos/${id}`, { headers: authHeaders });
  return { id, headers: answer.headers, body: await answer.text() };
}

runMain(main);
