import { describe, expect, it } from 'vitest';
import { exitStatus } from '../../cli/commands/contract-target.ts';
import { runContract, type ContractReport } from '../../contracts/index.ts';
import type { Defect } from '../../mocks/defects/defect.ts';
import { withHeader } from '../../mocks/defects/support.ts';
import { createMockService, startMockServer } from '../../mocks/index.ts';
import { coreFetch } from '../contracts/support/core-fetch.ts';
import { BASE_TARGET, checkInProcess } from '../contracts/support/in-process.ts';
import { VirtualClock } from '../contracts/support/virtual-clock.ts';
import { runVideotask } from '../helpers/cli.ts';

// Issue 24 item 4: a run whose every submission was answered 429 passed (exit 0, "follows the
// documented behaviour", 0 tasks), and one whose every submission was refused 4xx or 5xx exited 1 as
// if the deployment had been judged. A run that submitted and followed no task did not check the
// lifecycle at all: it exits 2, whatever the refusal, as it already did when submissions timed out.
const SUBMISSIONS = new Set(['createVideoGeneration', 'createVideo', 'createPluginTask']);

/** Every submission answered `status` by the mock's own `fail-at-submit` scenario (no task created). */
function refusing(status: number): Defect {
  return {
    name: `every-submission-${status}`,
    description: `answers every submission ${status}`,
    breaks: [],
    before: (request, { operationId }) =>
      operationId !== undefined && SUBMISSIONS.has(operationId)
        ? withHeader(request, 'x-mock-scenario', `fail-at-submit:${status}`)
        : request,
  };
}

/** A run whose lifecycle submissions (the owner's, with a prompt) never get an answer. */
async function unanswered(): Promise<ContractReport> {
  const service = createMockService({ clock: { mode: 'manual', start: Date.UTC(2026, 10, 22) } });
  const clock = new VirtualClock(service.clock);
  const core = coreFetch(service);
  const lost: typeof fetch = (input, init) => {
    const owner =
      (init?.headers as Record<string, string>)['authorization'] === 'Bearer sk-mock-alice';
    const body = typeof init?.body === 'string' ? init.body : '';
    const prompted = /"prompt":"videotask contract check: /.test(body);
    if (init?.method === 'POST' && owner && prompted)
      return Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } }));
    return core(input, init);
  };
  return runContract(BASE_TARGET, { fetch: clock.track(lost), clock });
}

const REFUSALS: [string, () => Promise<ContractReport>][] = [
  ['429', async () => (await checkInProcess({ defects: [refusing(429)] })).report],
  ['400', async () => (await checkInProcess({ defects: [refusing(400)] })).report],
  ['403', async () => (await checkInProcess({ defects: [refusing(403)] })).report],
  ['no answer (the connection reset)', unanswered],
];

// A 5xx on a valid submission fails §4.1 (submission.both-paths): a documented failure is exit 1
// whatever else happened (issue 31 item 3), and the reason no task was followed is said besides.
const FAILING: [string, () => Promise<ContractReport>][] = [
  ['500', async () => (await checkInProcess({ defects: [refusing(500)] })).report],
  ['503', async () => (await checkInProcess({ defects: [refusing(503)] })).report],
];

describe('a run in which no submission was confirmed', () => {
  it.each(REFUSALS)('exits 2, saying why, when every submission gets %s', async (_name, run) => {
    const report = await run();
    expect(report.tasksCreated).toBe(0);
    expect(report.noTaskFollowed).toMatch(/^no submission was confirmed: /);
    const status = exitStatus(report);
    expect(status.code).toBe(2);
    expect(status.why).toMatch(/no task could be followed/);
  });

  it.each(FAILING)(
    'exits 1 when every submission gets %s, saying no task was followed besides',
    async (_name, run) => {
      const report = await run();
      expect(report.noTaskFollowed).toMatch(/^no submission was confirmed: /);
      const status = exitStatus(report);
      expect(status.code).toBe(1);
      expect(status.why).toMatch(/^\d+ documented failure\(s\) found .*no task could be followed/);
    },
  );

  it('names the refusal and what to do about it', async () => {
    const limited = (await checkInProcess({ defects: [refusing(429)] })).report;
    expect(limited.noTaskFollowed).toMatch(/2 rate limited \(429\) past every retry \(\d+ in all/);
    const refused = (await checkInProcess({ defects: [refusing(400)] })).report;
    expect(refused.noTaskFollowed).toMatch(/2 refused \(4xx: check --model and the key's/);
  });

  it('is not what a run that followed a task, or that was asked to submit nothing, gets', async () => {
    expect(exitStatus((await checkInProcess()).report).code).toBe(0);
    const none = (await checkInProcess({}, { budget: 0 })).report;
    expect(none.noTaskFollowed).toBeUndefined();
    expect(exitStatus(none).code).toBe(0);
  });
});

describe('videotask contract against a deployment that rate-limits every submission', () => {
  it('exits 2, where it exited 0', async () => {
    const mock = await startMockServer({ port: 0, speed: 100, defects: [refusing(429)] });
    try {
      const run = await runVideotask(
        [
          'contract',
          ...['--base-url', mock.url, '--api-key', 'sk-mock-alice'],
          ...['--poll-initial', '0.02', '--poll-max', '0.1'],
        ],
        { timeoutMs: 60_000 },
      );
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/no submission was confirmed: 2 rate limited \(429/);
      expect(run.stdout).toMatch(/0 task\(s\) created/);
    } finally {
      await mock.close();
    }
  });
});
