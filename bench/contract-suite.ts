/**
 * Wall time of the whole contract suite against the mock with a fast clock (target: under 20 s on
 * 2 cores): `videotask contract` with no --base-url starts the mock at 100× and checks it, as QA would
 * run it locally. Also times a run against a separately started `videotask mock --speed 1000`.
 *
 *   npx tsx bench/contract-suite.ts [--runs 3]
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const RUNS = Number(values.runs);

function timed(args: string[]): Promise<{ ms: number; code: number; summary: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/videotask.js', ...args],
      { cwd: ROOT, timeout: 120_000 },
      (error, stdout) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 99;
        resolve({
          ms: performance.now() - started,
          code,
          summary: stdout.split('\n').find((l) => /passed, .* failed/.test(l)) ?? '',
        });
      },
    );
  });
}

async function withMock<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const child = spawn(
    process.execPath,
    ['bin/videotask.js', 'mock', '--port', '0', '--speed', '1000'],
    { cwd: ROOT },
  );
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
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

const bundled: number[] = [];
const external: number[] = [];
let summary = '';
for (let i = 0; i < RUNS; i++) {
  const run = await timed(['contract']);
  if (run.code !== 0) throw new Error(`contract against the bundled mock exited ${run.code}`);
  bundled.push(run.ms);
  summary = run.summary;
  const ext = await withMock((url) =>
    timed([
      'contract',
      '--base-url',
      url,
      '--api-key',
      'sk-mock-alice',
      '--other-api-key',
      'sk-mock-bob',
      '--poll-initial',
      '0.01',
      '--poll-max',
      '0.05',
    ]),
  );
  if (ext.code !== 0)
    throw new Error(`contract against videotask mock --speed 1000 exited ${ext.code}`);
  external.push(ext.ms);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const result = {
  benchmark: 'contract-suite',
  date: new Date().toISOString(),
  runs: RUNS,
  summary,
  bundledMockMs: { median: Math.round(median(bundled)), max: Math.round(Math.max(...bundled)) },
  externalMockMs: { median: Math.round(median(external)), max: Math.round(Math.max(...external)) },
  target: { underMs: 20_000, met: Math.max(...bundled, ...external) < 20_000 },
};
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(
  new URL('./results/contract-suite.json', import.meta.url),
  `${JSON.stringify(result, null, 2)}\n`,
);
console.log(`${summary}`);
console.log(
  `videotask contract (bundled mock, 100×):        median ${result.bundledMockMs.median} ms, max ${result.bundledMockMs.max} ms`,
);
console.log(
  `videotask contract (videotask mock --speed 1000): median ${result.externalMockMs.median} ms, max ${result.externalMockMs.max} ms`,
);
console.log(`whole suite under 20 s wall: ${result.target.met ? 'met' : 'MISSED'}`);
