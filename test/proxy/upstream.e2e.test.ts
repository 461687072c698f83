// Issue 34 item 1: the proxy's own connections to the upstream (proxy/upstream.ts, decisions/061):
// kept alive and reused, dropped when the upstream may drop them, each failure told once and never a
// request sent twice. Real sockets on 127.0.0.1 against a server that answers byte by byte as scripted.
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnswerHead } from '../../proxy/answer-reader.ts';
import { openUpstream, type Upstream, type UpstreamRequest } from '../../proxy/upstream.ts';
import { closedPort } from '../helpers/cli.ts';
import { pausedDownload } from './support/paused-download.ts';

interface Script {
  /** The answer to each request, by its order on its connection; a function sees the request's bytes. */
  readonly answer: (request: string, connection: number) => string | undefined;
}

/** Scripted: close the connection without an answer; end it after this answer. */
const CLOSE = 'CLOSE';
const END = '<END>';
const servers: Server[] = [];
const upstreams: Upstream[] = [];

afterEach(() => {
  for (const u of upstreams.splice(0)) u.close();
  for (const s of servers.splice(0)) s.close();
});

/** A server answering each whole request head (and body, by Content-Length or chunked) by `script`. */
async function scripted(script: Script, timeoutMs = 5_000) {
  const seen = { connections: 0, requests: [] as string[], closed: [] as Promise<void>[] };
  const server = createServer((socket: Socket) => {
    const connection = seen.connections++;
    seen.closed.push(new Promise((resolve) => socket.on('close', () => resolve())));
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      for (let end = requestEnd(text); end > 0; end = requestEnd(text)) {
        const request = text.slice(0, end);
        text = text.slice(end);
        seen.requests.push(request);
        const answer = script.answer(request, connection);
        if (answer === undefined) continue;
        if (answer === CLOSE) socket.destroy();
        else if (answer.endsWith(END)) socket.end(answer.slice(0, -END.length), 'latin1');
        else socket.write(answer, 'latin1');
      }
    });
    socket.on('error', () => undefined);
  });
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  const upstream = openUpstream(`http://127.0.0.1:${port}/base`, { timeoutMs }) as Upstream;
  upstreams.push(upstream);
  return { upstream, seen };
}

/** Where a request's bytes end: after its head, and its body by Content-Length or the last chunk. */
function requestEnd(text: string): number {
  const head = text.indexOf('\r\n\r\n');
  if (head < 0) return -1;
  const length = /content-length: (\d+)/i.exec(text.slice(0, head));
  if (length !== null) {
    const end = head + 4 + Number(length[1]);
    return text.length >= end ? end : -1;
  }
  if (/transfer-encoding: chunked/i.test(text.slice(0, head))) {
    const last = text.indexOf('0\r\n\r\n', head + 4);
    return last < 0 ? -1 : last + 5;
  }
  return head + 4;
}

interface Outcome {
  head?: AnswerHead;
  body: string;
  ended: boolean;
  failure?: { why: string; timeout: boolean; started: boolean };
}

/** One exchange through the upstream's connections, told when it ended or failed. */
function exchange(
  upstream: Upstream,
  request: Partial<UpstreamRequest>,
  bodyParts: string[] = [],
): Promise<Outcome> {
  return new Promise((resolve) => {
    const out: Outcome = { body: '', ended: false };
    const call = upstream.send(
      {
        method: 'GET',
        pathAndQuery: '/v1/videos/task_1',
        headers: ['Authorization', 'Bearer sk-test'],
        body: 'none',
        ...request,
      },
      {
        head: (h) => (out.head = h),
        data: (chunk) => (out.body += chunk.toString('latin1')),
        end: () => resolve({ ...out, ended: true }),
        fail: (failure) => resolve({ ...out, failure }),
      },
    );
    for (const part of bodyParts) call.write(Buffer.from(part));
    call.end();
  });
}

const ok = (body: string, extra = '') =>
  `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n${extra}Content-Length: ${body.length}\r\n\r\n${body}`;

