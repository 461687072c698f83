// Issue 33 item 2 (high): the Host check accepted values no URL can hold (`a:99999`, `[:::::]`,
// `999.999.999.999`, `1.2.3.4.5`); on a completed task's content, a `--content-redirect` mock built an
// origin from one and reached `new URL(…)` in the judge, uncaught: the process was gone. Host is now
// read as a URL authority (RFC 9112 §3.2: anything else is a 400), and the judge never takes the
// process with it.
import { afterEach, expect, it } from 'vitest';
import { sendRaw } from '../fuzz/raw-http.ts';
import { killMockProcesses, listening, spawnMock } from '../helpers/mock-process.ts';

afterEach(killMockProcesses);

const ALICE = { authorization: 'Bearer sk-mock-alice' };
const BAD_HOSTS = ['a:99999', '[:::::]', '999.999.999.999', '1.2.3.4.5', 'a:', 'a:65536'];

async function completedTask(base: string): Promise<string> {
  const submitted = await fetch(`${base}/v1/videos`, {
    method: 'POST',
    headers: { ...ALICE, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'video-pro-v1', prompt: 'a kite' }),
  });
  const { id } = (await submitted.json()) as { id: string };
  const advanced = await fetch(`${base}/__mock/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ms: 3_600_000 }),
  });
  expect(advanced.status).toBe(200);
  return id;
}

it('answers a Host no URL can hold with a JSON 400, and keeps serving', async () => {
  const mock = spawnMock('--port', '0', '--content-redirect', '--clock', 'manual');
  const base = await listening(mock, /secret: .*\n/, 30_000);
  const id = await completedTask(base);
  const port = Number(new URL(base).port);
  for (const host of BAD_HOSTS) {
    const result = await sendRaw({
      port,
      pieces: [
        Buffer.from(
          `GET /v1/videos/${id}/content HTTP/1.1\r\nHost: ${host}\r\n` +
            `Authorization: Bearer sk-mock-alice\r\nConnection: close\r\n\r\n`,
        ),
      ],
      after: 'keep',
      method: 'GET',
      timeoutMs: 5000,
    });
    expect(result.response?.status, host).toBe(400);
    expect(result.response?.headers['content-type']).toMatch(/^application\/json/);
  }
  // The same content with a Host a URL can hold is still redirected, and the process is alive.
  const content = await fetch(`${base}/v1/videos/${id}/content`, {
    headers: ALICE,
    redirect: 'manual',
  });
  expect(content.status).toBeGreaterThanOrEqual(300);
  expect(content.status).toBeLessThan(400);
  expect(mock.stderr()).not.toMatch(/TypeError|Invalid URL/);
});
