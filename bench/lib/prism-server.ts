// Prism 5.14.2 mocking spec/openapi.yaml: the reference OpenAPI mock bench/http-throughput.ts can compare
// with (`--prism`). Benchmark-only: installed into bench/peers/ on first use.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { authHeaders } from './mock-api.ts';
import { freePort, stop, track, waitForExit, waitForHttp } from './processes.ts';
import type { Started } from './throughput-servers.ts';

const rootDir = fileURLToPath(new URL('../../', import.meta.url));
const peersDir = fileURLToPath(new URL('../peers/', import.meta.url));
const prismEntry = fileURLToPath(
  new URL('../peers/node_modules/@stoplight/prism-cli/dist/index.js', import.meta.url),
);
const specPath = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));

/** Installs bench/peers (Prism) on first use; false (with the reason printed) when it cannot. */
export async function ensurePrism(): Promise<boolean> {
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
  console.error(`Prism install failed (exit ${String(exit.code ?? exit.signal)}): skipping Prism.`);
  return false;
}

/** `prism mock spec/openapi.yaml` on a free port; `logLevel` warn spares it a log line per request. */
export async function startPrism(logLevel: string): Promise<Started> {
  const port = await freePort();
  const args = [prismEntry, 'mock', specPath, '-p', `${port}`, '-h', '127.0.0.1', '-v', logLevel];
  const child = track(
    spawn(process.execPath, args, { cwd: rootDir, stdio: ['ignore', 'pipe', 'pipe'] }),
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
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${message}\n${tail}`, { cause: error });
  }
  return { url, path, child, stop: async () => void (await stop(child, 'SIGTERM', 5000)) };
}
