// Issue 34 item 1: the proxy's front door (proxy/front-door.ts, decisions/061) reads plain requests
// itself and hands anything else to node's http server, on the same connection: a client sees one
// HTTP/1.1 server either way. Raw sockets on 127.0.0.1, so what is on the wire is what is checked.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TaskFactsTable } from '../../proxy/task-facts.ts';
import { eventually } from '../helpers/eventually.ts';
import { startProxy, type RunningProxy } from '../../proxy/proxy-server.ts';

/** The proxy's headers timeout here (20 s by default). */
const HEADERS_MS = 300;
/**
 * An answer of 8 KiB, read in one piece: the proxy is done with each at once, so only the client's
 * connection can tell it to wait; 8,000 of them (64 MiB) are far more than the sockets' buffers hold.
 */
const BIG = Buffer.alloc(1 << 13, 7);
let upstream: Server;
let proxy: RunningProxy;
const seen: string[] = [];
/** Requests the deployment is answering now, and the most at once. */
const load = { now: 0, most: 0 };

/** A deployment answering by path: JSON by length, JSON chunked, an upload's echo (late for /v1/slow). */
function answer(req: IncomingMessage, res: ServerResponse): void {
  load.most = Math.max(load.most, ++load.now);
  res.once('close', () => load.now--);
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  req.on('end', () => {
    seen.push(`${req.method} ${req.url}`);
    if (req.url!.startsWith('/v1/big')) {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': BIG.length });
      res.end(BIG);
    } else if (req.url === '/v1/chunked') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"parts":');
      res.end('[1,2]}');
    } else if (req.url === '/v1/slow') {
      setTimeout(() => res.end(JSON.stringify({ echoed: body })), 10);
    } else {
      const text = JSON.stringify(req.method === 'POST' ? { echoed: body } : { path: req.url });
      res.writeHead(req.method === 'POST' ? 201 : 200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
        'x-served': req.url!,
      });
      res.end(text);
    }
  });
}

const upstreamPort = () => (upstream.address() as { port: number }).port;

beforeAll(async () => {
  upstream = createServer(answer);
  await new Promise<void>((ok) => upstream.listen(0, '127.0.0.1', ok));
  const { port } = upstream.address() as { port: number };
  proxy = await startProxy({
    upstream: `http://127.0.0.1:${port}`,
    port: 0,
    headersTimeoutMs: HEADERS_MS,
  });
});

afterAll(async () => {
  await proxy.close(100);
  upstream.close();
});

/** A raw connection to the proxy: bytes written, answers read as text until `until` holds. */
async function talk(socket: Socket, bytes: string, until: (text: string) => boolean) {
  let text = '';
  const done = new Promise<string>((resolve) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (!until(text)) return;
      socket.off('data', onData);
      resolve(text);
    };
    socket.on('data', onData);
    socket.once('close', () => resolve(text));
  });
  socket.write(bytes);
  return done;
}

const open = () =>
  new Promise<Socket>((ok) => {
    const { port } = new URL(proxy.url);
    const socket = connect(Number(port), '127.0.0.1', () => ok(socket));
  });

