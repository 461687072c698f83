// The socket fuzz layer: the real node:http host over TCP on 127.0.0.1, for what only a socket shows.
import fc from 'fast-check';
import { startMockServer, type MockServerOptions } from '../../mocks/node/http/server.ts';
import type { PreludeTask } from './arbitraries.ts';
import { failure, REQUEST_TIMEOUT_MS, show, within } from './fuzz-support.ts';
import { checkExchange, text, type Exchange, type FuzzStats } from './oracle.ts';
import { sendRaw, type RawResult } from './raw-http.ts';
import { encodeRequest, split } from './wire-encoding.ts';
import { socketCase, type SocketCase } from './wire-spec.ts';
import { nodeHeaders } from './node-headers.ts';
import { FuzzWorld, fuzzSecret } from './world.ts';

/** How long a request asking for `lost-answer:S` is given: a held answer is not waited out. */
const LOST_ANSWER_WAIT_MS = 500;
export interface SocketTarget {
  readonly port: number;
  readonly world: FuzzWorld;
}

/** Sends one socket case and checks what came back. */
export async function runSocketCase(
  c: SocketCase,
  target: SocketTarget,
  stats: FuzzStats,
): Promise<void> {
  const { world, port } = target;
  const { service } = world;
  if (c.advance > 0) service.clock.advance(c.advance);
  const call = world.resolve(c.call);
  const wire = encodeRequest(call, c.wire, port);
  // Scenario `lost-answer[:S]` (§7): a submission it creates gets no answer (dropped, or held S seconds).
  const asksLostAnswer = /lost-answer/i.test(
    `${wire.head.toString('latin1')}${wire.body.toString('latin1')}`,
  );
  const tasksBefore = service.store.size;
  const result = await sendRaw({
    port,
    pieces: [...split(wire.head, c.wire.pieces), ...split(wire.body, c.wire.pieces)].filter(
      (p) => p.byteLength > 0,
    ),
    after: wire.after,
    method: call.method,
    timeoutMs: asksLostAnswer ? LOST_ANSWER_WAIT_MS : REQUEST_TIMEOUT_MS,
  });
  stats.cases.socket++;
  const lost =
    asksLostAnswer && service.store.size === tasksBefore + 1 && result.response === undefined;
  if (lost) return stats.bump(stats.outcomes, 'lost-answer: task created, no answer (as asked)');
  const wireText = () =>
    JSON.stringify({ ...c.wire, injected: c.wire.injected.map((l) => text(l, 60)) });
  const where = () =>
    `\n  request: ${show(call, ` wire=${wireText()}`)}\n  result: ${summarize(result)}`;
  if (result.timedOut)
    throw new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms (hang)${where()}`);
  if (result.ms > REQUEST_TIMEOUT_MS) throw new Error(`took ${Math.round(result.ms)} ms${where()}`);
  if (wire.after === 'destroy')
    return stats.bump(stats.outcomes, 'client closed early on purpose (no answer expected)');
  if (result.response === undefined) {
    const oversize = wire.body.byteLength > world.maxBodyBytes;
    if (oversize && (result.error === 'ECONNRESET' || result.error === 'EPIPE'))
      return stats.bump(
        stats.outcomes,
        `oversize body: connection reset before the 413 was read (${result.error})`,
      );
    throw new Error(`connection closed without an answer${where()}`);
  }
  const { response } = result;
  const hostLevel = response.headers['x-oneapi-request-id'] === undefined;
  if (hostLevel) stats.bump(stats.outcomes, `answered by the host: ${response.status}`);
  const targetText = `${call.path}${call.query === '' ? '' : `?${call.query}`}`;
  const q = targetText.indexOf('?');
  // The injected raw lines count too when node would read them as headers (after the generated ones, as sent).
  const injected = c.wire.injected.flatMap((line): [string, string][] => {
    const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/.exec(
      Buffer.from(line).toString('latin1'),
    );
    return m === null ? [] : [[m[1]!, m[2]!]];
  });
  const exchange: Exchange = {
    layer: 'socket',
    method: call.method,
    path: q < 0 ? targetText : targetText.slice(0, q),
    query: q < 0 ? '' : targetText.slice(q + 1),
    headers: nodeHeaders([...wire.sentHeaders, ...injected]),
    body: call.body,
    status: response.status,
    responseHeaders: response.headers,
    responseBody: response.body,
    hostLevel,
  };
  const problems = checkExchange(service, exchange, stats);
  if (problems.length > 0) throw new Error(`${problems.join('\n  ')}${where()}`);
}

function summarize(result: RawResult): string {
  const r = result.response;
  const answer =
    r === undefined ? 'no response' : `${r.status} ${JSON.stringify(r.headers)} ${text(r.body)}`;
  return (
    `${answer}; closedByServer=${result.closedByServer} error=${result.error ?? '-'} ` +
    `received=${result.received} ms=${Math.round(result.ms)}`
  );
}

/** The socket server's standing tasks: some of each built-in user, in every scenario that matters. */
const SOCKET_PRELUDE: readonly PreludeTask[] = [
  { keyIndex: 0, via: 'generations', model: 'video-pro-v1', scenario: null },
  { keyIndex: 0, via: 'videos', model: 'video-lite-v1', scenario: 'flaky' },
  { keyIndex: 0, via: 'videos', model: 'video-pro-v1', scenario: 'fail' },
  { keyIndex: 1, via: 'generations', model: 'video-pro-v1', scenario: null },
  { keyIndex: 1, via: 'videos', model: 'video-pro-v1', scenario: 'stuck' },
  { keyIndex: 2, via: 'native', model: 'alt-video-v2', scenario: null },
  { keyIndex: 2, via: 'videos', model: 'video-pro-v1', scenario: 'flaky:3' },
];

export const SOCKET_MAX_BODY = 512;

async function health(port: number): Promise<void> {
  const result = await sendRaw({
    port,
    pieces: [
      Buffer.from(
        `GET /__mock/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
      ),
    ],
    after: 'keep',
    method: 'GET',
    timeoutMs: REQUEST_TIMEOUT_MS,
  });
  if (result.response?.status !== 200) throw new Error(`health check failed: ${summarize(result)}`);
}

