import { describe, expect, it } from 'vitest';
import { expectConformant, expectJsonError } from '../helpers/conformance.ts';
import { BAD_INPUT_CASES } from './node-server/bad-input-cases.ts';
import { call, rawSocket, server, useNodeServer } from './node-server/fixture.ts';

useNodeServer();

describe('startMockServer over HTTP', () => {
  describe('bad input', () => {
    it.each(BAD_INPUT_CASES)(
      'refuses $name with a 4xx JSON error and creates no task',
      async ({ send, status, message, operationId, check }) => {
        const before = server.service.store.size;
        const answer = await send();
        // Exact statuses: all 4xx but the unknown model's 503, the gateway's "no available channel"
        // (spec: ModelNotFound).
        expectJsonError(answer, status, message);
        if (operationId !== undefined) expectConformant(operationId, answer);
        check?.(answer);
        expect(server.service.store.size).toBe(before);
        // The server still serves.
        expect((await call('/v1/models')).status).toBe(200);
      },
    );

    it('answers GETs that carry a body and reads the next request on the same connection', async () => {
      const get = (extra: string, body = '') =>
        `GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer sk-mock-alice\r\n${extra}\r\n${body}`;
      const text = await rawSocket(
        get('Content-Length: 5\r\n', 'hello') +
          get('Transfer-Encoding: chunked\r\n', '2\r\n{}\r\n0\r\n\r\n') +
          get('Connection: close\r\n'),
      );
      expect(text.match(/HTTP\/1\.1 \d+/g)).toEqual([
        'HTTP/1.1 200',
        'HTTP/1.1 200',
        'HTTP/1.1 200',
      ]);
    });

    it('answers a malformed request line with JSON 400 and keeps serving', async () => {
      const before = server.service.store.size;
      const text = await rawSocket('GARBAGE\r\n\r\n');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 400 /);
      expect(head).toMatch(/content-type: application\/json/i);
      expect(JSON.parse(body)).toMatchObject({
        error: { message: expect.stringMatching(/Malformed/) as unknown },
      });
      expect(server.service.store.size).toBe(before);
      expect((await call('/v1/models')).status).toBe(200);
    });
  });
});
