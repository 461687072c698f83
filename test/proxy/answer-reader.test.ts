// Issue 34 item 1: the proxy reads the upstream's HTTP/1.1 answers itself (proxy/answer-reader.ts,
// decisions/061): every framing of RFC 9112 §6, whatever way the bytes are cut into reads, and what
// is not an answer refused with why.
import { describe, expect, it } from 'vitest';
import { AnswerReader, parseHead, type AnswerHead } from '../../proxy/answer-reader.ts';

interface Read {
  heads: AnswerHead[];
  body: string;
  ends: boolean[];
  wrong: string | undefined;
}

/** Feeds `bytes` to a reader in pieces of `size` bytes (then `finish` when `closed`). */
function read(bytes: string, options: { size?: number; method?: string; closed?: boolean } = {}) {
  const out: Read = { heads: [], body: '', ends: [], wrong: undefined };
  const reader = new AnswerReader(options.method ?? 'GET', {
    head: (h) => out.heads.push(h),
    data: (chunk) => (out.body += chunk.toString('latin1')),
    complete: (reusable) => out.ends.push(reusable),
  });
  const all = Buffer.from(bytes, 'latin1');
  const size = options.size ?? all.length;
  for (let at = 0; at < all.length && out.wrong === undefined; at += size)
    out.wrong = reader.push(all.subarray(at, at + size));
  if (options.closed === true) out.wrong ??= reader.finish();
  return out;
}

const sizes = [1, 2, 3, 7, 1000];

describe("the upstream's answers as the proxy reads them", () => {
  it('reads a Content-Length body, cut anywhere, and keeps the connection', () => {
    const answer =
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"a":"héé"}';
    for (const size of sizes) {
      const out = read(answer, { size });
      expect(out.wrong).toBeUndefined();
      expect(out.heads[0]).toMatchObject({ status: 200, statusMessage: 'OK', keepAlive: true });
      expect(out.heads[0]!.fields.get('content-type')).toBe('application/json');
      expect(out.body).toBe('{"a":"héé"}');
      expect(out.ends).toEqual([true]);
    }
  });

  it('decodes a chunked body with extensions and trailers', () => {
    const answer =
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n' +
      '5;name=x\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nX-Trailer: t\r\n\r\n';
    for (const size of sizes) {
      const out = read(answer, { size });
      expect(out.wrong).toBeUndefined();
      expect(out.body).toBe('hello world');
      expect(out.ends).toEqual([true]);
    }
  });

  it('reads a body framed by the close to its end, and never reuses that connection', () => {
    const answer = 'HTTP/1.1 200 OK\r\nContent-Type: video/mp4\r\n\r\nbytes until the end';
    const open = read(answer);
    expect(open.ends).toEqual([]);
    const closed = read(answer, { closed: true });
    expect(closed.body).toBe('bytes until the end');
    expect(closed.ends).toEqual([false]);
  });

  it('reads no body after HEAD, 204 and 304, whatever their Content-Length says', () => {
    expect(read('HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n', { method: 'HEAD' }).ends).toEqual([
      true,
    ]);
    expect(read('HTTP/1.1 204 No Content\r\n\r\n').ends).toEqual([true]);
    expect(read('HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n').ends).toEqual([true]);
  });

  it('passes over interim 1xx answers to the final one', () => {
    const out = read(
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n' +
        'HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n{}',
      { size: 5 },
    );
    expect(out.heads.map((h) => h.status)).toEqual([201]);
    expect(out.body).toBe('{}');
  });

  it('says when the connection may not carry another request', () => {
    expect(read('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n').ends).toEqual([
      false,
    ]);
    expect(read('HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n').ends).toEqual([false]);
    expect(
      read('HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n').ends,
    ).toEqual([true]);
    // Bytes past the answer: nothing was asked for them.
    expect(read('HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxHTTP/1.1 200 OK\r\n').ends).toEqual([
      false,
    ]);
  });

  it('keeps fields as sent and joins them as node does', () => {
    const head = parseHead(
      'HTTP/1.1 429 \r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\nX-Tag: a\r\nx-tag:  b \r\n' +
        'Content-Type: application/json\r\ncontent-type: text/plain\r\nKeep-Alive: timeout=5, max=100',
    ) as AnswerHead;
    expect(head.status).toBe(429);
    expect(head.statusMessage).toBe('');
    expect(head.fields.rawHeaders.slice(0, 4)).toEqual(['Set-Cookie', 'a=1', 'set-cookie', 'b=2']);
    expect(head.fields.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(head.fields.headers['x-tag']).toBe('a, b');
    expect(head.fields.headers['content-type']).toBe('application/json');
    // One field by name is what the whole view says, without making it.
    expect(head.fields.get('x-tag')).toBe('a, b');
    expect(head.fields.get('content-type')).toBe('application/json');
    expect(head.fields.get('set-cookie')).toBe('a=1, b=2');
    expect(head.fields.get('keep-alive')).toBe('timeout=5, max=100');
    expect(head.fields.get('absent')).toBeUndefined();
    expect(head.keepAliveS).toBe(5);
  });

  it("keeps fields named like an object's own properties, as node does", () => {
    const head = parseHead(
      'HTTP/1.1 200 OK\r\nconstructor: x\r\ntoString: y\r\n__proto__: z\r\nhasOwnProperty: w',
    ) as AnswerHead;
    expect(Object.entries(head.fields.headers)).toEqual([
      ['constructor', 'x'],
      ['tostring', 'y'],
      ['__proto__', 'z'],
      ['hasownproperty', 'w'],
    ]);
  });

  it.each([
    ['no status line', 'HTTP/2 200\r\n\r\n', /status line/],
    ['a bare LF in the reason', 'HTTP/1.1 200 OK\nX-Evil: 1\r\n\r\n', /status line/],
    ['a folded field', 'HTTP/1.1 200 OK\r\nX-A: 1\r\n  2\r\n\r\n', /NAME: VALUE/],
    ['a field without a name', 'HTTP/1.1 200 OK\r\n: x\r\n\r\n', /NAME: VALUE/],
    ['a control character', 'HTTP/1.1 200 OK\r\nX-A: a\x01b\r\n\r\n', /control character/],
    [
      'two lengths',
      'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
      /Content-Length/,
    ],
    ['a length not a number', 'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n', /Content-Length/],
    [
      'both framings',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 60\r\n\r\n5\r\nhello\r\n0\r\n\r\n',
      /both Transfer-Encoding and Content-Length/,
    ],
    [
      'a coding other than chunked',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n',
      /not chunked alone/,
    ],
    [
      'a coding before chunked',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n',
      /not chunked alone/,
    ],
    [
      'a chunk size not hexadecimal',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      /hexadecimal/,
    ],
    [
      'a chunk without its CRLF',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab',
      /CRLF/,
    ],
    ['an unasked 101', 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n', /101/],
  ])('refuses %s', (_, bytes, why) => {
    expect(read(bytes, { size: 3 }).wrong).toMatch(why);
  });

  it('refuses a head longer than node would read, and says when an answer was cut short', () => {
    expect(read(`HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(20_000)}`, { size: 4096 }).wrong).toMatch(
      /over 16384 bytes/,
    );
    expect(
      read('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc', { closed: true }).wrong,
    ).toMatch(/before the answer's end/);
    expect(read('HTTP/1.1 200', { closed: true }).wrong).toMatch(/before an answer/);
  });
});
