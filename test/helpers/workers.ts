// Driving a `videotask mock` process over HTTP as alice: requests on connections of their own (so
// with `--workers N` they spread over the workers), the worker that answered, the workers' processes.
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { listening, spawnMock, type MockProcess } from './mock-process.ts';

const BANNER_END = /secret: .*\n/;
const ALICE = 'sk-mock-alice';

export interface Answer {
  readonly status: number;
  /** `x-mock-worker`: '' when the primary answered (a control request). */
  readonly worker: string;
  /** `x-oneapi-request-id`. */
  readonly requestId: string;
  readonly text: string;
}

/** One request on a connection of its own (`Connection: close`), so that requests spread over the workers. */
export function call(base: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = { authorization: `Bearer ${ALICE}`, connection: 'close' };
  if (method !== 'GET') headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const worker = String(res.headers['x-mock-worker'] ?? '');
        const requestId = String(res.headers['x-oneapi-request-id'] ?? '');
        resolve({ status: res.statusCode!, worker, requestId, text });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

export async function submit(base: string, prompt: string, extra: object = {}): Promise<string> {
  const body = { model: 'video-pro-v1', prompt, ...extra };
  const answer = await call(base, 'POST', '/v1/videos', body);
  if (answer.status !== 200)
    throw new Error(`submission answered ${answer.status}: ${answer.text}`);
  return (JSON.parse(answer.text) as { id: string }).id;
}

/** `count` reads of the same path at once, each on its own connection. */
export const readMany = (base: string, path: string, count = 6): Promise<Answer[]> =>
  Promise.all(Array.from({ length: count }, () => call(base, 'GET', path)));

export const statusOf = (answer: Answer): string =>
  (JSON.parse(answer.text) as { status: string }).status;

export async function startWorkers(
  ...args: string[]
): Promise<{ mock: MockProcess; base: string }> {
  const mock = spawnMock('--port', '0', '--workers', '2', ...args);
  const base = await listening(mock, BANNER_END, 30_000);
  return { mock, base };
}

/** The worker processes of a primary (its children running the CLI). */
export function workerPids(primary: number): number[] {
  const lines = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(primary)], {
    encoding: 'utf8',
  });
  return lines
    .split('\n')
    .filter((line) => line.includes('videotask.js mock'))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}
