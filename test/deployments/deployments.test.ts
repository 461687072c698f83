import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contractCommand } from '../../cli/commands/contract.ts';
import type { ContractReport } from '../../contracts/index.ts';
import { failures } from '../contracts/helpers.ts';
import {
  DEPLOYMENT_NAMES,
  startDeployment,
  type Answer,
  type DeploymentName,
  type DeploymentOptions,
  type RunningDeployment,
} from './index.ts';

// The contract suite against three deployments the project never saw (test/deployments/), each
// conforming to the document in its own way: `videotask contract` run in-process as a QA engineer runs
// it (two keys, --tier lifecycle, a failing prompt, the second family's native path) must find no
// documented check failing. The runs go side by side; every task ends within ~4 s (speed 20).

const SPEED = 20;
/** §8's schedule, shortened for a deployment 20× faster than its own timing. */
const POLL = ['--poll-initial', '0.1', '--poll-max', '0.5', '--timeout', '60'];
const FAILING_PROMPT = 'a red kite that should fail';
const FAMILY = ['--family-model', 'alt-video-v2', '--plugin', 'alt-video'];
const LIFECYCLE = ['--tier', 'lifecycle', '--failing-prompt', FAILING_PROMPT, ...FAMILY];

/**
 * Bound (§9 step 1 done), so the native path is checked. problem-json gets a task budget the run
 * exceeds (4 per 2 s; the run creates 5 at once): it answers the fifth 429 with Retry-After, and the
 * suite creates the task on its next try.
 */
const BOUND: Record<DeploymentName, DeploymentOptions> = {
  gateway: { familyBound: true },
  redirector: { familyBound: true },
  'problem-json': { familyBound: true, submissionBudget: { tasks: 4, windowMs: 2_000 } },
};

interface Run {
  readonly code: number;
  readonly report: ContractReport;
  /** Every answer the deployment sent during the run. */
  readonly answers: readonly Answer[];
}

const reportDirs: string[] = [];
const running: RunningDeployment[] = [];

beforeAll(() => {
  // The command prints its summary and progress; the tests read the report file.
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await Promise.all(running.map((d) => d.close()));
  for (const dir of reportDirs) rmSync(dir, { recursive: true, force: true });
});

/** Starts a deployment and runs `videotask contract` against it with both of its keys. */
async function contractRun(
  name: DeploymentName,
  options: DeploymentOptions,
  flags: readonly string[],
): Promise<Run> {
  const answers: Answer[] = [];
  const deployment = await startDeployment(name, {
    speed: SPEED,
    ...options,
    onAnswer: (a) => answers.push(a),
  });
  running.push(deployment);
  const dir = mkdtempSync(join(tmpdir(), `videotask-${name}-`));
  reportDirs.push(dir);
  const [owner, other] = deployment.keys;
  const code = await contractCommand.run([
    ...['--base-url', deployment.url, '--api-key', owner!.key, '--other-api-key', other!.key],
    ...['--report-dir', dir, ...POLL, ...flags],
  ]);
  const report = JSON.parse(
    readFileSync(join(dir, 'contract-report.json'), 'utf8'),
  ) as ContractReport;
  return { code, report, answers };
}

/** The lifecycle run of each deployment, started once and read by several tests. */
const lifecycleRuns = new Map<DeploymentName, Promise<Run>>();
function lifecycleRun(name: DeploymentName): Promise<Run> {
  let run = lifecycleRuns.get(name);
  if (run === undefined) lifecycleRuns.set(name, (run = contractRun(name, BOUND[name], LIFECYCLE)));
  return run;
}

/**
 * The redirector with a key budget of 16 requests per 5 s: exactly what the run sends before its first
 * look at a task (preflight and catalog 2, missing-task probes 4, refusal probes 5, submissions 5;
 * keyless requests are refused before they count), so every first look is answered 429.
 */
let rateLimited: Promise<Run> | undefined;
const rateLimitedRun = () =>
  (rateLimited ??= contractRun(
    'redirector',
    { familyBound: true, rateLimit: { requests: 16, windowMs: 5_000 } },
    LIFECYCLE,
  ));

const observed = (report: ContractReport, route: string, state: string, caller: string) =>
  report.coverage.cells.find((c) => c.route === route && c.state === state && c.caller === caller)
    ?.observed;

/** What only warns must rest on an assumption, never on a documented rule. */
function warnedOnAssumptionsOnly(report: ContractReport): void {
  for (const result of report.results.filter((r) => r.outcome === 'warn'))
    expect(result.basisText, result.id).not.toMatch(/^documented/);
}

const outcomeOf = (report: ContractReport, id: string) =>
  report.results.find((r) => r.id === id)?.outcome;

