import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractReport } from '../../contracts/index.ts';
import type { Defect } from '../../mocks/defects/defect.ts';
import { startMockServer } from '../../mocks/node/http/server.ts';
import { runVideotask } from '../helpers/cli.ts';
import {
  CREATED_THEN_500,
  CREATED_THEN_UNREADABLE,
  lostAnswer,
} from '../contracts/support/deployments.ts';
import { checkInProcess } from '../contracts/support/in-process.ts';

// Issue 14 item 10: the budget gave a unit back on a 5xx or a time-out, so a deployment that creates
// the task and then answers 500 got 4 tasks created under --budget 1 and 5 under --budget 2, reported
// as "refused" and "0 task(s) created". Only a clear refusal (4xx) gives a unit back now; the rest are
// "unconfirmed", with their request IDs. Counted on the mock's side.
const DEPLOYMENTS: [string, Defect[]][] = [
  ['creates the task, then answers 500', [CREATED_THEN_500]],
  ['creates the task, then drops the connection', [lostAnswer()]],
  ['creates the task, then answers 200 naming no task', [CREATED_THEN_UNREADABLE]],
];

describe('a submission that was not clearly refused keeps its unit of the budget', () => {
  it.each(
    DEPLOYMENTS.flatMap(([name, defects]) =>
      [1, 2].flatMap((budget) => [
        [name, budget, defects] as const,
        [
          `${name}, accepting what it should refuse`,
          budget,
          [...defects, 'empty-prompt-accepted', 'auth-skipped'],
        ] as const,
      ]),
    ),
  )('%s: never more than --budget %i tasks', async (_name, budget, defects) => {
    const { report, service } = await checkInProcess({ defects: [...defects] }, { budget });
    expect(service.store.size).toBeLessThanOrEqual(budget);
    expect(service.store.size).toBeGreaterThan(0);
    // Every task that exists is reported, as created or as unconfirmed.
    expect(report.tasksCreated + report.unconfirmed.length).toBeGreaterThanOrEqual(
      service.store.size,
    );
    expect(report.unconfirmed.length).toBeGreaterThan(0);
    for (const u of report.unconfirmed) {
      expect(u.clientRequestId).toMatch(/^videotask-contract-/);
      expect(u).not.toHaveProperty('requestId'); // the 1.1 name, gone in 2.0.0
    }
  });

  it('names the service request ID of an answer that carried one', async () => {
    const { report } = await checkInProcess({ defects: [CREATED_THEN_500] }, { budget: 1 });
    expect(report.unconfirmed).toEqual([
      {
        request: 'POST /v1/video/generations',
        clientRequestId: expect.stringMatching(/^videotask-contract-/) as unknown,
        serviceRequestId: expect.stringMatching(/^\d{14}\d{8}$/) as unknown,
        answered: 'HTTP 500',
      },
    ]);
  });
});

// Over HTTP, as QA runs it: the CLI against a real mock, the tasks counted by its control API.
describe('videotask contract against a deployment that creates the task, then fails to confirm it', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'videotask-budget-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['answers 500', 1, CREATED_THEN_500, [], /: HTTP 500 — may have created a task/],
    ['answers 500', 2, CREATED_THEN_500, [], /: HTTP 500 — may have created a task/],
    [
      'never answers in time',
      1,
      lostAnswer(5),
      ['--request-timeout', '1'],
      /: no answer: no answer within the request time limit — may have created a task/,
    ],
    [
      'never answers in time',
      2,
      lostAnswer(5),
      ['--request-timeout', '1'],
      /: no answer: no answer within the request time limit — may have created a task/,
    ],
  ] as const)(
    '%s: creates at most --budget %i and reports them unconfirmed with their request IDs',
    async (_name, budget, defect, extra, answered) => {
      const mock = await startMockServer({ port: 0, speed: 100, defects: [defect] });
      try {
        const run = await runVideotask(
          [
            'contract',
            ...['--base-url', mock.url, '--api-key', 'sk-mock-alice', '--budget', String(budget)],
            ...['--poll-initial', '0.02', '--poll-max', '0.1', '--report-dir', dir, ...extra],
          ],
          { timeoutMs: 60_000 },
        );
        const listed = (await (await fetch(`${mock.url}/__mock/tasks`)).json()) as {
          tasks: unknown[];
        };
        const tasks = listed.tasks.length;
        expect(tasks).toBeGreaterThan(0);
        expect(tasks).toBeLessThanOrEqual(budget);
        expect(run.stdout).toMatch(
          new RegExp(`0 task\\(s\\) created, ${tasks} unconfirmed \\(may have created a task\\)`),
        );
        expect(run.stdout).toMatch(
          /^unconfirmed {2}POST \/v1\/video\/generations: .*\(X-Request-Id videotask-contract-[0-9a-f-]{36}/m,
        );
        expect(run.stdout).toMatch(answered);
        expect(run.stdout).not.toMatch(/refused a valid task/);
        const report = JSON.parse(
          readFileSync(join(dir, 'contract-report.json'), 'utf8'),
        ) as ContractReport;
        expect(report.unconfirmed).toHaveLength(tasks);
        expect(report.tasksCreated).toBe(0);
        // No task could be followed: never a green run (one that only timed out once exited 0).
        expect(run.code, run.stderr).toBeGreaterThan(0);
        if (run.code === 2)
          expect(run.stderr).toMatch(/no submission was confirmed: \d+ answered neither a task/);
        if (defect !== CREATED_THEN_500) expect(run.code).toBe(2);
      } finally {
        await mock.close();
      }
    },
  );
});
