// Issue 32 item 1, as a client team meets it: `npm start` runs `videotask mock --speed 100`, and four
// submissions sent back to back on a 429 got no §7 verdict there (the Retry-After the mock sends is in
// real seconds, and the judge read it as the mock's). A real mock process at --speed 100, a client with
// fetch, the report over HTTP.
import { afterEach, expect, it } from 'vitest';
import type { ClientReport } from '../../mocks/index.ts';
import { killMockProcesses, listening, spawnMock } from '../helpers/mock-process.ts';

afterEach(() => killMockProcesses());

it('judges four submissions sent back to back on a 429 at --speed 100', async () => {
  const mock = spawnMock('--port', '0', '--speed', '100');
  const base = await listening(mock, /secret: .*\n/);
  const headers = {
    authorization: 'Bearer sk-mock-alice',
    'content-type': 'application/json',
    'x-request-id': 'kite-429',
  };
  const body = JSON.stringify({ model: 'video-pro-v1', prompt: 'a kite [mock:rate-limit]' });
  for (let n = 0; n < 4; n++) {
    const answer = await fetch(`${base}/v1/videos`, { method: 'POST', headers, body });
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('1'); // 2 s of the mock's clock, in real seconds
    await answer.arrayBuffer();
  }
  const report = (await (await fetch(`${base}/__mock/client-report`)).json()) as ClientReport;
  expect(report.verdicts.map((v) => [v.rule, v.section, v.outcome])).toEqual([
    ['backoff-after-429', '§7', 'violation'],
  ]);
  expect(report.verdicts[0]!.message).toMatch(/sooner than Retry-After asked 100\.0+ s/);
});