describe('the contract suite against held-out deployments', () => {
  it.concurrent.each(DEPLOYMENT_NAMES)(
    '%s: --tier lifecycle, two keys, a failing prompt, the native path: no documented check fails, exit 0',
    async (name) => {
      const { code, report } = await lifecycleRun(name);
      expect(failures(report)).toEqual([]);
      expect(code).toBe(0);
      warnedOnAssumptionsOnly(report);
      expect(report.tasksCreated).toBe(5);
      // Where it looked (the states that stay, so that no timing can hide them): completed and failed,
      // the download, another user, the native path.
      for (const [route, state, caller] of [
        ['getVideo', 'completed', 'owner'],
        ['getVideo', 'failed', 'owner'],
        ['getVideoGeneration', 'failed', 'owner'],
        ['getVideoContent', 'completed', 'owner'],
        ['getVideoContent', 'completed', 'other'],
        ['getVideo', 'failed', 'other'],
        ['getPluginTask', 'completed', 'owner'],
        ['createPluginTask', 'n/a', 'owner'],
      ] as const)
        expect(observed(report, route, state, caller), `${route} ${state} ${caller}`).toBe(true);
    },
    90_000,
  );

  // Which of its passing states a run observes is chance: the gateway's background poller moves every
  // task at once (every 15 s of its timing, 0.75 s here), and a state a probe batch straddles is lost.
  it.concurrent(
    'the gateway: not even a warning (the suite assumes its habits)',
    async () => {
      const { report } = await lifecycleRun('gateway');
      expect(report.counts.warn).toBe(0);
    },
    90_000,
  );

  it.concurrent(
    'the redirector: each download followed a 302 to a signed address',
    async () => {
      const { report, answers } = await lifecycleRun('redirector');
      expect(outcomeOf(report, 'content.binary')).toBe('pass');
      const redirects = answers.filter((a) => /\/content$/.test(a.path) && a.status === 302);
      const files = answers.filter((a) => a.path.startsWith('/files/') && a.status < 300);
      expect(redirects.length).toBeGreaterThan(0);
      expect(files.length).toBe(redirects.length);
    },
    90_000,
  );

  it.concurrent(
    'problem-json: a submission past its task budget got 429 with Retry-After, then its task',
    async () => {
      const { report, answers } = await lifecycleRun('problem-json');
      const limited = answers.filter((a) => a.method === 'POST' && a.status === 429);
      expect(limited.length).toBeGreaterThan(0);
      for (const answer of limited) expect(String(answer.headers['retry-after'])).toMatch(/^\d+$/);
      expect(report.tasksCreated).toBe(5);
    },
    90_000,
  );

  // SUITE GAP, reported to the lead: a 429 the suite waits out at submission (submitPatiently in
  // contracts/checks/submission.ts) is never judged, so rate-limit.retry-after says "no 429 was seen"
  // although one was. Flip to `it.concurrent` once the suite records it.
  it.concurrent.fails(
    'problem-json: rate-limit.retry-after judges the 429 the suite waited out ' +
      '(suite gap: skipped as "no 429 was seen")',
    async () => {
      const { report } = await lifecycleRun('problem-json');
      expect(outcomeOf(report, 'rate-limit.retry-after')).toBe('pass');
    },
    90_000,
  );

  it.concurrent(
    'the redirector, rate limited at the first look at each task: every look answered 429 with Retry-After',
    async () => {
      const { report, answers } = await rateLimitedRun();
      const limited = answers.filter(
        (a) => a.status === 429 && /^\/v1\/videos\/[^/]+$/.test(a.path),
      );
      expect(report.tasksCreated).toBe(5);
      expect(new Set(limited.map((a) => a.path)).size).toBe(5);
      for (const look of limited) expect(String(look.headers['retry-after'])).toMatch(/^\d+$/);
    },
    90_000,
  );

  // SUITE GAP, reported to the lead: §7/§8 retry a 429 with backoff, but the suite abandons a task whose
  // first look (outside the §8 poller: followTask's `tracker.look()`) is a 429: every task here is
  // dropped, the coverage says "no poll showed …" and the run exits 0 having followed none.
  it.concurrent.fails(
    'the redirector, rate limited at the first look: the suite waits out the 429 and follows every task ' +
      '(suite gap: it abandons them all, exit 0)',
    async () => {
      const { report } = await rateLimitedRun();
      const reachesEnd = report.results.find((r) => r.id === 'sequence.reaches-end')!;
      expect(reachesEnd.passes).toBe(report.tasksCreated);
    },
    90_000,
  );

  it.concurrent.each(DEPLOYMENT_NAMES)(
    '%s with the second family as §1 describes it today (unbound): --tier free, exit 0',
    async (name) => {
      const { code, report } = await contractRun(name, {}, ['--tier', 'free', ...FAMILY]);
      expect(failures(report)).toEqual([]);
      expect(code).toBe(0);
      warnedOnAssumptionsOnly(report);
      const notes = report.notes.join('\n');
      expect(notes).toMatch(/second family: none of .* is listed for this key/);
      expect(notes).toMatch(/native path not checked: alt-video-v2 is not listed/);
    },
    60_000,
  );
});

describe("the gateway's departures are real breaks of documented rules", () => {
  it('all of them on: the suite fails the checks of the rules they break (exit 1)', async () => {
    const departures = [
      'timeout-sweep',
      'result-url-fallback',
      'upstream-id-in-data',
      'drops-task-id',
    ];
    const { code, report } = await contractRun('gateway', { departures }, [
      '--tier',
      'lifecycle',
      '--failing-prompt',
      FAILING_PROMPT,
    ]);
    expect(code).toBe(1);
    const failed = report.results.filter((r) => r.outcome === 'fail').map((r) => r.id);
    expect(failed).toEqual(
      expect.arrayContaining([
        'task.presence-failed', // timeout-sweep: a failed task without `error` (§2.2)
        'body.result-address', // result-url-fallback: the failure reason as result_url (§2.3)
        'body.no-other-identifier', // upstream-id-in-data: `cgt-…` in data.data (§1)
        'task.presence-completed', // drops-task-id: a completed task without task_id (§2.2)
      ]),
    );
  }, 60_000);
});
