import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/index.ts';
import { serviceContract } from '../../src/spec/index.ts';
import { sendRaw } from '../fuzz/raw-http.ts';

// Found by the socket fuzzer: `Expect: <anything but 100-continue>` never reached the mock. node:http
// answered it itself with an empty 417 (no content type, no body), the one non-JSON error left.
let server: RunningMockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, clock: { mode: 'manual' } });
});
afterAll(() => server.close());

it('answers an unsupported expectation with a JSON 417 and still serves 100-continue', async () => {
  const body = JSON.stringify({ model: 'video-pro-v1', prompt: 'a kite' });
  const head = (expect: string) =>
    `POST /v1/videos HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ` +
    `sk-mock-alice\r\nContent-Type: application/json\r\nExpect: ` +
    `${expect}\r\nContent-Length: ${body.length}\r\n\r\n${body}`;

  const refused = await sendRaw({
    port: server.port,
    pieces: [Buffer.from(head('nonsense'))],
    after: 'keep',
    method: 'POST',
    timeoutMs: 5000,
  });
  expect(refused.response?.status).toBe(417);
  expect(refused.response?.headers['content-type']).toMatch(/^application\/json/);
  const error = JSON.parse(Buffer.from(refused.response!.body!).toString()) as unknown;
  expect(serviceContract().validators.schema('ErrorBody').validateFull(error).errors).toEqual([]);
  expect(error).toMatchObject({ error: { code: 'expectation_failed' } });
  expect(server.service.store.size).toBe(0);

  const accepted = await sendRaw({
    port: server.port,
    pieces: [Buffer.from(head('100-continue'))],
    after: 'keep',
    method: 'POST',
    timeoutMs: 5000,
  });
  expect(accepted.interim).toBe(1);
  expect(accepted.response?.status).toBe(200);
});
