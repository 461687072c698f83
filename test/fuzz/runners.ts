/**
 * The two fuzz layers, shared by the bounded vitest suites and the long run (`scripts/fuzz.ts`):
 *  - core: `createMockService(...).handle(request)` in-process, a fresh world per run, for volume;
 *  - socket: the real node:http host over TCP on 127.0.0.1, for what only a socket shows.
 * Each throws an Error naming the seed, the layer and the cases run when a property fails.
 */
import fc from 'fast-check';
import type { CoreRequest, CoreResponse } from '../../mocks/core/http-types.ts';
import { startMockServer, type MockServerOptions } from '../../mocks/hosts/node-server.ts';
import {
  callSpec,
  clockStep,
  worldSpec,
  type CallSpec,
  type PreludeTask,
  type WorldSpec,
} from './arbitraries.ts';
import { checkExchange, text, type Exchange, type FuzzStats } from './oracle.ts';
import { sendRaw, type RawResult } from './raw-http.ts';
import { FUZZ_ORIGIN, FuzzWorld, fuzzSecret, nodeHeaders, type ResolvedCall } from './world.ts';

/** The seed of the bounded runs unless `FUZZ_SEED` says otherwise. */
export const DEFAULT_FUZZ_SEED = 20261122;
/** No single request may take longer (a hang is a failure, not a slow test). */
export const REQUEST_TIMEOUT_MS = 5000;
/** How long a request asking for `lost-answer:S` is given: a held answer is not waited out. */
const LOST_ANSWER_WAIT_MS = 500;

