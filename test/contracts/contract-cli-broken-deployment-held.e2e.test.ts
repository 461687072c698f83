import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { holdQueued, runContractWatching } from '../helpers/contract-process.ts';
import { videotaskCli } from '../helpers/built-cli.ts';

// Issue (flaky under load): test/contracts/cli-contract.e2e.test.ts "exits 1 against a broken deployment"
// got exit 0 once while other tests ran. Its mock ran 100× (a task lived 0.2–0.7 s), so a suite slowed
// by a busy machine could look at a task first when it had already completed: the content probes of
// the unfinished states never ran, and `content-before-completion` went unjudged. It now runs the mock
// on a manual clock that the test moves once the suite has printed `queued` for both tasks. Here the
// load is made certain: the suite gets no CPU at all (SIGSTOP) for longer than a task of the old test
// lived, at each task's submission, and the defect is still caught.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OLD_TASK_LIFE_MS = 700;
const mocks: ReturnType<typeof spawn>[] = [];
afterAll(() => {
  for (const mock of mocks) mock.kill('SIGKILL');
});

function startHeldMock(): Promise<string> {
  const flags = ['--port', '0', '--clock', 'manual', '--defect', 'content-before-completion'];
  const child = spawn(process.execPath, [videotaskCli(), 'mock', ...flags], { cwd: ROOT });
  mocks.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match !== null) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`mock exited ${code}: ${out}`)));
  });
}

it('catches content served before completion however long the machine stalls the suite', async () => {
  const url = await startHeldMock();
  const held = holdQueued(url, 2);
  let stalls = 0;
  const onLine = (line: string, pid: number) => {
    held.onLine(line);
    if (!/^ {2}… task_\w+ submitted /.test(line)) return;
    stalls++;
    process.kill(pid, 'SIGSTOP');
    setTimeout(() => process.kill(pid, 'SIGCONT'), 2 * OLD_TASK_LIFE_MS);
  };
  const args = ['--base-url', url, '--api-key', 'sk-mock-alice', '--other-api-key', 'sk-mock-bob'];
  const poll = ['--poll-initial', '0.02', '--poll-max', '0.5'];
  const run = await runContractWatching([...args, ...poll], onLine);
  expect(stalls).toBe(2);
  expect(await held.moved).toBe(200);
  expect(run.code).toBe(1);
  expect(run.stdout).toMatch(/^FAIL {2}content\.before-completion\s+documented §3/m);
  expect(run.stdout).toMatch(/content with the owner's key for a queued task answered HTTP 200/);
}, 60_000);