/**
 * `runs` socket cases against real servers (half documented and unbound, half observed and bound),
 * a health check every `batch` cases and at the end.
 */
export async function fuzzSocket(options: {
  seed: number;
  runs: number;
  stats: FuzzStats;
  batch?: number;
}): Promise<void> {
  const { seed, runs, stats, batch = 25 } = options;
  const configs: MockServerOptions[] = [
    { profile: 'documented', familyBound: false },
    { profile: 'observed', familyBound: true },
  ];
  for (let i = 0; i < configs.length; i++) {
    const server = await startMockServer({
      ...configs[i],
      port: 0,
      host: '127.0.0.1',
      clock: { mode: 'manual', start: Date.UTC(2026, 10, 22) },
      seed,
      secret: fuzzSecret(seed),
      maxBodyBytes: SOCKET_MAX_BODY,
    });
    const world = new FuzzWorld(server.service, SOCKET_MAX_BODY, null);
    const target = { port: server.port, world };
    let count = 0;
    try {
      await fc.assert(
        fc.asyncProperty(socketCase, async (c) => {
          if (world.service.store.size < 4) for (const task of SOCKET_PRELUDE) world.submit(task);
          await runSocketCase(c, target, stats);
          if (++count % batch === 0) await health(server.port);
        }),
        {
          seed: seed + i,
          numRuns: Math.ceil(runs / configs.length),
          endOnFailure: true,
          includeErrorInReport: true,
        },
      );
      await health(server.port);
    } catch (error) {
      await server.close();
      throw failure(`socket (${JSON.stringify(configs[i])})`, seed, stats, error);
    }
    // Every connection must be gone: a socket the host forgot would keep close() waiting for ever.
    const closed = await within(server.close(), 3000);
    if (!closed)
      throw failure(
        `socket (${JSON.stringify(configs[i])})`,
        seed,
        stats,
        new Error('the server did not close within 3 s after the run: a connection was left open'),
      );
  }
}
