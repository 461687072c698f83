// Issue 34 item 1: the header fields a proxy forwards (RFC 9110 §7.6.1) and the Via it adds (§7.6.3).
import { describe, expect, it } from 'vitest';
import { endToEnd, VIA } from '../../proxy/hop-by-hop.ts';

const names = (raw: readonly string[]) => raw.filter((_, i) => i % 2 === 0);

describe('the fields a proxy forwards', () => {
  it('drops Connection, every field it names and the connection-only fields; keeps the rest in order', () => {
    const raw = [
      'Host',
      'proxy.local:4020',
      'Connection',
      'keep-alive, X-Private',
      'connection',
      'Upgrade',
      'X-Private',
      'secret',
      'Keep-Alive',
      'timeout=5',
      'TE',
      'trailers',
      'Transfer-Encoding',
      'chunked',
      'Upgrade',
      'websocket',
      'Proxy-Authorization',
      'Basic eA==',
      'Proxy-Connection',
      'keep-alive',
      'Authorization',
      'Bearer sk-x',
      'X-Request-Id',
      'r-1',
      'x-request-id',
      'r-2',
    ];
    const out = endToEnd(raw);
    expect(names(out)).toEqual(['Authorization', 'X-Request-Id', 'x-request-id', 'Via']);
    expect(out.at(-1)).toBe(VIA);
  });

  it('drops a field Connection names whatever its length, and keeps fields of the same length', () => {
    const long = 'X-A-Private-Field-With-A-Name-Over-31';
    const raw = [
      'connection',
      long.toUpperCase(),
      long,
      'secret',
      'X-B-Kept-Field-With-A-Name-Over-31!',
    ];
    raw.push('kept', 'X-Privat', 'kept too', 'X-Private', 'named', 'Connection', 'x-private');
    raw.push('TE-', 'kept as well', 'HOST', 'proxy.local');
    expect(names(endToEnd(raw))).toEqual([
      'X-B-Kept-Field-With-A-Name-Over-31!',
      'X-Privat',
      'TE-',
      'Via',
    ]);
  });

  it('appends itself to a Via already there and adds fields after', () => {
    const out = endToEnd(
      ['Via', '1.0 edge', 'Content-Type', 'application/json'],
      ['Content-Length', '2'],
    );
    expect(out).toEqual([
      'Via',
      `1.0 edge, ${VIA}`,
      'Content-Type',
      'application/json',
      'Content-Length',
      '2',
    ]);
  });
});
