import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ContractReport } from '../../contracts/index.ts';
import type { Defect } from '../../mocks/defects/defect.ts';
import { SUBMISSIONS, withHeader } from '../../mocks/defects/support.ts';
import { startMockServer, type RunningMockServer } from '../../mocks/node/http/server.ts';
import { runVideotask } from '../helpers/cli.ts';

// Issue 31, third example and item 4: a deployment that answers the first submission on each path
// with 429 and `Retry-After: 1`, creating no task, conforms (§7: a 429 is retried with exponential
// backoff). The suite counted each 429 as a possibly created task against the budget, so it never
// retried, followed no task and exited 2. A 429 made no task now: the suite waits it out, asks again,
// follows its tasks, exits 0 and says how many retries it made.

/** The first POST on each submission path answered 429 + Retry-After: 1 (the mock's scenario: no task). */
function firstOnEachPathRateLimited(): Defect {
  const seen = new Set<string>();
  return {
    name: 'first-on-each-path-rate-limited',
    description:
      'answers the first submission on each path 429 with Retry-After: 1, creating no task',
    breaks: [],
    before: (request, { operationId = '' }) => {
      if (!SUBMISSIONS.has(operationId) || seen.has(operationId)) return request;
      seen.add(operationId);
      return withHeader(request, 'x-mock-scenario', 'rate-limit:1');
    },
  };
}

let mock: RunningMockServer;
let dir: string;
beforeAll(async () => {
  // The scenario's 1 s of the mock's clock is sent as Retry-After in real seconds: at least 1.
  mock = await startMockServer({ port: 0, speed: 100, defects: [firstOnEachPathRateLimited()] });
  dir = mkdtempSync(join(tmpdir(), 'videotask-429-'));
});
afterAll(async () => {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});

it('videotask contract retries the 429s, follows its tasks, exits 0 and reports the retries', async () => {
  const run = await runVideotask(
    [
      'contract',
      ...['--base-url', mock.url, '--api-key', 'sk-mock-alice', '--other-api-key', 'sk-mock-bob'],
      ...['--poll-initial', '0.05', '--poll-max', '0.2', '--report-dir', dir],
    ],
    { timeoutMs: 90_000 },
  );
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  expect(run.stdout).toMatch(/ · 2 retries after 429 \(2 submissions, 0 queries\) · /);
  expect(run.stderr).toMatch(/rate limited \(429\), asking again in \d+ s/);
  const report = JSON.parse(
    readFileSync(join(dir, 'contract-report.json'), 'utf8'),
  ) as ContractReport;
  expect(report.retries).toEqual({ submissions: 2, queries: 0 });
  expect(report.unconfirmed).toEqual([]);
  expect(report.tasksCreated).toBe(2);
  expect(report.exit).toEqual({ code: 0 });
  expect(report.results.find((r) => r.id === 'rate-limit.retry-after')).toMatchObject({
    outcome: 'pass',
    passes: 2,
  });
});
