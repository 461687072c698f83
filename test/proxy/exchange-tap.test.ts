// Issue 34 item 2: what the judges read of an answer that passed through the proxy: its first bytes
// kept (never a whole video), a compressed JSON answer read as the client reads it.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BodyTap, exchangeOf, JSON_KEPT, keptBytes } from '../../proxy/exchange-tap.ts';

const recorded = (tap: BodyTap, headers: Record<string, string>) => ({
  index: 0,
  method: 'GET',
  path: '/api/v1/videos/task_1',
  rawHeaders: ['Host', 'proxy.local', 'Authorization', 'Bearer sk-x', 'Accept', 'application/json'],
  body: undefined,
  clientRequestId: undefined,
  startedAt: Date.now(),
  waitMs: 1,
  ms: 2,
  status: 200,
  fields: { get: (name: string) => headers[name], headers },
  tap,
  bodyError: undefined,
});

describe('what the judges read of an answer', () => {
  it('keeps the first bytes of a video and counts the rest', () => {
    const tap = new BodyTap(keptBytes('video/mp4'));
    for (let i = 0; i < 100; i++) tap.add(Buffer.alloc(64 * 1024, i));
    expect(tap.bytes).toBe(6_553_600);
    expect(tap.head().length).toBe(512);
    expect(tap.whole).toBe(false);
    expect(keptBytes('application/json; charset=utf-8')).toBe(JSON_KEPT);
  });

  it('reads a gzip-encoded JSON answer as JSON, and shows the request without its key or hop', () => {
    const tap = new BodyTap(keptBytes('application/json'));
    tap.add(gzipSync(JSON.stringify({ id: 'task_1', status: 'queued' })));
    const exchange = exchangeOf(
      recorded(tap, { 'content-type': 'application/json', 'content-encoding': 'gzip' }),
    );
    expect(exchange.json).toEqual({ id: 'task_1', status: 'queued' });
    expect(exchange.sent.headers).toEqual({ accept: 'application/json' });
    expect(exchange.headers['content-encoding']).toBe('gzip');
  });
});
