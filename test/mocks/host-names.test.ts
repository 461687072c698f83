import { expect, it } from 'vitest';
import { HostNames } from '../../mocks/node/http/host-names.ts';

function names(listenHost: string, port: number): HostNames {
  const hostNames = new HostNames(listenHost);
  const literal = listenHost.includes(':') ? `[${listenHost}]` : listenHost;
  hostNames.listening(port, `http://${literal}:${port}`);
  return hostNames;
}

it.each([
  ['127.0.0.1', ['127.0.0.1:4010', 'localhost:4010', '[::1]:4010', 'LocalHost:4010', 'localhost']],
  ['192.168.1.5', ['192.168.1.5:4010', '192.168.1.5', 'localhost:4010']],
  ['::1', ['[::1]:4010', '127.0.0.1:4010']],
  ['mock.internal', ['mock.internal:4010', 'MOCK.internal:4010']],
])('takes the listening address %s and the loopback names for this mock', (host, allowed) => {
  const hostNames = names(host, 4010);
  for (const value of allowed) expect(hostNames.view(value).allowed, value).toBe(true);
});

it('takes no other name, no other port and no wildcard address for this mock', () => {
  const wildcard = names('0.0.0.0', 4010);
  for (const value of [
    '0.0.0.0:4010',
    'evil.example:4010',
    'localhost:4011',
    'localhost.:4010',
    '127.0.0.2:4010',
    'évil host',
    '',
  ])
    expect(wildcard.view(value).allowed, value).toBe(false);
  expect(names('::', 4010).view('[::]:4010').allowed).toBe(false);
});

it('builds absolute URLs from a well-formed Host, else from the listening address', () => {
  const hostNames = names('127.0.0.1', 4010);
  expect(hostNames.view('localhost:4010').origin).toBe('http://localhost:4010');
  expect(hostNames.view('a b/../c').origin).toBe('http://127.0.0.1:4010');
  expect(hostNames.view(undefined)).toEqual({
    origin: 'http://127.0.0.1:4010',
    allowed: true,
    valid: true,
  });
});

it('reads Host as a URL authority: a value no URL can hold is not valid (issue 33 item 2)', () => {
  const hostNames = names('127.0.0.1', 4010);
  for (const value of ['a:99999', '[:::::]', '999.999.999.999', '1.2.3.4.5', 'a b', 'a:65536'])
    expect(hostNames.view(value), value).toMatchObject({ valid: false, allowed: false });
  for (const value of ['localhost:4010', '[::1]:4010', 'example.com', '10.0.0.1:65535', ''])
    expect(hostNames.view(value).valid, value).toBe(true);
});

it('judges each value for itself when values alternate, and anew once listening on another port', () => {
  const hostNames = names('127.0.0.1', 4010);
  const seen = ['localhost:4010', 'evil.example:4010', 'localhost:4010', 'localhost:4010', 'a b'];
  expect(seen.map((value) => hostNames.view(value).allowed)).toEqual([
    true,
    false,
    true,
    true,
    false,
  ]);
  expect(hostNames.view('localhost:4010').origin).toBe('http://localhost:4010');
  hostNames.listening(4011, 'http://127.0.0.1:4011');
  expect(hostNames.view('localhost:4010').allowed).toBe(false);
  expect(hostNames.view('localhost:4011').allowed).toBe(true);
});