const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: proxy\r\n${extra}\r\n`;
const answers = (text: string) => text.split(/(?=HTTP\/1\.1 \d{3})/).filter((a) => a !== '');

describe("the proxy's front door", () => {
  it('answers pipelined requests in order, on one connection', async () => {
    const socket = await open();
    const text = await talk(socket, get('/v1/a') + get('/v1/b') + get('/v1/c'), (t) =>
      t.includes('{"path":"/v1/c"}'),
    );
    expect(answers(text).map((a) => /"path":"([^"]+)"/.exec(a)?.[1])).toEqual([
      '/v1/a',
      '/v1/b',
      '/v1/c',
    ]);
    expect(text).toContain('Via: 1.1 videotask-proxy');
    socket.destroy();
  });

  it('hands the connection to node at an upload, which then answers the rest', async () => {
    const socket = await open();
    const upload =
      'POST /v1/videos HTTP/1.1\r\nHost: proxy\r\nContent-Type: application/json\r\n' +
      'Content-Length: 16\r\n\r\n{"prompt":"cat"}';
    const text = await talk(socket, get('/v1/first') + upload + get('/v1/after'), (t) =>
      t.includes('{"path":"/v1/after"}'),
    );
    const [first, posted, after] = answers(text);
    expect(first).toMatch(/^HTTP\/1\.1 200 OK[^]*\{"path":"\/v1\/first"\}$/);
    expect(posted).toMatch(/^HTTP\/1\.1 201 Created[^]*\{"echoed":"\{\\"prompt\\":\\"cat\\"\}"\}$/);
    expect(after).toMatch(/^HTTP\/1\.1 200 OK[^]*\{"path":"\/v1\/after"\}$/);
    // Bytes that arrive after the hand-off reach node's server straight from the socket.
    const later = await talk(socket, get('/v1/later'), (t) => t.endsWith('"/v1/later"}'));
    expect(later).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*Keep-Alive: timeout=5/);
    socket.destroy();
  });

  it("forwards a pipelining client's uploads one at a time, in order, on node's lane too", async () => {
    // Node's server hands every pipelined request over at once: each was forwarded at once, on an
    // upstream connection of its own (thousands ran the proxy out of file descriptors).
    const socket = await open();
    const upload = (i: number) =>
      'POST /v1/slow HTTP/1.1\r\nHost: proxy\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${`{"n":${i}}`.length}\r\n\r\n{"n":${i}}`;
    const all = Array.from({ length: 20 }, (_, i) => upload(i)).join('');
    load.most = 0;
    const text = await talk(socket, all, (t) => answers(t).length === 20 && t.endsWith('}"}'));
    expect(answers(text).map((a) => /\{\\"n\\":(\d+)\}/.exec(a)?.[1])).toEqual(
      Array.from({ length: 20 }, (_, i) => String(i)),
    );
    expect(load.most).toBe(1);
    socket.destroy();
  });

  it('forwards none of the uploads a pipelining client sent once it has gone', async () => {
    const socket = await open();
    const body = '{"n":0}';
    const upload = `POST /v1/slow HTTP/1.1\r\nHost: proxy\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const before = seen.length;
    await talk(socket, upload.repeat(10), (t) => answers(t).length === 1 && t.endsWith('}"}'));
    socket.destroy();
    await eventually(() => load.now === 0, 'the deployment done with every request');
    // The first was answered, the second may have been under way: none after it was forwarded.
    expect(seen.length - before).toBeLessThanOrEqual(2);
  });

  it('gives the same answer as node does, framing apart', async () => {
    const fields = (a: string) =>
      a
        .split('\r\n\r\n')[0]!
        .split('\r\n')
        .filter((l) => !/^(date|connection|keep-alive|content-length|transfer-encoding):/i.test(l));
    const plain = await open();
    const read = await talk(plain, get('/v1/same'), (t) => t.endsWith('}'));
    // A GET with a framed empty body is no plain request: node's server reads it.
    const framed = await open();
    const node = await talk(framed, get('/v1/same', 'Content-Length: 0\r\n'), (t) =>
      t.endsWith('}'),
    );
    expect(fields(read)).toEqual(fields(node));
    expect(read.split('\r\n\r\n')[1]).toBe(node.split('\r\n\r\n')[1]);
    plain.destroy();
    framed.destroy();
  });

  it('relays a chunked answer chunked, HEAD without a body, and closes when asked', async () => {
    const socket = await open();
    const chunked = await talk(socket, get('/v1/chunked'), (t) => t.endsWith('0\r\n\r\n'));
    expect(chunked).toMatch(/Transfer-Encoding: chunked\r\n/i);
    const chunks = chunked.slice(chunked.indexOf('\r\n\r\n') + 4);
    expect(chunks.replace(/(?:^|\r\n)[0-9a-f]+\r\n/g, '')).toBe('{"parts":[1,2]}\r\n');
    const head = await talk(socket, `HEAD /v1/h HTTP/1.1\r\nHost: proxy\r\n\r\n`, (t) =>
      t.endsWith('\r\n\r\n'),
    );
    // The fields say what a GET's body would be; none follows.
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*content-length: 16\r\n[^]*\r\n\r\n$/i);
    const closed = new Promise<void>((ok) => socket.once('close', () => ok()));
    const last = await talk(socket, get('/v1/last', 'Connection: close\r\n'), () => false);
    expect(last).toMatch(/Connection: close\r\n[^]*\{"path":"\/v1\/last"\}$/);
    await closed;
  });

  it('never writes a target with a control byte to the upstream: node reads such a request', async () => {
    const before = seen.length;
    const first = async (target: string) => {
      const socket = await open();
      const text = await talk(socket, `GET ${target} HTTP/1.1\r\nHost: proxy\r\n\r\n`, (t) =>
        /\r\n\r\n/.test(t),
      );
      socket.destroy();
      return text.slice(0, 12);
    };
    expect(await first('/v1/a\x01b')).toBe('HTTP/1.1 400');
    expect(await first('/v1/a\x7fb')).toBe('HTTP/1.1 400');
    // Node's own reading of a bare LF: the line ends there (its answer, whatever it is, is node's).
    await first('/v1/a\nX-Injected:1');
    for (const request of seen.slice(before)) expect(request).toMatch(/^[\x20-\x7e]+$/);
  });

  it("answers 502 when the proxy's own code fails on a request, counts it, and keeps serving", async () => {
    const broken = vi.spyOn(TaskFactsTable.prototype, 'touch').mockImplementationOnce(() => {
      throw new Error('a bug');
    });
    const socket = await open();
    const failed = await talk(socket, get('/v1/videos/task_broken'), (t) => t.endsWith('}}'));
    expect(failed).toMatch(/^HTTP\/1\.1 502 [^]*"code":"proxy_error"/);
    expect(proxy.status()).toMatchObject({ failures: 1, firstFailure: 'Error: a bug' });
    const next = await talk(socket, get('/v1/videos/task_fine'), (t) => t.endsWith('"}'));
    expect(next).toMatch(/^HTTP\/1\.1 200 /);
    broken.mockRestore();
    socket.destroy();
  });

  it("leaves malformed requests to node's 400, and keeps serving", async () => {
    const socket = await open();
    const bad = await talk(
      socket,
      'GET /v1/x HTTP/1.1\r\nHost: a\r\nBad Field\r\n\r\n',
      () => false,
    );
    expect(bad).toMatch(/^HTTP\/1\.1 400 /);
    expect(bad).toContain('"code":"bad_request"');
    const next = await open();
    expect(await talk(next, get('/v1/ok'), (t) => t.endsWith('}'))).toMatch(/^HTTP\/1\.1 200 /);
    next.destroy();
  });

  it('reads a head that arrives in pieces, its empty line cut anywhere', async () => {
    const socket = await open();
    const head = get('/v1/pieces', 'X-Tag: a\r\n');
    const answered = talk(socket, '', (t) => t.endsWith('"/v1/pieces"}'));
    // The end of the head one byte at a time, each its own write a little apart.
    const cut = head.length - 5;
    for (const piece of [head.slice(0, cut), ...head.slice(cut)]) {
      await new Promise<void>((ok) => socket.write(piece, () => ok()));
      await new Promise((ok) => setTimeout(ok, 5));
    }
    expect(answers(await answered)[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*"\/v1\/pieces"\}$/);
    socket.destroy();
  });

  it('answers 408 to a head that trickles in slower than the headers timeout, as node does', async () => {
    const socket = await open();
    const started = Date.now();
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    const closed = new Promise<void>((ok) => socket.once('close', () => ok()));
    // A byte every 50 ms: the connection is never idle, the head never whole.
    const trickle = setInterval(() => socket.writable && socket.write('X'), 50);
    socket.write('GET /v1/slow HTTP/1.1\r\nX-Slow: ');
    await closed;
    clearInterval(trickle);
    expect(Date.now() - started).toBeGreaterThanOrEqual(HEADERS_MS);
    expect(text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n[^]*"code":"request_timeout"/);
    expect(seen).not.toContain('GET /v1/slow');
  });

  it('never reads a request sent after Connection: close (it is never forwarded)', async () => {
    const before = seen.length;
    const socket = await open();
    const upload = 'POST /v1/videos HTTP/1.1\r\nHost: proxy\r\nContent-Length: 2\r\n\r\n';
    const text = await talk(socket, get('/v1/closing', 'Connection: close\r\n') + upload, (t) =>
      t.endsWith('"/v1/closing"}'),
    );
    expect(text).toMatch(/Connection: close\r\n/);
    const closed = new Promise<void>((ok) => socket.once('close', () => ok()));
    socket.end('{}');
    await closed;
    // A request on another connection goes through after anything the first could have sent.
    const next = await open();
    await talk(next, get('/v1/sentinel'), (t) => t.endsWith('"/v1/sentinel"}'));
    next.destroy();
    expect(seen.slice(before)).toEqual(['GET /v1/closing', 'GET /v1/sentinel']);
  });

  it("leaves a head over node's 16 KiB to node's refusal, even whole in one read", async () => {
    const before = seen.length;
    const socket = await open();
    const text = await talk(
      socket,
      get('/v1/huge', `X-Big: ${'a'.repeat(20_000)}\r\n`),
      () => false,
    );
    expect(text).toMatch(/^HTTP\/1\.1 400 [^]*"code":"bad_request"/);
    expect(seen.slice(before)).toEqual([]);
  });

  it('forwards no more than a client that does not read its answers can take', async () => {
    const before = seen.length;
    const socket = await open();
    socket.pause();
    const asked = 8_000;
    socket.write(Array.from({ length: asked }, (_, i) => get(`/v1/big/${i}`)).join(''));
    await eventually(() => seen.length - before >= 2, 'the first answers to be asked for');
    // The proxy keeps forwarding only while the client's connection takes the answers.
    await eventually(async () => {
      const now = seen.length;
      await new Promise((ok) => setTimeout(ok, 100));
      return seen.length === now;
    }, 'the proxy to stop forwarding');
    expect(seen.length - before).toBeLessThan(asked / 2);
    let bytes = 0;
    const all = new Promise<void>((ok) =>
      socket.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (seen.length - before === asked && bytes >= asked * BIG.length) ok();
      }),
    );
    socket.resume();
    await all;
    socket.destroy();
  });
});

describe("the proxy's front door in a shutdown", () => {
  it('reads nothing more from a connection in the middle of a head', async () => {
    const own = await startProxy({ upstream: `http://127.0.0.1:${upstreamPort()}`, port: 0 });
    const before = seen.length;
    // A client that keeps writing after the proxy ends its side (allowHalfOpen).
    const socket = connect({
      port: Number(new URL(own.url).port),
      host: '127.0.0.1',
      allowHalfOpen: true,
    });
    await new Promise<void>((ok) => socket.once('connect', () => ok()));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((ok) => socket.once('close', () => ok()));
    const ended = new Promise<void>((ok) => {
      socket.once('end', () => ok());
      socket.once('close', () => ok());
    });
    await new Promise<void>((ok) =>
      socket.write('POST /v1/videos HTTP/1.1\r\nHost: proxy\r\n', () => ok()),
    );
    const stopping = own.close(2_000);
    await ended;
    if (socket.writable) socket.write('Content-Length: 2\r\n\r\n{}');
    await closed;
    await stopping;
    const sentinel = await open();
    await talk(sentinel, get('/v1/after-shutdown'), (t) => t.endsWith('"/v1/after-shutdown"}'));
    sentinel.destroy();
    expect(seen.slice(before)).toEqual(['GET /v1/after-shutdown']);
  });
});
