import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/index.ts';
import { serviceContract } from '../../src/spec/index.ts';
import { sendRaw } from '../fuzz/raw-http.ts';

// Found by the socket fuzzer: an HTTP/1.1 request without Host (malformed, RFC 9112 §3.2) was refused
// by node:http itself with an empty 400 — no content type, no JSON — unlike every other malformed request.
let server: RunningMockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, clock: { mode: 'manual' } });
});
afterAll(() => server.close());

const send = (text: string) =>
  sendRaw({
    port: server.port,
    pieces: [Buffer.from(text)],
    after: 'keep',
    method: 'GET',
    timeoutMs: 5000,
  });

it('refuses HTTP/1.1 without Host with the JSON 400 of malformed HTTP, and closes', async () => {
  const result = await send(
    'GET /v1/models HTTP/1.1\r\nAuthorization: Bearer sk-mock-alice\r\n\r\n',
  );
  expect(result.response?.status).toBe(400);
  expect(result.response?.headers['content-type']).toMatch(/^application\/json/);
  expect(result.response?.headers['connection']).toBe('close');
  const error = JSON.parse(Buffer.from(result.response!.body!).toString()) as unknown;
  expect(serviceContract().validators.schema('ErrorBody').validateFull(error).errors).toEqual([]);
  expect(error).toMatchObject({ error: { code: 'bad_request' } });
});

it('still serves HTTP/1.0 without Host, and HTTP/1.1 with one', async () => {
  expect(
    (await send('GET /v1/models HTTP/1.0\r\nAuthorization: Bearer sk-mock-alice\r\n\r\n')).response
      ?.status,
  ).toBe(200);
  expect(
    (
      await send(
        'GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ' +
          'sk-mock-alice\r\nConnection: close\r\n\r\n',
      )
    ).response?.status,
  ).toBe(200);
});
