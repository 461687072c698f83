// The servers bench/http-throughput.ts loads, each in a child process of its own:
//   mock   `node bin/videotask.js mock` (the command users run), with one task that stays in_progress
//   bare   a bare node:http server answering the same bytes as the mock's GET /v1/videos/{id}
//   host   the mock's node host answering those bytes in place of its core (the host's own cost)
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { authHeaders, model } from './mock-api.ts';
import { stop, track, waitForExit } from './processes.ts';
import type { ChildMessage, ParentMessage } from './server-child.ts';

export interface Started {
  readonly url: string;
  /** What the benchmark loads: `url` + `path`. */
  readonly path: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

export interface Answer {
  readonly status: number;
  /** What the server chose to send (not the framing node adds: date, connection, keep-alive). */
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

const FRAMING = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
]);

const rootDir = fileURLToPath(new URL('../../', import.meta.url));
const cli = fileURLToPath(new URL('../../bin/videotask.js', import.meta.url));
const serverChild = fileURLToPath(new URL('./server-child.ts', import.meta.url));

export async function get(url: string): Promise<Answer> {
  const response = await fetch(url, { headers: authHeaders, signal: AbortSignal.timeout(5000) });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!FRAMING.has(name)) headers[name] = value;
  });
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) };
}

/** Resolves with the URL of the listening line, or rejects when the child exits or stays silent. */
function listening(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`no listening line in ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      out = (out + chunk.toString('utf8')).slice(-8000);
      const match = /videotask mock listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`videotask mock exited with code ${code} before listening`));
    });
  });
}

/**
 * Submits one task that starts running and never finishes (`stuck`): its answer keeps the same shape
 * (in_progress) for the whole run. Returns the path that queries it.
 */
async function submitTask(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/video/generations`, {
    method: 'POST',
    headers: { ...authHeaders, 'content-type': 'application/json', 'x-mock-scenario': 'stuck' },
    body: JSON.stringify({ model, prompt: 'a kite' }),
    signal: AbortSignal.timeout(5000),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`submit answered ${response.status}: ${text}`);
  const id = (JSON.parse(text) as { id?: unknown }).id;
  if (typeof id !== 'string') throw new Error(`submit answer has no string id: ${text}`);
  return `/v1/videos/${encodeURIComponent(id)}`;
}

/**
 * `videotask mock --port 0 --seed N`, with `nodeArgs` (e.g. `--cpu-prof`) for node itself; `bin` is
 * the videotask command to run (default: this checkout's, to compare with another one); `mockArgs`
 * are added to its command line (`--workers 2`).
 */
export async function startMock(
  seed: number,
  nodeArgs: readonly string[],
  bin = cli,
  mockArgs: readonly string[] = [],
): Promise<Started> {
  const args = [
    ...nodeArgs,
    bin,
    'mock',
    '--port',
    '0',
    '--host',
    '127.0.0.1',
    '--seed',
    `${seed}`,
    ...mockArgs,
  ];
  const child = track(
    spawn(process.execPath, args, { cwd: rootDir, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  const stopMock = async (): Promise<void> => void (await stop(child, 'SIGTERM', 10_000));
  try {
    const url = await listening(child, 30_000);
    child.stdout?.resume();
    return { url, path: await submitTask(url), child, stop: stopMock };
  } catch (error) {
    await stopMock();
    throw error;
  }
}

/**
 * A bare node:http server (bench/lib/server-child.ts) answering `answer`, headers and body, to every
 * request; with `workers` > 1, that many node:cluster workers on its port.
 */
export function startBare(
  answer: Answer,
  nodeArgs: readonly string[],
  workers = 1,
): Promise<Started> {
  return startFixed('bare', answer, nodeArgs, workers);
}

/** The mock's node host (bench/lib/server-child.ts `host`) answering `answer` in place of its core. */
export function startHost(answer: Answer, nodeArgs: readonly string[]): Promise<Started> {
  return startFixed('host', answer, nodeArgs, 1);
}

async function startFixed(
  mode: 'bare' | 'host',
  answer: Answer,
  nodeArgs: readonly string[],
  workers: number,
): Promise<Started> {
  const body = answer.body.toString('base64');
  const args = [mode, body, JSON.stringify(answer.headers), String(workers)];
  const child = track(
    fork(serverChild, args, {
      cwd: rootDir,
      execArgv: ['--import', 'tsx', ...nodeArgs],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${mode} server not ready within 30 s`)),
      30_000,
    );
    child.on('message', (message: ChildMessage) => {
      clearTimeout(timer);
      if (message.type === 'ready') resolve(message.url);
      else reject(new Error(message.message));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${mode} server exited with code ${code} before it was ready`));
    });
  }).catch(async (error: unknown) => {
    await stop(child, 'SIGKILL');
    throw error;
  });
  const stopFixed = async (): Promise<void> => {
    if (child.connected) child.send({ type: 'stop' } satisfies ParentMessage);
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await waitForExit(child);
    clearTimeout(timer);
  };
  return { url, path: '/', child, stop: stopFixed };
}
