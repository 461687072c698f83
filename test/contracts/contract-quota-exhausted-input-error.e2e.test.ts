import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ContractReport } from '../../contracts/index.ts';
import { startMockServer, type RunningMockServer } from '../../mocks/node/http/server.ts';
import { runVideotask } from '../helpers/cli.ts';

// Issue 31, fourth example and item 3: a key whose quota is exhausted exited 2 (right) but printed
// `FAIL submission.both-paths documented §4.1`; the JSON report counted one failure and no input
// error, and JUnit held a <failure>: a dashboard showed a service violation for a key problem. §7
// reads a refused submission (4xx) as the client's to fix: when no path takes a valid task from the
// key, it is an input error in the console, the report's inputErrors and JUnit (an <error>).

let mock: RunningMockServer;
let dir: string;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, speed: 100 });
  dir = mkdtempSync(join(tmpdir(), 'videotask-quota-'));
});
afterAll(async () => {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});

it('a key without quota is an input error everywhere, never a FAIL of the document', async () => {
  const run = await runVideotask(
    [
      'contract',
      ...['--base-url', mock.url, '--api-key', 'sk-mock-broke', '--other-api-key', 'sk-mock-bob'],
      ...['--poll-initial', '0.05', '--poll-max', '0.2', '--report-dir', dir],
    ],
    { timeoutMs: 60_000 },
  );
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(2);
  expect(run.stdout).not.toMatch(/^FAIL/m);
  expect(run.stdout).toMatch(
    new RegExp(
      '^input error {2}the deployment refused every valid task of --model video-pro-v1 from ' +
        'the key sk-…ke \\(POST /v1/video/generations and POST /v1/videos answered HTTP 403: .*quota',
      'm',
    ),
  );
  expect(run.stderr).toMatch(
    /videotask contract: the run's input is wrong: .*check the key's quota/,
  );
  const report = JSON.parse(
    readFileSync(join(dir, 'contract-report.json'), 'utf8'),
  ) as ContractReport;
  expect(report.counts.fail).toBe(0);
  expect(report.inputErrors).toHaveLength(1);
  expect(report.exit.code).toBe(2);
  const junit = readFileSync(join(dir, 'contract-junit.xml'), 'utf8');
  expect(XMLValidator.validate(junit)).toBe(true);
  expect(junit).not.toMatch(/<failure/);
  expect(junit).toMatch(/failures="0" errors="1"/);
  expect(junit).toMatch(
    /<error type="input error" message="the deployment refused every valid task/,
  );
});
