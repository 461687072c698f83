// Every answer the service stands behind carries the request-ID header (§7: a client records it to
// find a lost submission): the cluster primary's 503 worker_unresponsive had none
// (worker-stalled-replaced.e2e.test.ts), nor the 503 temporarily_unavailable a worker answers when its
// answer fails (a relay to a primary gone). Both now take their service's next request ID. (What node
// answers in the service's stead, malformed HTTP, 417, CONNECT, keeps none: test/fuzz tells them so.)
import { request } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/index.ts';

let server: RunningMockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function get(url: string): Promise<{ status: number; requestId: unknown; text: string }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, requestId: res.headers['x-oneapi-request-id'], text }),
      );
    })
      .on('error', reject)
      .end();
  });
}

it('gives the 503 of an answer that failed a request ID of its own', async () => {
  let calls = 0;
  server = await startMockServer({
    port: 0,
    answer: (req) =>
      calls++ % 2 === 0
        ? Promise.reject(new Error('the primary is gone'))
        : server!.service.handle(req),
  });
  const failed = await get(`${server.url}/__mock/health`);
  const served = await get(`${server.url}/__mock/health`);
  expect(failed.status).toBe(503);
  expect(JSON.parse(failed.text)).toMatchObject({ error: { code: 'temporarily_unavailable' } });
  expect(failed.requestId).toMatch(/^\d{22}$/);
  expect(served.requestId).toMatch(/^\d{22}$/);
  expect(failed.requestId).not.toBe(served.requestId);
});
