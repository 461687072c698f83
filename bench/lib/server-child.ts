// Entry point of the fixed-answer server children of bench/http-throughput.ts (forked with tsx's loader):
//   server-child.ts bare <base64 body> <headers as JSON> [workers]
// a bare node:http server answering one fixed answer to every request: the ceiling for any Node server.
// With workers > 1, that many node:cluster workers share its port (bench/workers-throughput.ts).
//   server-child.ts host <base64 body> <headers as JSON>
// the mock's node host (mocks/node/http/server.ts) with the core replaced by that fixed answer: what
// the host costs on top of node:http, apart from what the core costs.
// Reports { type: 'ready', url } over IPC, stops on { type: 'stop' } or when the parent goes away.
import cluster from 'node:cluster';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMockServer } from '../../mocks/node/http/server.ts';

export type ChildMessage = { type: 'ready'; url: string } | { type: 'error'; message: string };
export type ParentMessage = { type: 'stop' };

const host = '127.0.0.1';

function send(message: ChildMessage): void {
  process.send?.(message);
}

async function startBare(
  bodyBase64: string,
  headersJson: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const body = Buffer.from(bodyBase64, 'base64');
  const headers = {
    ...(JSON.parse(headersJson) as Record<string, string>),
    'content-length': String(body.byteLength),
  };
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The node host answering the fixed answer in place of the core, as the core would hand it over. */
async function startHost(
  bodyBase64: string,
  headersJson: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const body = Buffer.from(bodyBase64, 'base64').toString('utf8');
  const { 'content-type': contentType = 'application/json; charset=utf-8', ...others } = JSON.parse(
    headersJson,
  ) as Record<string, string>;
  const named = Object.entries(others);
  const server = await startMockServer({
    port: 0,
    host,
    // Headers built the way the core builds an answer's (mocks/core/http/http-types.ts: a literal, then the
    // request ID set by name), not as a copy of the parsed object (`{ ...headers }`): once the host
    // adds content-length, V8 moves such a copy to a new map on every request (~2 µs, measured), a
    // cost of this stand-in that the host never pays behind the real core.
    answer: () => {
      const headers: Record<string, string> = { 'content-type': contentType };
      for (const [name, value] of named) headers[name] = value;
      return { status: 200, headers, body };
    },
  });
  return { url: server.url, close: () => server.close() };
}

/** The primary of `workers` bare servers on one port: ready once each listens. */
async function startWorkers(workers: number): Promise<{ url: string; close(): Promise<void> }> {
  const forked = Array.from({ length: workers }, () => cluster.fork());
  const urls = await Promise.all(
    forked.map(
      (worker) =>
        new Promise<string>((resolve, reject) => {
          worker.once('listening', (address) => resolve(`http://${host}:${address.port}`));
          worker.once('exit', (code) => reject(new Error(`bare worker exited with ${code}`)));
        }),
    ),
  );
  const close = async (): Promise<void> => {
    const exits = forked.map((w) => new Promise((resolve) => w.once('exit', resolve)));
    for (const worker of forked) worker.kill();
    await Promise.all(exits);
  };
  return { url: urls[0]!, close };
}

async function main(): Promise<void> {
  const [mode, ...args] = process.argv.slice(2);
  let running: { url: string; close(): Promise<void> };
  if (mode === 'bare') {
    const [bodyBase64 = '', headersJson = '{}', workers = '1'] = args;
    if (Number(workers) > 1 && cluster.isPrimary) running = await startWorkers(Number(workers));
    else running = await startBare(bodyBase64, headersJson);
    if (cluster.isWorker) return; // its primary reports for it, and stops it by exiting
  } else if (mode === 'host') {
    const [bodyBase64 = '', headersJson = '{}'] = args;
    running = await startHost(bodyBase64, headersJson);
  } else {
    throw new Error(`unknown mode ${String(mode)}`);
  }

  let stopping = false;
  const shutdown = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    const forced = setTimeout(() => process.exit(0), 3000);
    forced.unref();
    await running.close();
    process.disconnect?.();
    process.exit(0);
  };
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'stop') void shutdown();
  });
  process.on('disconnect', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  send({ type: 'ready', url: running.url });
}

main().catch((error: unknown) => {
  if (error instanceof Error && error.stack !== undefined) console.error(error.stack);
  send({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
