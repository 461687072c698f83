// Issue 32 item 3: the project's own tools were judged as the client. The README walk-through runs the
// contract suite with sk-mock-alice on the same mock the client quick start uses: alice's report then
// held the suite's deliberate bad-input probes (no-direct-retry-after-4xx ×42, a missing key, its two
// submissions as a no-resubmission), a report the team could not act on. The tools now mark their
// requests (X-Videotask-Tool) and the mock counts them apart: alice's verdicts are her client's own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import type { ClientReport } from '../../mocks/index.ts';
import { runVideotask } from '../helpers/cli.ts';
import { killMockProcesses, listening, spawnMock } from '../helpers/mock-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'videotask-tools-apart-'));
afterEach(() => killMockProcesses());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("leaves alice's verdicts empty after the README's client quick start and QA's contract run", async () => {
  const mock = spawnMock('--port', '0', '--speed', '100', '--seed', '32');
  const base = await listening(mock, /secret: .*\n/);
  const env = { ...process.env, VIDEOTASK_BASE_URL: base, VIDEOTASK_API_KEY: 'sk-mock-alice' };
  // The client quick start (README): submit, wait, download.
  const submitted = await runVideotask(
    ['submit', '--model', 'video-pro-v1', '--prompt', 'a red kite'],
    { env, cwd: dir },
  );
  expect(submitted.code, submitted.stderr).toBe(0);
  const id = submitted.stdout.trim();
  expect((await runVideotask(['wait', id], { env, cwd: dir })).code).toBe(0);
  const video = join(dir, 'video.mp4');
  expect((await runVideotask(['download', id, '-o', video], { env, cwd: dir })).code).toBe(0);
  // QA's quick start on the same mock, with alice's key.
  const contract = await runVideotask(
    [
      'contract',
      '--base-url',
      base,
      '--api-key',
      'sk-mock-alice',
      '--other-api-key',
      'sk-mock-bob',
      '--tier',
      'free',
      '--report-dir',
      join(dir, 'reports'),
    ],
    { env, cwd: dir, timeoutMs: 120_000 },
  );
  expect(contract.code, contract.stderr).toBe(0);

  const report = (await (await fetch(`${base}/__mock/client-report`)).json()) as ClientReport;
  expect(report.verdicts).toEqual([]);
  expect(report.tools.byTool['contract']).toBeGreaterThan(0);
  expect(report.tools.notCovered).toBe(0);
  const alice = report.coverage.callers.find((c) => c.user === 'alice')!;
  expect(alice.requests).toBeGreaterThanOrEqual(3); // her client's own: submit, polls, download
});
