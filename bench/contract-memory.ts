/**
 * Peak memory of `videotask contract` against a deployment that pads every JSON answer (issue 24
 * item 6: answers padded to 1 MiB grew the runner to 2.35 GB after 63 requests). The CLI runs against
 * the mock (`--speed 3`, so its tasks take long enough for a few hundred requests) behind a padding
 * proxy, once with no padding (the baseline of the same run) and once padded to `--pad` MiB; the ratio
 * of the two peaks is the figure (target ≤ 3: bounded, whatever the number of requests).
 *
 *   npx tsx bench/contract-memory.ts [--pad 1] [--speed 3] [--out bench/results/contract-memory.json]
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startMockServer } from '../mocks/node/http/server.ts';
import { benchFlags } from './lib/cli-flags.ts';
import { positive } from './lib/cli-numbers.ts';
import { startPaddingProxy } from './lib/padding-proxy.ts';
import { runMain, watchdog } from './lib/processes.ts';
import { fixed, machine, table, writeJson } from './lib/report.ts';

const CLI = fileURLToPath(new URL('../bin/videotask.js', import.meta.url));
/** Loaded into the CLI's process: at exit it prints its own peak resident memory on stderr. */
const REPORTER = `data:text/javascript,${encodeURIComponent(
  "process.on('exit', () => process.stderr.write(`maxrss_kb=${process.resourceUsage().maxRSS}\\n`));",
)}`;
const usage = `Usage: npx tsx bench/contract-memory.ts [options]
  --pad MIB       pad every JSON answer to this many MiB (default 1)
  --speed N       the mock's clock speed (default 3)
  --out FILE      JSON results (default bench/results/contract-memory.json)`;
const values = benchFlags(
  { name: 'contract-memory', usage },
  { pad: { type: 'string', default: '1' }, speed: { type: 'string', default: '3' } },
);
const TARGET_RATIO = 3;

interface Run {
  readonly padBytes: number;
  readonly requests: number;
  readonly peakRssMb: number;
  readonly exitCode: number;
}

/** One contract run through a proxy padding every JSON answer to `padBytes` (0: none). */
async function run(padBytes: number): Promise<Run> {
  const mock = await startMockServer({ port: 0, speed: positive('speed', values.speed) });
  const proxy = await startPaddingProxy(mock.url, padBytes);
  const args = ['--import', REPORTER, CLI, 'contract', '--base-url', proxy.url]
    .concat(['--api-key', 'sk-mock-alice', '--other-api-key', 'sk-mock-bob'])
    .concat(['--poll-initial', '0.05', '--poll-max', '0.3']);
  try {
    return await new Promise((resolve) =>
      execFile(process.execPath, args, { timeout: 300_000 }, (error, _stdout, stderr) => {
        const kb = Number(/maxrss_kb=(\d+)/.exec(stderr)?.[1] ?? NaN);
        const exitCode = error === null ? 0 : typeof error.code === 'number' ? error.code : 99;
        resolve({ padBytes, requests: proxy.requests(), peakRssMb: kb / 1024, exitCode });
      }),
    );
  } finally {
    await proxy.close();
    await mock.close();
  }
}

async function main(): Promise<number> {
  watchdog(900, 'contract-memory');
  const plain = await run(0);
  const padded = await run(positive('pad', values.pad) * 2 ** 20);
  const ratio = padded.peakRssMb / plain.peakRssMb;
  console.log(
    table([
      ['answers', 'requests', 'peak RSS MB', 'exit'],
      ...[plain, padded].map((r) => [
        r.padBytes === 0 ? 'plain' : `padded to ${values.pad} MiB`,
        String(r.requests),
        fixed(r.peakRssMb),
        String(r.exitCode),
      ]),
    ]),
  );
  console.log(`padded/plain peak RSS: ${fixed(ratio, 2)} (target ≤ ${TARGET_RATIO})`);
  writeJson(pathToFileURL(resolve(values.out)), {
    machine: machine(),
    runs: [plain, padded],
    ratio,
    target: TARGET_RATIO,
  });
  return ratio <= TARGET_RATIO && plain.exitCode === 0 && padded.exitCode === 0 ? 0 : 1;
}

runMain(main);
