import { connect, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.ts';
import { killMockProcesses, listening, spawnMock } from '../helpers/mock-process.ts';

const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
  killMockProcesses();
});

function open(port: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => resolve());
    socket.on('error', () => resolve());
    sockets.push(socket);
  });
}

it('says once on stderr that connections over --max-connections-per-address replace idle ones', async () => {
  const mock = spawnMock('--port', '0', '--max-connections-per-address', '3');
  const url = new URL(await listening(mock, /API reference/));
  for (let i = 0; i < 10; i++) await open(Number(url.port));
  // Connections that send nothing: each new one takes the place of the oldest (issue 33 item 10).
  const said = /takes the place/;
  await eventually(
    () => said.test(mock.stderr()),
    'the mock saying new connections replace idle ones',
  );
  const lines = mock
    .stderr()
    .split('\n')
    .filter((l) => said.test(l));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    new RegExp(
      String.raw`^videotask mock: 3 open from 127\.0\.0\.1, ` +
        String.raw`the limit for one address \(--max-connections-per-address\): each new connection ` +
        'takes the place of the one idle longest before its headers',
    ),
  );
});
