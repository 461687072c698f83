/**
 * What one status query (GET /v1/videos/{id}) costs in-process on the service core (`service.handle`,
 * the path both hosts call), ns per query, in four setups: the documented profile, the built-in
 * `observed` profile (a learned replay), one defect wrapper (`progress-decrease`, which reads the
 * task in its `after`), and a wrapper that reads nothing of its context. With `--base DIR` (a checkout
 * of another commit, e.g. `git archive main | tar -x -C DIR` and a `node_modules` link), each setup
 * also runs on that checkout's mocks, rounds interleaved in the same process, and the ratio this/base
 * is printed: issue 23's "before and after" in one run.
 *
 *   npx tsx bench/hot-path.ts [--base DIR] [--rounds 9] [--queries 50000]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CoreRequest, CoreResponse } from '../mocks/core/http/http-types.ts';
import { benchFlags } from './lib/cli-flags.ts';
import { count } from './lib/cli-numbers.ts';
import { fixed, machine, median, table, writeJson } from './lib/report.ts';

const usage = `Usage: npx tsx bench/hot-path.ts [options]
  --base DIR      also measure another checkout's mocks (git archive REV | tar -x -C DIR; link node_modules)
  --rounds N      interleaved rounds (default 9)
  --queries N     status queries per round and setup (default 50000)
  --out FILE      JSON results (default bench/results/hot-path.json)`;
const values = benchFlags(
  { name: 'hot-path', usage },
  {
    base: { type: 'string' },
    rounds: { type: 'string', default: '9' },
    queries: { type: 'string', default: '50000' },
  },
);
const ROUNDS = count('rounds', values.rounds);
const QUERIES = count('queries', values.queries);

interface Service {
  handle(request: CoreRequest): CoreResponse;
}
type Factory = (options: Record<string, unknown>) => Service;

const SETUPS: Record<string, Record<string, unknown>> = {
  documented: {},
  observed: { profile: 'observed' },
  'one defect': { defects: ['progress-decrease'] },
  'idle wrapper': { wrap: [{ after: (_request: unknown, response: CoreResponse) => response }] },
};
const KEY = 'sk-bench-hot-path';

async function factoryOf(root: string): Promise<Factory> {
  const entry = pathToFileURL(resolve(root, 'mocks/index.ts')).href;
  return ((await import(entry)) as { createMockService: Factory }).createMockService;
}

/** A service with one running task, and a query of it as a host makes one (fresh strings each time). */
function prepare(create: Factory, options: Record<string, unknown>): () => void {
  const service = create({
    clock: { mode: 'manual', start: Date.UTC(2026, 10, 22) },
    seed: 'bench',
    secret: 'bench',
    tokens: [{ key: KEY, user: 'bench', group: 'default' }],
    clientVerdicts: false,
    ...options,
  });
  const created = ask(service, 'POST', '/v1/videos', { model: 'video-pro-v1', prompt: 'kite' });
  if (created.status !== 200) throw new Error(`submission answered ${created.status}`);
  const { id } = JSON.parse(created.body as string) as { id: string };
  return () => {
    const r = ask(service, 'GET', `/v1/videos/${id}`);
    if (r.status !== 200) throw new Error(`query answered ${r.status}`);
  };
}

/** One request as a host makes it: a fresh path and header string each time. */
function ask(service: Service, method: string, path: string, json?: object): CoreResponse {
  const headers: Record<string, string> = { authorization: `Bearer ${KEY}`.slice(0) };
  if (json !== undefined) headers['content-type'] = 'application/json';
  const body = json === undefined ? undefined : new TextEncoder().encode(JSON.stringify(json));
  return service.handle({
    method,
    path: path.slice(0),
    query: '',
    headers,
    body,
    origin: 'http://b',
  });
}

function nsPerQuery(run: () => void): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < QUERIES; i++) run();
  return Number(process.hrtime.bigint() - start) / QUERIES;
}

const checkouts: Record<string, Factory> = {
  this: await factoryOf(resolve(import.meta.dirname, '..')),
};
if (values.base !== undefined) checkouts['base'] = await factoryOf(values.base);

const runs = Object.entries(SETUPS).flatMap(([setup, options]) =>
  Object.entries(checkouts).map(([checkout, create]) => ({
    setup,
    checkout,
    run: prepare(create, options),
    samples: [] as number[],
  })),
);
for (const r of runs) nsPerQuery(r.run); // warm up
for (let round = 0; round < ROUNDS; round++)
  for (const r of round % 2 === 0 ? runs : [...runs].reverse()) r.samples.push(nsPerQuery(r.run));

const result = Object.fromEntries(
  Object.keys(SETUPS).map((setup) => {
    const of = (checkout: string) =>
      runs.find((r) => r.setup === setup && r.checkout === checkout)?.samples;
    const mine = of('this')!;
    const base = of('base');
    const ratios = base?.map((b, i) => mine[i]! / b);
    return [
      setup,
      {
        nsPerQuery: median(mine),
        rounds: mine.map(Math.round),
        ...(base === undefined
          ? {}
          : {
              baseNsPerQuery: median(base),
              baseRounds: base.map(Math.round),
              ratio: median(ratios!),
            }),
      },
    ];
  }),
);
const rows = Object.entries(result).map(([setup, r]) => [
  setup,
  fixed(r.nsPerQuery, 0),
  r.baseNsPerQuery === undefined ? '' : fixed(r.baseNsPerQuery, 0),
  r.ratio === undefined ? '' : fixed(r.ratio, 2),
]);
console.log(table([['status query', 'ns (this)', 'ns (base)', 'this/base'], ...rows]));
const saved = {
  benchmark: 'hot-path',
  date: new Date().toISOString(),
  machine: machine(),
  queries: QUERIES,
  base: values.base,
  result,
};
writeJson(pathToFileURL(resolve(values.out)), saved);
