import { afterEach, expect, it } from 'vitest';
import { killMockProcesses } from '../helpers/mock-process.ts';
import { call, startWorkers } from '../helpers/workers.ts';

// With `videotask mock --workers 2`, every worker numbered its X-Oneapi-Request-Id from 1, so two
// answers of one deployment could carry the same request ID, which a client records to find a lost
// submission (§7). Worker s now numbers s + 1 modulo N + 1 and the primary (control answers) 0.
afterEach(killMockProcesses);

it('hands out every request ID once across the workers and the primary', async () => {
  const { base } = await startWorkers('--clock', 'manual');
  const asked = [
    ...Array.from({ length: 40 }, () => call(base, 'GET', '/v1/videos/task_missing')),
    ...Array.from({ length: 6 }, () => call(base, 'POST', '/__mock/clock/advance', { ms: 1000 })),
  ];
  const answers = await Promise.all(asked);
  const ids = answers.map((answer) => answer.requestId);
  for (const id of ids) expect(id).toMatch(/^\d{14}\d{8}$/);
  expect(new Set(answers.map((answer) => answer.worker)).size).toBeGreaterThan(1);
  expect(new Set(ids).size).toBe(ids.length);
}, 60_000);
