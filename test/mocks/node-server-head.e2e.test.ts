import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/index.ts';

/**
 * Issue 23, "Thin hosts": a HEAD answer has no body on the wire (RFC 9110 §9.3.2), whoever made it:
 * the core (which takes the body off in one place, `answerTo`) or the node host itself (a Host-less
 * request's 400, an unsupported Expect's 417, the /docs page), which node:http sends without one.
 * Read from a raw socket, so that bytes a client library would discard are seen.
 */
let server: RunningMockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, clock: { mode: 'manual' } });
});
afterAll(() => server.close());

/** Everything the server sends back to one request on a connection that closes after it. */
function exchange(head: string): Promise<{ status: number; headers: string; after: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(server.port, '127.0.0.1', () => socket.write(head));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      resolve({
        status: Number(text.slice(9, 12)),
        headers: text.slice(0, split).toLowerCase(),
        after: text.length - split - 4,
      });
    });
  });
}

const host = () => `Host: 127.0.0.1:${server.port}\r\nConnection: close\r\n`;
const ALICE = 'Authorization: Bearer sk-mock-alice\r\n';

describe('HEAD over node:http', () => {
  it.each([
    ['the core: a JSON answer', '/v1/models', ALICE, 200],
    ['the core: an error', '/v1/videos/task_missing', ALICE, 404],
    ['the core: no key', '/v1/models', '', 401],
    ['the core: an unknown path', '/nothing', ALICE, 404],
    ['the host: the /docs page', '/docs', '', 200],
  ])('%s (%s) has no body', async (_what, path, key, status) => {
    const answer = await exchange(`HEAD ${path} HTTP/1.1\r\n${host()}${key}\r\n`);
    expect(answer.status).toBe(status);
    expect(answer.headers).not.toContain('transfer-encoding');
    expect(answer.after).toBe(0);
  });

  it("the host's own JSON errors have no body either: no Host (400), an unsupported Expect (417)", async () => {
    const noHost = await exchange(`HEAD /v1/models HTTP/1.1\r\n${ALICE}\r\n`);
    expect([noHost.status, noHost.after]).toEqual([400, 0]);
    expect(noHost.headers).toContain('content-type: application/json');
    const expectation = await exchange(
      `HEAD /v1/models HTTP/1.1\r\n${host()}Expect: teapot\r\n\r\n`,
    );
    expect([expectation.status, expectation.after]).toEqual([417, 0]);
  });
});
