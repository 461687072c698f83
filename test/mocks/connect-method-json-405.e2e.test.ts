import { expect, it } from 'vitest';
import { startMockServer } from '../../mocks/index.ts';
import { serviceContract } from '../../src/spec/index.ts';
import { sendRaw } from '../fuzz/raw-http.ts';
import { within } from '../fuzz/runners.ts';

// Found by the socket fuzzer: node:http drops a CONNECT request without a word when nothing listens for
// it, so the client saw the connection close instead of an error. Answering it needs care: the socket
// has left node's HTTP machinery, so unless it is read to its end it never closes (bytes sent after the
// CONNECT head kept it open for ever, and `close()` of the mock waited for ever).
it('answers CONNECT with a JSON 405 and lets the connection go', async () => {
  const server = await startMockServer({ port: 0, clock: { mode: 'manual' } });
  const head = Buffer.from(
    'CONNECT /__mock/scenarios HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n',
  );
  const result = await sendRaw({
    port: server.port,
    pieces: [head.subarray(0, 30), head.subarray(30), Buffer.from('0\r\n'), Buffer.from('\r\n')],
    after: 'keep',
    method: 'CONNECT',
    timeoutMs: 5000,
  });
  expect(result.response?.status).toBe(405);
  expect(result.response?.headers['content-type']).toMatch(/^application\/json/);
  const error = JSON.parse(Buffer.from(result.response!.body!).toString()) as unknown;
  expect(serviceContract().validators.schema('ErrorBody').validateFull(error).errors).toEqual([]);

  // A client that resets instead of closing must not take the mock down.
  await sendRaw({
    port: server.port,
    pieces: [
      Buffer.from('CONNECT example.test:443 HTTP/1.1\r\nHost: example.test\r\n\r\n'),
      Buffer.from('x'.repeat(1000)),
    ],
    after: 'destroy',
    method: 'CONNECT',
    timeoutMs: 5000,
  });
  const health = await sendRaw({
    port: server.port,
    pieces: [
      Buffer.from('GET /__mock/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
    ],
    after: 'keep',
    method: 'GET',
    timeoutMs: 5000,
  });
  expect(health.response?.status).toBe(200);

  expect(await within(server.close(), 2000)).toBe(true);
});
