import { request } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { killMockProcesses, listening, spawnMock } from '../helpers/mock-process.ts';

// With `videotask mock --workers 2`, every worker numbered its X-Oneapi-Request-Id from 1, so two
// answers of one deployment could carry the same request ID, which a client records to find a lost
// submission (§7). Worker s now numbers s + 1 modulo N + 1 and the primary (control answers) 0.
afterEach(killMockProcesses);

function requestIdOf(base: string, path: string, method = 'GET'): Promise<[string, string]> {
  const headers = {
    authorization: 'Bearer sk-mock-alice',
    'content-type': 'application/json',
    connection: 'close',
  };
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers, agent: false }, (res) => {
      res.resume().on('end', () => {
        const id = String(res.headers['x-oneapi-request-id'] ?? '');
        resolve([id, String(res.headers['x-mock-worker'] ?? 'primary')]);
      });
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{"ms":1000}' : undefined);
  });
}

it('hands out every request ID once across the workers and the primary', async () => {
  const mock = spawnMock('--port', '0', '--workers', '2', '--clock', 'manual');
  const base = await listening(mock, /secret: .*\n/, 30_000);
  const asked = [
    ...Array.from({ length: 40 }, () => requestIdOf(base, '/v1/videos/task_missing')),
    ...Array.from({ length: 6 }, () => requestIdOf(base, '/__mock/clock/advance', 'POST')),
  ];
  const answers = await Promise.all(asked);
  const ids = answers.map(([id]) => id);
  for (const id of ids) expect(id).toMatch(/^\d{14}\d{8}$/);
  expect(new Set(answers.map(([, worker]) => worker)).size).toBeGreaterThan(1);
  expect(new Set(ids).size).toBe(ids.length);
}, 60_000);