export function fuzzSeed(): number {
  const raw = process.env['FUZZ_SEED'];
  if (raw === undefined || raw === '') return DEFAULT_FUZZ_SEED;
  const seed = Number(raw);
  if (!Number.isInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, got "${raw}"`);
  return seed;
}

function failure(layer: string, seed: number, stats: FuzzStats, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(
    `fuzz ${layer} failed (FUZZ_SEED=${seed}; cases so far: core ${stats.cases.core}, socket ${stats.cases.socket}, isolation ${stats.cases.isolation}; replay with FUZZ_SEED=${seed})\n${message}`,
  );
}

function show(call: ResolvedCall, extra = ''): string {
  const headers = call.headers.map(([n, v]) => `${n}: ${text(v, 80)}`).join(' | ');
  return `${call.method} ${text(call.path, 200)}${call.query === '' ? '' : `?${text(call.query, 120)}`} [${headers}] body=${text(call.body, 200)}${extra}`;
}

// ---------------------------------------------------------------------------------------------------
// Core layer

export interface CoreStep {
  readonly advance: number;
  readonly call: CallSpec;
  /** As a host says when it stopped reading an oversize body. */
  readonly bodyTooLarge: boolean;
  readonly remoteAddress: string | null;
}

export interface CoreCase {
  readonly world: WorldSpec;
  readonly steps: readonly CoreStep[];
}

export const coreCase: fc.Arbitrary<CoreCase> = fc.record({
  world: worldSpec,
  steps: fc.array(
    fc.record({
      advance: clockStep,
      call: callSpec(8),
      bodyTooLarge: fc.oneof(
        { weight: 20, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
      remoteAddress: fc.oneof(
        {
          weight: 8,
          arbitrary: fc.constantFrom<string | null>(null, '127.0.0.1', '::1', '::ffff:127.0.0.1'),
        },
        { weight: 1, arbitrary: fc.constantFrom('10.0.0.7', '::ffff:10.0.0.1', '', '127') },
      ),
    }),
    { minLength: 1, maxLength: 8 },
  ),
});

/** Runs one core case; throws with the exchange when a property fails. */
export function runCoreCase(c: CoreCase, stats: FuzzStats): void {
  const world = FuzzWorld.create(c.world);
  const { service } = world;
  for (const step of c.steps) {
    if (step.advance > 0) service.clock.advance(step.advance);
    const call = world.resolve(step.call);
    const request: CoreRequest = {
      method: call.method,
      path: call.path,
      query: call.query,
      headers: nodeHeaders(call.headers),
      body: call.body,
      origin: FUZZ_ORIGIN,
      remoteAddress: step.remoteAddress ?? undefined,
      bodyTooLarge: step.bodyTooLarge,
    };
    const started = performance.now();
    let response: CoreResponse;
    try {
      response = service.handle(request);
    } catch (error) {
      throw new Error(`handle threw ${(error as Error).stack}\n  request: ${show(call)}`, {
        cause: error,
      });
    }
    const ms = performance.now() - started;
    stats.cases.core++;
    const body =
      response.body === undefined
        ? undefined
        : typeof response.body === 'string'
          ? Buffer.from(response.body)
          : response.body;
    const exchange: Exchange = {
      layer: 'core',
      method: request.method,
      path: request.path,
      query: request.query,
      headers: request.headers,
      body: request.body,
      status: response.status,
      responseHeaders: response.headers,
      responseBody: body,
      hostLevel: false,
    };
    const problems = checkExchange(service, exchange, stats);
    if (ms > REQUEST_TIMEOUT_MS) problems.push(`took ${Math.round(ms)} ms`);
    if (problems.length > 0)
      throw new Error(
        `${problems.join('\n  ')}\n  request: ${show(call)}\n  answer: ${response.status} ${text(body)}`,
      );
  }
  const health = service.handle(world.healthRequest());
  if (health.status !== 200)
    throw new Error(`health check after the case answered ${health.status}: ${text(health.body)}`);
}

export function fuzzCore(options: { seed: number; runs: number; stats: FuzzStats }): void {
  const { seed, runs, stats } = options;
  try {
    fc.assert(
      fc.property(coreCase, (c) => runCoreCase(c, stats)),
      { seed, numRuns: runs, includeErrorInReport: true },
    );
  } catch (error) {
    throw failure('core', seed, stats, error);
  }
}

// ---------------------------------------------------------------------------------------------------
// Socket layer

export interface WireSpec {
  readonly requestLine:
    | 'normal'
    | 'extra-space'
    | 'tab'
    | 'lowercase-version'
    | 'no-version'
    | 'http10'
    | 'http2'
    | 'http12'
    | 'garbage'
    | 'bare-lf';
  readonly nameCase: 'lower' | 'title' | 'upper';
  readonly host: 'ok' | 'missing' | 'odd' | 'twice' | 'empty';
  readonly close: boolean;
  readonly framing:
    | 'auto'
    | 'chunked'
    | 'none'
    | 'length-dup'
    | 'length-conflict'
    | 'length-and-chunked'
    | 'bad-chunk'
    | 'length-lies-long'
    | 'length-lies-short'
    | 'length-garbage';
  readonly early: 'none' | 'destroy-after-headers' | 'destroy-mid-body' | 'half-close-mid-body';
  readonly injected: readonly Uint8Array[];
  readonly expect: string | null;
  readonly pieces: number;
}

const injectedLine: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc
    .constantFrom(
      'X-Nul: a\u0000b',
      'X-Del: a\u007fb',
      'Bad Name: x',
      ': no-name',
      ' folded continuation',
      'X-No-Colon',
      'X-Tab:\tv',
      'X-Bare-CR: a\rb',
      'Content-Length: 5, 5',
      'Transfer-Encoding: chunked, chunked',
      'Transfer-Encoding: identity',
      'Host: second.test',
      'Authorization: Bearer sk-mock-bob',
      'Content-Type: text/plain',
      'X-Mock-Scenario: flaky',
      'X-Mock-Scenario: fail-at-submit:503',
      'Connection: upgrade',
      'Upgrade: websocket',
      'Upgrade: h2c',
      'Expect: 100-continue',
      'Expect: nonsense',
      'Origin: http://app.test',
      'Cookie: a=1',
      'Cookie: b=2',
    )
    .map((s) => Buffer.from(s, 'latin1')),
  fc.constantFrom(
    Buffer.from('X-Obs: \xff\xfe\x80', 'latin1'),
    Buffer.from('X-Utf8: é🎥', 'utf8'),
    Buffer.from('X-Huge: ' + 'a'.repeat(20_000)),
    Buffer.from('X-Big: ' + 'b'.repeat(8_000)),
  ),
  fc
    .nat(300)
    .map((n) => Buffer.from(Array.from({ length: n }, (_, i) => `X-Many-${i}: v`).join('\r\n'))),
  fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b)),
  fc
    .tuple(
      fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/),
      fc.string({ unit: 'binary-ascii', maxLength: 40 }),
    )
    .map(([n, v]) => Buffer.from(`${n}: ${v.replace(/[\r\n]/g, '')}`, 'latin1')),
);

const mangledWire: fc.Arbitrary<WireSpec> = fc.record({
  requestLine: fc.oneof(
    { weight: 20, arbitrary: fc.constant('normal' as const) },
    {
      weight: 3,
      arbitrary: fc.constantFrom<WireSpec['requestLine']>(
        'extra-space',
        'tab',
        'lowercase-version',
        'no-version',
        'http10',
        'http2',
        'http12',
        'garbage',
        'bare-lf',
      ),
    },
  ),
  nameCase: fc.constantFrom<WireSpec['nameCase']>('lower', 'lower', 'title', 'upper'),
  host: fc.oneof(
    { weight: 12, arbitrary: fc.constant('ok' as const) },
    { weight: 2, arbitrary: fc.constantFrom<WireSpec['host']>('missing', 'odd', 'twice', 'empty') },
  ),
  close: fc.boolean(),
  framing: fc.oneof(
    { weight: 14, arbitrary: fc.constant('auto' as const) },
    { weight: 3, arbitrary: fc.constant('chunked' as const) },
    {
      weight: 3,
      arbitrary: fc.constantFrom<WireSpec['framing']>(
        'none',
        'length-dup',
        'length-conflict',
        'length-and-chunked',
        'bad-chunk',
        'length-lies-long',
        'length-lies-short',
        'length-garbage',
      ),
    },
  ),
  early: fc.oneof(
    { weight: 14, arbitrary: fc.constant('none' as const) },
    {
      weight: 2,
      arbitrary: fc.constantFrom<WireSpec['early']>(
        'destroy-after-headers',
        'destroy-mid-body',
        'half-close-mid-body',
      ),
    },
  ),
  injected: fc.oneof(
    { weight: 6, arbitrary: fc.constant([]) },
    { weight: 2, arbitrary: fc.array(injectedLine, { minLength: 1, maxLength: 3 }) },
  ),
  expect: fc.oneof(
    { weight: 10, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom('100-continue', 'nonsense', '100-continue, foo') },
  ),
  pieces: fc.integer({ min: 1, max: 4 }),
});

/** Half the cases are well-formed HTTP (so the service behind the host is exercised), half mangled on the wire. */
export const wireSpec: fc.Arbitrary<WireSpec> = fc.oneof(
  fc.record({
    requestLine: fc.constant('normal' as const),
    nameCase: fc.constantFrom<WireSpec['nameCase']>('lower', 'title', 'upper'),
    host: fc.constant('ok' as const),
    close: fc.boolean(),
    framing: fc.constantFrom<WireSpec['framing']>('auto', 'auto', 'chunked'),
    early: fc.constant('none' as const),
    injected: fc.constant([]),
    expect: fc.constantFrom(null, null, null, '100-continue'),
    pieces: fc.integer({ min: 1, max: 3 }),
  }),
  mangledWire,
);

export interface SocketCase {
  readonly advance: number;
  readonly call: CallSpec;
  readonly wire: WireSpec;
}

export const socketCase: fc.Arbitrary<SocketCase> = fc.record({
  advance: clockStep,
  call: callSpec(8),
  wire: wireSpec,
});

const CRLF = '\r\n';

function headerName(name: string, style: WireSpec['nameCase']): string {
  if (style === 'upper') return name.toUpperCase();
  if (style === 'title')
    return name.replace(/(^|-)([a-z])/g, (_m, d: string, c: string) => d + c.toUpperCase());
  return name;
}

/** The bytes of a request as the wire spec mangles it, and what node:http will make of its headers. */
export function encodeRequest(
  call: ResolvedCall,
  wire: WireSpec,
  port: number,
): {
  head: Buffer;
  body: Buffer;
  after: 'keep' | 'half-close' | 'destroy';
  sentHeaders: [string, string][];
} {
  const target = `${call.path}${call.query === '' ? '' : `?${call.query}`}`;
  const line = {
    normal: `${call.method} ${target} HTTP/1.1`,
    'extra-space': `${call.method}  ${target}  HTTP/1.1`,
    tab: `${call.method}\t${target}\tHTTP/1.1`,
    'lowercase-version': `${call.method} ${target} http/1.1`,
    'no-version': `${call.method} ${target}`,
    http10: `${call.method} ${target} HTTP/1.0`,
    http2: `${call.method} ${target} HTTP/2.0`,
    http12: `${call.method} ${target} HTTP/1.2`,
    garbage: `\u0001${call.method}\u0000 ${target} HTTP/1.1`,
    'bare-lf': `${call.method} ${target} HTTP/1.1`,
  }[wire.requestLine];
  const eol = wire.requestLine === 'bare-lf' ? '\n' : CRLF;
  const body = Buffer.from(call.body ?? new Uint8Array());
  const headers: [string, string][] = [];
  if (wire.host === 'ok') headers.push(['host', `127.0.0.1:${port}`]);
  else if (wire.host === 'odd') headers.push(['host', 'évil host/../x']);
  else if (wire.host === 'twice')
    headers.push(['host', `127.0.0.1:${port}`], ['host', 'other.test']);
  else if (wire.host === 'empty') headers.push(['host', '']);
  headers.push(...call.headers.map(([n, v]): [string, string] => [n, v]));
  if (wire.close) headers.push(['connection', 'close']);
  if (wire.expect !== null) headers.push(['expect', wire.expect]);
  let payload = body;
  const hasBody = body.byteLength > 0 || ['POST', 'PUT', 'PATCH'].includes(call.method);
  switch (wire.framing) {
    case 'auto':
      if (hasBody) headers.push(['content-length', String(body.byteLength)]);
      break;
    case 'chunked': {
      headers.push(['transfer-encoding', 'chunked']);
      const third = Math.ceil(body.byteLength / 3) || 1;
      const parts: Buffer[] = [];
      for (let i = 0; i < body.byteLength; i += third) {
        const chunk = body.subarray(i, i + third);
        parts.push(
          Buffer.from(`${chunk.byteLength.toString(16)}${CRLF}`),
          chunk,
          Buffer.from(CRLF),
        );
      }
      parts.push(Buffer.from(`0${CRLF}${CRLF}`));
      payload = Buffer.concat(parts);
      break;
    }
    case 'none':
      break;
    case 'length-dup':
      headers.push(
        ['content-length', String(body.byteLength)],
        ['content-length', String(body.byteLength)],
      );
      break;
    case 'length-conflict':
      headers.push(
        ['content-length', String(body.byteLength)],
        ['content-length', String(body.byteLength + 1)],
      );
      break;
    case 'length-and-chunked':
      headers.push(['content-length', String(body.byteLength)], ['transfer-encoding', 'chunked']);
      break;
    case 'bad-chunk':
      headers.push(['transfer-encoding', 'chunked']);
      payload = Buffer.concat([
        Buffer.from(`zz${CRLF}`),
        body,
        Buffer.from(`${CRLF}0${CRLF}${CRLF}`),
      ]);
      break;
    case 'length-lies-long':
      headers.push(['content-length', String(body.byteLength + 10)]);
      break;
    case 'length-lies-short':
      headers.push(['content-length', String(Math.max(0, body.byteLength - 3))]);
      break;
    case 'length-garbage':
      headers.push(['content-length', `${body.byteLength}abc`]);
      break;
  }
  const lines = [line, ...headers.map(([n, v]) => `${headerName(n, wire.nameCase)}: ${v}`)];
  const head = Buffer.concat([
    Buffer.from(lines.join(eol) + eol, 'latin1'),
    ...wire.injected.flatMap((l) => [l, Buffer.from(eol)]),
    Buffer.from(eol),
  ]);
  let after: 'keep' | 'half-close' | 'destroy' =
    wire.framing === 'length-lies-long' ? 'half-close' : 'keep';
  if (wire.early === 'destroy-after-headers')
    return { head, body: Buffer.alloc(0), after: 'destroy', sentHeaders: headers };
  if (wire.early !== 'none') {
    payload = payload.subarray(0, Math.floor(payload.byteLength / 2));
    after = wire.early === 'destroy-mid-body' ? 'destroy' : 'half-close';
  }
  return { head, body: payload, after, sentHeaders: headers };
}

function split(bytes: Buffer, pieces: number): Buffer[] {
  if (pieces <= 1 || bytes.byteLength < pieces) return [bytes];
  const size = Math.ceil(bytes.byteLength / pieces);
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.byteLength; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

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
  const where = () =>
    `\n  request: ${show(call, ` wire=${JSON.stringify({ ...c.wire, injected: c.wire.injected.map((l) => text(l, 60)) })}`)}\n  result: ${summarize(result)}`;
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

/** Whether a promise settles within `ms`. */
export async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

function summarize(result: RawResult): string {
  const r = result.response;
  return `${r === undefined ? 'no response' : `${r.status} ${JSON.stringify(r.headers)} ${text(r.body)}`}; closedByServer=${result.closedByServer} error=${result.error ?? '-'} received=${result.received} ms=${Math.round(result.ms)}`;
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
