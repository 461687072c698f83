// Driving a `videotask mock` process over HTTP as alice: requests on connections of their own (so
// with `--workers N` they spread over the workers), or on one kept-alive connection pinned to one
// worker; the worker that answered, the workers' processes, the process holding a connection.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { Agent, request } from 'node:http';
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
  return send(base, method, path, body, false);
}

function send(
  base: string,
  method: string,
  path: string,
  body: unknown,
  agent: Agent | false,
  onSocket?: (localPort: number | undefined) => void,
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = { authorization: `Bearer ${ALICE}` };
  if (agent === false) headers['connection'] = 'close';
  if (method !== 'GET') headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const worker = String(res.headers['x-mock-worker'] ?? '');
        const requestId = String(res.headers['x-oneapi-request-id'] ?? '');
        resolve({ status: res.statusCode!, worker, requestId, text });
      });
    });
    req.on('error', reject);
    if (onSocket !== undefined)
      req.on('socket', (socket) => {
        if (socket.localPort !== undefined) onSocket(socket.localPort);
        else socket.once('connect', () => onSocket(socket.localPort));
      });
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

export interface PinnedConnection {
  /** The worker process holding the connection's server side. */
  readonly pid: number;
  /** The connection's port on the client's side (to find it in /proc/net/tcp). */
  readonly localPort: number;
  readonly call: typeof call;
  close(): void;
}

/**
 * One kept-alive connection, and the worker process holding it (node:cluster gave it to one worker:
 * every request on it goes there). `call` fails if the connection had to be opened again.
 */
export async function pinnedConnection(
  base: string,
  pids: readonly number[],
): Promise<PinnedConnection> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let port: number | undefined;
  let moved = false;
  const pinned = async (b: string, method: string, path: string, body?: unknown) => {
    const answer = await send(b, method, path, body, agent, (localPort) => {
      moved ||= port !== undefined && localPort !== port;
      port ??= localPort;
    });
    if (moved) throw new Error('the pinned connection was closed and another opened');
    return answer;
  };
  await pinned(base, 'GET', '/v1/models');
  const pid = connectionHolder(Number(new URL(base).port), port!, pids);
  if (pid === undefined) throw new Error(`no worker of ${pids.join(', ')} holds port ${port}`);
  return { pid, localPort: port!, call: pinned, close: () => agent.destroy() };
}

/** `count` kept-alive connections all held by the worker process `pid` (node:cluster deals them in turn). */
export async function pinnedTo(
  base: string,
  pids: readonly number[],
  pid: number,
  count: number,
): Promise<PinnedConnection[]> {
  const held: PinnedConnection[] = [];
  for (let tries = 0; held.length < count; tries++) {
    if (tries > 20 * count) throw new Error(`worker ${pid} was dealt no ${count} connections`);
    const connection = await pinnedConnection(base, pids);
    if (connection.pid === pid) held.push(connection);
    else connection.close();
  }
  return held;
}

/**
 * Whether the server side of the loopback connection from `clientPort` to `serverPort` has read
 * every byte the client sent (its receive queue in /proc/net/tcp is empty).
 */
export function readByServer(serverPort: number, clientPort: number): boolean {
  const fields = serverSide(serverPort, clientPort);
  return fields !== undefined && fields[4]!.endsWith(':00000000');
}

/** The /proc/net/tcp fields of the server side of a loopback connection (Linux). */
function serverSide(serverPort: number, clientPort: number): string[] | undefined {
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .find((f) => f[1]?.endsWith(`:${hex(serverPort)}`) && f[2]?.endsWith(`:${hex(clientPort)}`));
}

/**
 * Which of `pids` holds the server side of the loopback connection from `clientPort` to `serverPort`
 * (Linux: /proc/net/tcp names the socket's inode, /proc/PID/fd the process holding it).
 */
export function connectionHolder(
  serverPort: number,
  clientPort: number,
  pids: readonly number[],
): number | undefined {
  const inode = serverSide(serverPort, clientPort)?.[9];
  if (inode === undefined) return undefined;
  return pids.find((pid) =>
    readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`;
      } catch {
        return false; // closed meanwhile
      }
    }),
  );
}