describe("the proxy's connections to the upstream", () => {
  it('writes the base path, Host and the fields given, and reuses one connection', async () => {
    const { upstream, seen } = await scripted({ answer: () => ok('{"id":"task_1"}') });
    for (let i = 0; i < 3; i++) {
      const out = await exchange(upstream, {});
      expect(out.ended).toBe(true);
      expect(out.head?.status).toBe(200);
      expect(out.body).toBe('{"id":"task_1"}');
    }
    expect(seen.connections).toBe(1);
    expect(seen.requests[0]).toMatch(
      /^GET \/base\/v1\/videos\/task_1 HTTP\/1\.1\r\nHost: 127\.0\.0\.1:\d+\r\nAuthorization: Bearer sk-test\r\n\r\n$/,
    );
  });

  it("hands on each read's bytes as its own: two answers read in turns stay whole when kept", async () => {
    // Every connection reads into one buffer (proxy/upstream.ts `onread`): the bytes handed on must
    // be copies, or a chunk kept (as the judges keep an answer's start) becomes the next read's bytes.
    const server = createServer((socket) => {
      socket.once('data', (request: Buffer) => {
        const letter = /task_(\w)/.exec(request.toString('latin1'))![1]!;
        socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${3 * 1000}\r\n\r\n`);
        let sent = 0;
        const next = (): void => {
          if (sent++ < 3) socket.write(letter.repeat(1000), () => setTimeout(next, 5));
        };
        next();
      });
    });
    servers.push(server);
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const { port } = server.address() as { port: number };
    const upstream = openUpstream(`http://127.0.0.1:${port}`, { timeoutMs: 5_000 }) as Upstream;
    upstreams.push(upstream);
    const kept = (letter: string) =>
      new Promise<Buffer[]>((resolve, reject) => {
        const chunks: Buffer[] = [];
        upstream.send(
          { method: 'GET', pathAndQuery: `/v1/videos/task_${letter}`, headers: [], body: 'none' },
          {
            head: () => undefined,
            data: (chunk) => chunks.push(chunk),
            end: () => resolve(chunks),
            fail: (failure) => reject(new Error(failure.why)),
          },
        );
      });
    const [a, b] = await Promise.all([kept('a'), kept('b')]);
    expect(a.length + b.length).toBeGreaterThan(2);
    expect(Buffer.concat(a).toString('latin1')).toBe('a'.repeat(3000));
    expect(Buffer.concat(b).toString('latin1')).toBe('b'.repeat(3000));
  });

  it('holds the answer while the exchange waits for a slow client: nothing arrives while paused', async () => {
    // The https twin is in proxy-tls.e2e.test.ts; here the connection reads through `onread`.
    const size = 4 << 20;
    const server = createServer((socket) =>
      socket.once('data', () => {
        socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${size}\r\n\r\n`);
        socket.write(Buffer.alloc(size, 'x'));
      }),
    );
    servers.push(server);
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const { port } = server.address() as { port: number };
    const upstream = openUpstream(`http://127.0.0.1:${port}`, { timeoutMs: 10_000 }) as Upstream;
    upstreams.push(upstream);
    expect(await pausedDownload(upstream)).toEqual({ bytes: size, whilePaused: 0, outcome: 'end' });
  });

  it('keeps no connection the upstream says it will drop within a second, or closes', async () => {
    const { upstream, seen } = await scripted({
      answer: (_, n) => ok('{}', n === 0 ? 'Keep-Alive: timeout=1\r\n' : 'Connection: close\r\n'),
    });
    await exchange(upstream, {});
    await exchange(upstream, {});
    await exchange(upstream, {});
    expect(seen.connections).toBe(3);
  });

  it('takes a new connection when the upstream closed an idle one, sending each request once', async () => {
    const { upstream, seen } = await scripted({ answer: (_, n) => ok(`{"n":${n}}`) + END });
    expect((await exchange(upstream, {})).body).toBe('{"n":0}');
    // The upstream ends the kept-alive connection after its answer; the proxy hears it and forgets it.
    await seen.closed[0];
    expect((await exchange(upstream, {})).body).toBe('{"n":1}');
    expect(seen.requests.length).toBe(2);
  });

  it('sends a body of unknown length chunked, and one with a length as it is', async () => {
    const { upstream, seen } = await scripted({ answer: () => ok('{}') });
    await exchange(upstream, { method: 'POST', body: 'chunked' }, ['{"prompt":', '"a cat"}']);
    expect(seen.requests[0]).toContain(
      'Transfer-Encoding: chunked\r\n\r\na\r\n{"prompt":\r\n8\r\n"a cat"}\r\n0\r\n\r\n',
    );
    await exchange(upstream, { method: 'POST', body: 'length', headers: ['Content-Length', '2'] }, [
      '{}',
    ]);
    expect(seen.requests[1]).toMatch(/Content-Length: 2\r\n\r\n\{\}$/);
  });

  it('tells a refused connection, a silent upstream, a cut and a garbled answer apart', async () => {
    const refused = openUpstream(`http://127.0.0.1:${await closedPort()}`, {
      timeoutMs: 5_000,
    }) as Upstream;
    upstreams.push(refused);
    expect((await exchange(refused, {})).failure).toEqual({
      why: 'ECONNREFUSED',
      timeout: false,
      started: false,
    });
    const silent = await scripted({ answer: () => undefined }, 50);
    expect((await exchange(silent.upstream, {})).failure).toMatchObject({
      timeout: true,
      started: false,
    });
    const closes = await scripted({ answer: () => CLOSE });
    expect((await exchange(closes.upstream, {})).failure).toMatchObject({ started: false });
    const cut = await scripted({
      answer: () => `HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabc${END}`,
    });
    const broken = await exchange(cut.upstream, {});
    expect(broken.failure).toMatchObject({ started: true, timeout: false });
    expect(broken.body).toBe('abc');
    const garbled = await scripted({ answer: () => 'HTTP/1.1 200 OK\r\nX: a\x01b\r\n\r\n' });
    expect((await exchange(garbled.upstream, {})).failure?.why).toMatch(/not HTTP\/1\.1.*control/);
  });

  it('fails a body framed by the close when a reset (not a clean close) ends it', async () => {
    let upstreamSide: Socket | undefined;
    const server = createServer((socket) => {
      upstreamSide = socket;
      socket.once('data', () => socket.write('HTTP/1.1 200 OK\r\n\r\npartial'));
    });
    servers.push(server);
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const { port } = server.address() as { port: number };
    const upstream = openUpstream(`http://127.0.0.1:${port}`, { timeoutMs: 5_000 }) as Upstream;
    upstreams.push(upstream);
    const outcome = await new Promise<Outcome>((resolve) => {
      const out: Outcome = { body: '', ended: false };
      const call = upstream.send(
        { method: 'GET', pathAndQuery: '/v1/videos/task_1/content', headers: [], body: 'none' },
        {
          head: (h) => (out.head = h),
          // The body's first bytes are here: the upstream resets the connection.
          data: (chunk) => {
            out.body += chunk.toString('latin1');
            upstreamSide!.resetAndDestroy();
          },
          end: () => resolve({ ...out, ended: true }),
          fail: (failure) => resolve({ ...out, failure }),
        },
      );
      call.end();
    });
    expect(outcome).toMatchObject({
      body: 'partial',
      ended: false,
      failure: { why: 'ECONNRESET', started: true },
    });
  });
});
